/*
 * emit.h - writers of raised programs (docs/architecture.md section 9).
 *
 * MLIR: an ir_tprog becomes one func.func in a dialect, written entirely
 * from the dialect file's templates (gram_op emit lines and the dialect's
 * constant line), so a new op needs no C code here.  Shapes are static:
 * each size symbol gets its concrete value from emit_opts.sizes; with
 * emit_opts.dynamic they are `?` dims, read with tensor.dim at function
 * entry, and cf.assert checks that argument dims bound to the same size
 * symbol agree (see mlir.c).
 *
 * The MLIR test driver wraps programs in a module with a `main` that builds
 * the inputs as arith.constant dense tensors, calls each function and prints
 * the results exactly (printMemrefI64/I32 of the bit patterns), lowers it with mlir-opt-16 and runs it
 * with mlir-cpu-runner-16, and parses the printed numbers back.
 */
#ifndef UPLIFT_EMIT_H
#define UPLIFT_EMIT_H

#include "grammar/grammar.h"
#include "ir/ir.h"
#include "ir/tprog.h"

typedef struct emit_opts {
  const char *func_name; /* default "kernel" */
  const long *sizes;     /* concrete value of each size symbol, by symbol id */
  int nsizes;
  int dynamic;           /* `?` dims with runtime checks (sizes unused) */
  const int *sym_args;   /* [nsym_args] size symbols that are enclosing kept
                            iterators (sizes of a kept loop's body): no
                            static value, each an index argument %NAME after
                            the tensors, in the order of their var ids */
  int nsym_args;
} emit_opts;

/* Write program p as one func.func in dialect d to out.  Returns 0, or -1
 * (with a message on stderr) if a dim has no size or a template refers to
 * something the node lacks. */
int emit_mlir_func(const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                   FILE *out);

/* A sequence of n programs (the parts of a kernel, pipeline/kept.c,
 * pipe_split) as one func.func @NAME_partI each (emit_mlir_func) and
 * @NAME calling them in order, each part's results the arrays the parts
 * after it read: its arguments the arrays a part reads before any part
 * writes them (then the index arguments of the kept loops' bounds), its
 * results every array a part writes.  Returns 0, or -1 with a message on
 * stderr. */
int emit_mlir_seq(const gram_dialect *d, const ir_tprog *const *ps, int n, const emit_opts *o,
                  FILE *out);

/* The signature of emit_mlir_seq's wrapper as a program without ops (for
 * emit_run.prog): its arguments (leaves of the parts) and its results (the
 * nodes of the parts that first write each array: their types and names).
 * Returns 0, or -1 when they do not fit an ir_tprog. */
int emit_mlir_seq_signature(const ir_tprog *const *ps, int n, ir_tprog *sig);

/* The MLIR tensor type of t under sizes: "tensor<3x4xf64>", "tensor<f64>".
 * Returns buf. */
char *emit_mlir_type(const ir_type *t, const long *sizes, int nsizes, char *buf,
                     size_t n);

/* One program run by the driver: inputs[i] for each argument of prog (same
 * order), results written to outputs[0..prog->nresults-1] (data
 * ir_malloc'd, owned by the caller; free with emit_tensor_free). */
typedef struct emit_run {
  const ir_tprog *prog;
  const long *sizes;
  int nsizes;
  const ir_tensor *inputs;
  ir_tensor outputs[IR_TP_MAX_RESULTS];
  int dynamic;  /* emit the function with `?` dims; the inputs are built at
                   their own dims (inputs[i].dims) and cast, so inputs whose
                   dims disagree exercise the runtime checks */
  const ir_tprog *const *seq; /* nseq > 0: the program is this sequence
                                 (emit_mlir_seq), prog its signature */
  int nseq;                   /* (emit_mlir_seq_signature) */
} emit_run;

/* Emit all runs into one module, lower it with emit_mlir_pipeline() and run
 * it with mlir-cpu-runner-16 (each tool under a wall-clock limit that only
 * stops a hung tool), fill every run's outputs.  Returns 0, or -1 with err
 * filled (code IR_ERR_TOOL: the failing tool's stderr, truncated; a failed
 * cf.assert of a dynamic run is such a failure, its message in err).  If
 * keep is not NULL the module text is also written there. */
int emit_mlir_run(const gram_dialect *d, emit_run *runs, int nruns, ir_error *err, FILE *keep);

/* emit_mlir_run after applying PDLL patterns (text, as emit_pdll writes
 * them) to the module: compiled with mlir-pdll-16 -x=mlir and applied by
 * mlir-opt-16 --test-pdl-bytecode-pass (the greedy driver, which also
 * folds).  *applied: 1 if the patterns changed the module (its text
 * differs from the same pass with a pattern that matches nothing), -1 if
 * not but that pass alone left fewer ops than the module has (the
 * driver's folders rewrote the program before a pattern saw it), else 0.
 * Returns 0, or -1 with err filled (code IR_ERR_TOOL: a tool failed). */
int emit_mlir_run_rewritten(const gram_dialect *d, emit_run *runs, int nruns, const char *pdll,
                            int *applied, ir_error *err);

/* Check MLIR text with mlir-opt-16 (allow_unregistered: pass
 * --allow-unregistered-dialect).  Returns 0 if it parses and verifies, else
 * -1 with the tool's messages in err. */
int emit_mlir_check(const char *text, int allow_unregistered, ir_error *err);

/* The mlir-opt-16 pass pipeline from tensors (tosa, linalg) to LLVM. */
const char *emit_mlir_pipeline(void);
/* The -shared-libs= value for mlir-cpu-runner-16 (the runner utils found
 * under /usr/lib/llvm-16/lib), or NULL if they are missing. */
const char *emit_mlir_runner_libs(void);
/* Are mlir-opt-16 and mlir-cpu-runner-16 (with its libs) available? */
int emit_mlir_tools_available(void);

void emit_tensor_free(ir_tensor *t);

/* ------------------------------------------------------------ C + BLAS */

/* Write program p (raised from kernel k; results named by the array
 * parameters they are written to) as one C99 function with k's exact
 * signature that runs the program with CBLAS calls for dot_general and plain
 * loops for the other ops (emit/c.c; docs/emit-c.md).  Ops are lowered
 * through their semantic kernels (gram_bind), so d is only informational
 * and may be NULL.  Returns 0, or -1 with err filled (err may be NULL;
 * code IR_ERR_INPUT) when an op's kernel has no C lowering or the program
 * does not fit the signature.  The output is then incomplete. */
int emit_c_func(const gram_dialect *d, const ir_tprog *p, const ir_kernel *k, FILE *out,
                ir_error *err);

/* A sequence of n programs ps[i] over kernels ks[i] (the parts of kernel k,
 * pipeline/kept.c, pipe_split), each written as emit_c_func writes one, as
 * a static function NAME_partI, and NAME (k's signature) calling them in
 * order.  Returns 0, or -1 with err filled (the output incomplete). */
int emit_c_seq(const gram_dialect *d, const ir_tprog *const *ps, const ir_kernel *const *ks,
               int n, const ir_kernel *k, FILE *out, ir_error *err);

/* ---------------------------------------------------------------- PDLL */

/* A rewrite rule lhs -> rhs (terms over argument leaves, the pattern
 * variables) and a note printed in its comment line (e.g. its verdicts). */
typedef struct emit_pdll_rule {
  const ir_tnode *lhs, *rhs;
  const char *note;
} emit_pdll_rule;

/* Write rules[0..n-1] (terms of kernel k, ops of dialect d) as PDLL
 * patterns for mlir-pdll-16, one `Pattern RuleI with benefit(lhs ops)` each
 * (emit/pdll.c), ops written as the dialect file's emit lines write them
 * (name, operands, attribute dictionary); a rule that cannot be a PDL
 * pattern is a `// not a PDL pattern (why): ...` comment.  Returns the
 * number of patterns written.  Borrows everything. */
int emit_pdll(const gram_dialect *d, const ir_kernel *k, const emit_pdll_rule *rules, int n,
              FILE *out);

/* Why rule r cannot be a PDL pattern (an op with a body region, a helper
 * op the rewrite would build, ...), or NULL if emit_pdll writes it as one. */
const char *emit_pdll_why(const emit_pdll_rule *r);

#endif
