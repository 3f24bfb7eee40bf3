/*
 * verify.h - bounded SMT equivalence of a task's loop program and a
 * candidate tensor program, with Z3 (docs/architecture.md section 8).
 *
 * For every assignment of the size symbols the task (or the candidate) uses
 * to 0..bound, and at every size case the caller gives (verify_task.cases:
 * one representative per case the source and the candidate distinguish),
 * the task's assignment statements are executed symbolically (every input array
 * element and scalar a fresh Z3 constant, locals poison) and the candidate is
 * evaluated through the op kernels' symbolic entry points with a Z3 algebra
 * (interp/ops.h).  Z3 is asked whether some input makes some compared output
 * element differ:
 *
 *   exists inputs, element e:  source defined at e
 *                              AND (candidate undefined at e OR values differ)
 *
 * "defined" means not poison and no undefined behaviour (a NaN or an
 * infinity converted to int) on the way to the value; values differ as
 * IEEE values (NaN equals NaN, infinities by sign, the sign of a zero is
 * not compared).  Where the source is undefined the candidate may do
 * anything (refinement).  Unsat at every size
 * is `proved`; sat is `refuted` once the model, turned into concrete inputs,
 * really tells the two apart when run concretely (the counterexample becomes
 * a CEGIS example); unknown, the step limit or a time-out is `unknown`,
 * never proved.
 *
 * Modes (verify_mode):
 *   real  values are reals with an IEEE class (NaN, +-inf; inputs may be
 *         either); comparisons, select, max/min, C's fmax/fmin and casts
 *         to float are exact on classes; an arithmetic expression is NaN
 *         if a leaf is, finite and real if no infinity enters and no
 *         division by zero happens, else an unspecified outcome of its
 *         real normal form (docs/verify.md, IEEE special values); both
 *         sides are simplified to sums of monomials
 *         (Z3 som) first; sqrt(x) is a fresh real r with r >= 0 and
 *         r*r = x wherever x >= 0; exp and pow are uninterpreted functions;
 *         the candidate's 1/(1/y) is y (exact in IEEE at 0 and infinity),
 *         so reciprocal(rsqrt(x)) is sqrt(x).
 *         A proved verdict holds up to rounding and that outcome.
 *   fp    the abstract floating-point encoding of mlir-tv: values are small
 *         bit-vectors (width from the number of distinct terms), + * / and
 *         the math functions are uninterpreted, + and * commutative
 *         (arguments in a canonical syntactic order), signs normalised
 *         (a - b = -(b - a), (-a)*(-b) = a*b: symmetric rounding),
 *         division by zero defined, an uninterpreted isnan in comparisons,
 *         C's fmax/fmin and the rounding to float uninterpreted,
 *         reductions an uninterpreted function of the multiset of summands
 *         (a sum of per-element hashes), so equality holds under every
 *         floating-point semantics that may reorder reductions.
 *
 * Only verify/ includes z3.h.  Z3 objects are reference-counted and released
 * before each call returns; results are plain C data (ir_malloc'd).
 */
#ifndef UPLIFT_VERIFY_H
#define UPLIFT_VERIFY_H

#include <stdio.h>

#include "interp/ops.h"
#include "ir/ir.h"

/* ------------------------------------------------------------- options */

typedef enum verify_mode {
  VERIFY_REAL, /* reals, sums of monomials */
  VERIFY_FP,   /* abstract floating point (mlir-tv) */
  VERIFY_NONE  /* no verification (--verify none) */
} verify_mode;

typedef enum verify_verdict {
  VERIFY_PROVED,  /* unsat at every size assignment */
  VERIFY_REFUTED, /* a confirmed counterexample (fp: a model) */
  VERIFY_UNKNOWN, /* time-out, solver unknown, unconfirmed model */
  VERIFY_SKIPPED, /* mode none */
  VERIFY_ERROR    /* the source or the candidate could not be evaluated */
} verify_verdict;

typedef struct verify_options {
  verify_mode mode;   /* default VERIFY_REAL */
  int bound;          /* sizes 0..bound; default 3 (--bound) */
  unsigned long steps; /* Z3 resource units (its `rlimit`) per solver check;
                        * default VERIFY_DEFAULT_STEPS (--smt-steps); 0: no
                        * limit.  The budget that decides: a count, so a
                        * verdict does not depend on the machine's speed or
                        * load.  A check past it is unknown. */
  double timeout;     /* wall-clock seconds per solver check and per query
                       * build, the safety net against a solver that stops
                       * counting; default VERIFY_DEFAULT_TIMEOUT
                       * (--smt-timeout) */
  double budget;      /* seconds for everything this verifier does from
                       * verify_new on (--timeout); 0: no limit.  Past it
                       * every check answers unknown. */
} verify_options;

/* The defaults of --smt-steps and --smt-timeout (docs/verify.md, "The
 * solver's budget", says how they were chosen). */
#define VERIFY_DEFAULT_STEPS 50000000UL
#define VERIFY_DEFAULT_TIMEOUT 600.0
/* The largest --smt-steps (Z3 takes a 32-bit count). */
#define VERIFY_MAX_STEPS 4294967295UL

void verify_options_default(verify_options *o);

/* Names: "real" "fp" "none"; "proved" "refuted" "unknown" "skipped"
 * "error".  verify_mode_parse returns -1 for an unknown name. */
const char *verify_mode_name(verify_mode m);
int verify_mode_parse(const char *name);
const char *verify_verdict_name(verify_verdict v);
/* The inverse of verify_verdict_name; -1 if unknown. */
int verify_verdict_parse(const char *name);
/* The verdict as reported (result lines, JSON).  A proof that relies on
 * VERIFY_ASSUMES_MASKED_ZERO is no proof for every input (an infinity or
 * NaN that meets a masked-out zero gives NaN where the C code may give a
 * number), so it is not called proved: VERIFY_PROVED_FINITE_JSON in JSON
 * (json 1), VERIFY_PROVED_FINITE_TEXT for people (json 0).  One that
 * relies on VERIFY_ASSUMES_ORDINARY holds for inputs without NaN and -0
 * only: VERIFY_PROVED_ORDINARY_*; with both, VERIFY_PROVED_FINITE_ORD_*.
 * Any other verdict is verify_verdict_name(v). */
#define VERIFY_PROVED_FINITE_JSON "proved_finite"
#define VERIFY_PROVED_FINITE_TEXT "proved for finite inputs"
#define VERIFY_PROVED_ORDINARY_JSON "proved_no_nan_negzero"
#define VERIFY_PROVED_ORDINARY_TEXT "proved for inputs without NaN or -0"
#define VERIFY_PROVED_FINITE_ORD_JSON "proved_finite_no_negzero"
#define VERIFY_PROVED_FINITE_ORD_TEXT "proved for finite inputs other than -0"
const char *verify_verdict_word(verify_verdict v, unsigned assumes, int json);

/* ---------------------------------------------------------------- tasks */

/* What to check: the assignment statements of k selected by mask (NULL: all;
 * k->nassign entries), run in the kernel's order as the interpreter runs a
 * task.  inputs: the variables (array and scalar parameters, or locals an
 * earlier task computed) handed to the candidate, in its argument order;
 * every one of them is symbolic.  Parameters not listed are symbolic too
 * (the candidate cannot see them).  outputs: the variables the candidate
 * returns, in order.  An output element is compared when a selected
 * statement writes it at that size, or everywhere if the output is also an
 * input (the candidate must keep the old values outside the written region).
 * Every element of an output that is a parameter of the kernel is compared:
 * where the task does not write it, it keeps its value from before the task.
 * Nothing is owned: the arrays must outlive the call. */
typedef struct verify_task {
  const ir_kernel *k;
  const unsigned char *mask;
  int ninputs;
  const int *inputs;
  int noutputs;
  const int *outputs;
  /* Size cases to check besides the box 0..bound (optional): ncases
   * assignments, case c at cases[c * k->nvars + var id], for instance one
   * representative per chamber of the size space that source and candidate
   * distinguish (poly_size_cases).  cases_left_out: cases the caller knows
   * of but could not give (a budget); any makes the verdict not proved. */
  int ncases;
  const long *cases;
  int cases_left_out;
  /* Size variables the candidate refers to (in its types or masks),
   * optional: they run over 0..bound like the sizes the task uses. */
  int ncand_sizes;
  const int *cand_sizes;
  /* Optional: real mode without VERIFY_ASSUMES_MASKED_ZERO (a product with
   * the candidate's literal 0 is IEEE's, NaN for an infinite or NaN
   * factor), so that a proof that needed it is refuted, with an input
   * where an infinity or NaN meets a masked-out zero.  Only a difference
   * in value counts then (the signs of zeros are not compared), so that a
   * zero of the other sign does not hide the input the check is for. */
  int ieee_masked_zero;
  /* Optional: the pinned sizes of k (ir_var.pinned: constant extents made
   * size symbols) at their values, as constant extents are, instead of
   * free: the check at the sizes the user's program has. */
  int pinned;
  /* Optional: real mode with every floating input element neither NaN nor
   * -0 (1: VERIFY_ASSUMES_ORDINARY), and finite too (2: with
   * VERIFY_ASSUMES_FINITE): C's comparisons skip a NaN and keep the earlier
   * of two equal zeros, which no max, min or fmax op does. */
  int ordinary_inputs;
  /* Optional: real mode without the second tier (zero_signs_hold, the
   * check with IEEE's signs of zeros after a proof with relaxed ones):
   * the caller keeps the VERIFY_ASSUMES_ZERO_SIGN of an earlier check of
   * the same task (pinned_check, pipeline/verify.c). */
  int zero_signs_known;
} verify_task;

/* ----------------------------------------------------------- candidates */

/* Symbolic evaluation: given one symbolic tensor per task input (shapes at
 * the current sizes, sizes[var id] the size assignment; read-only), fill outputs[0..noutputs-1] with ir_malloc'd
 * data (and poison, or NULL) built through alg, e.g. with interp_op_eval_sym.
 * verify frees them with interp_sym_tensor_free.  Returns 0, or -1 with a
 * message in err (a precondition failed at these sizes). */
typedef int (*verify_eval_sym_fn)(void *user, const long *sizes,
                                  const interp_sym_tensor *inputs,
                                  int ninputs, interp_sym_tensor *outputs,
                                  int noutputs, const interp_sym_algebra *alg,
                                  ir_error *err);

/* Concrete evaluation (optional, the enumerator's hot path): the same with
 * ir_tensors; outputs are ir_malloc'd (interp_tensor_free). */
typedef int (*verify_eval_fn)(void *user, const long *sizes, const ir_tensor *inputs,
                              int ninputs, ir_tensor *outputs, int noutputs,
                              ir_error *err);

/* A candidate as callbacks, so that any program representation plugs in.
 * eval may be NULL: the counterexample is then confirmed by running eval_sym
 * over verify's concrete algebra (doubles). */
typedef struct verify_candidate {
  verify_eval_sym_fn eval_sym;
  verify_eval_fn eval;
  void *user;
} verify_candidate;

/* ------------------------------------------------------------- results */

/* A counterexample: concrete values of every symbolic input at one size
 * assignment.  sizes[var id] (k->nvars entries) holds the value of each
 * IR_VAR_SIZE variable.  vars[i] is a variable id (the task inputs first, in
 * order, then any other parameter the source reads) and values[i] its
 * tensor (data ir_malloc'd, poison NULL).  confirmed: the concrete runs of
 * source and candidate on these inputs differ at (out_var, out_index):
 * expected (source) vs got (candidate; NaN if undefined). */
typedef struct verify_cex {
  long *sizes;
  int nvars;
  int *vars;
  ir_tensor *values;
  int confirmed;
  int out_var;
  long out_index[IR_MAX_RANK];
  double expected, got;
} verify_cex;

/* What a verdict may rely on beyond the semantics docs/verify.md states
 * for every verdict.  VERIFY_ASSUMES_MASKED_ZERO: real mode took a product
 * of the candidate's literal 0 (a masked-out element, as in
 * dot(select(mask, A, 0), B)) as 0 whatever the other factor; IEEE gives
 * NaN when that factor is infinite or NaN, so the verdict holds for inputs
 * with no infinity or NaN where a masked-out zero meets them. */
#define VERIFY_ASSUMES_MASKED_ZERO 1u
/* How the result lines say it. */
#define VERIFY_MASKED_ZERO_TEXT "assumes 0*x = 0 at masked-out zeros (x not inf or NaN there)"
/* Its name in JSON reports ("assumes": [...]). */
#define VERIFY_MASKED_ZERO_JSON "masked_zero_times_finite"

/* VERIFY_ASSUMES_ZERO_SIGN: real mode compared the sign of a zero that an
 * arithmetic expression computes only between expressions equal up to
 * reassociation, commutation and the distributive law (their outcome keys,
 * docs/verify.md): IEEE's sign of a zero result may differ where the two
 * sides sum or factor differently (C's `c += a*b` from c = -0 with every
 * product -0 gives -0, `c + dot(a, b)` gives +0). */
#define VERIFY_ASSUMES_ZERO_SIGN 2u
#define VERIFY_ZERO_SIGN_TEXT "assumes the sign of a zero may change where sums are reassociated or factored"
#define VERIFY_ZERO_SIGN_JSON "zero_sign_up_to_reassociation"

/* VERIFY_ASSUMES_ORDINARY: the task was refuted on an input with a NaN or
 * a -0 and proved for inputs without them (verify_task.ordinary_inputs),
 * as a running maximum written `if (x[i] > m) m = x[i]` is a reduce with
 * maximum only there. */
#define VERIFY_ASSUMES_ORDINARY 4u
#define VERIFY_ORDINARY_TEXT "assumes no input is NaN or -0"
#define VERIFY_ORDINARY_JSON "no_nan_or_negative_zero_inputs"
/* VERIFY_ASSUMES_FINITE: with VERIFY_ASSUMES_ORDINARY, the inputs were
 * taken finite as well (verify_task.ordinary_inputs 2) after a refutation
 * with an infinity among them. */
#define VERIFY_ASSUMES_FINITE 8u
#define VERIFY_FINITE_TEXT "assumes no input is infinite"
#define VERIFY_FINITE_JSON "finite_inputs"

/* The bits that make a proof conditional on its inputs: not called proved
 * (verify_verdict_word). */
#define VERIFY_ASSUMES_CONDITIONAL \
  (VERIFY_ASSUMES_MASKED_ZERO | VERIFY_ASSUMES_ORDINARY | VERIFY_ASSUMES_FINITE)

/* The assumption bits, VERIFY_ASSUMES_ALL of them: bit 1 << i is named
 * by verify_assumes_name(i, json): for people (json 0; the ..._TEXT
 * strings) or in JSON reports (json 1; ..._JSON). */
#define VERIFY_ASSUMES_ALL 4
const char *verify_assumes_name(int i, int json);

/* Whether a verdict holds for every size assignment.  The verifier checks
 * the box 0..bound and one representative of each size case
 * (docs/verify.md, "Which sizes"); a proof for every size is the caller's
 * (pipeline/, with polyhedral/'s poly_all_sizes) and is recorded in
 * verify_result.all_sizes.  Without it JSON reports say "all_sizes": false
 * with this reason before the specific one. */
#define VERIFY_ALL_SIZES_REASON                                               \
  "checked at every size assignment of the box 0..bound and at one "         \
  "representative of each size case"
/* The result line's words for a proof for every size. */
#define VERIFY_ALL_SIZES_TEXT "for all sizes"

typedef struct verify_result {
  verify_verdict verdict;
  verify_mode mode;
  int bound;
  double seconds;     /* wall-clock time of the whole check */
  long queries;       /* size assignments checked */
  long size_cases;    /* distinct size assignments checked (box and cases) */
  unsigned assumes;   /* VERIFY_ASSUMES_* the verdict relies on (see below) */
  long cases_left_out; /* size cases not checked (too large, or left out by
                          the caller): the verdict is then not proved */
  long solver_calls;  /* Z3 checks made (trivial queries need none) */
  unsigned long steps; /* the step limit per check it ran under (0: none) */
  unsigned long steps_used; /* the most steps one of its checks took */
  int fp_width;       /* fp: the largest bit width used */
  char reason[320];   /* unknown/error/refuted: what happened, for people */
  int all_sizes;      /* proved, and proved for every size assignment too
                         (set by the caller, never by verify_task_check) */
  char all_sizes_reason[400]; /* why not all_sizes, when proved */
  verify_cex *cex;    /* refuted (and unconfirmed unknown): owned */
} verify_result;

/* -------------------------------------------------------------- entry */

/* A verifier: the Z3 context (reference counted, with an error handler that
 * records instead of aborting) and the options.  Owned by the caller;
 * verify_free releases everything.  Returns NULL if Z3 cannot be set up.
 * Not thread-safe: one verifier per thread. */
typedef struct verify_ctx verify_ctx;
verify_ctx *verify_new(const verify_options *opt);
void verify_free(verify_ctx *v);
const verify_options *verify_get_options(const verify_ctx *v);

/* Check cand against the task at every size assignment 0..bound of the size
 * symbols the task uses (the others are 1), and at each of t->cases.  A
 * case whose variables hold more than VERIFY_MAX_ELEMS elements in all is
 * left out (the verdict is then unknown, naming the case).  Fills *res (free with
 * verify_result_free).  Returns 0 when a verdict was reached (proved,
 * refuted, unknown, skipped) and -1 for VERIFY_ERROR (res->reason says
 * why: a source subscript out of range, a candidate precondition failure,
 * an output shape mismatch, a Z3 error). */
int verify_task_check(verify_ctx *v, const verify_task *t,
                      const verify_candidate *cand, verify_result *res);

/* A rewrite rule lhs -> rhs over the same symbolic inputs: variables
 * in_vars[0..nin-1] of k (parameters whose dims are size variables of k).
 * For every assignment 1..bound of k's size variables, Z3 is asked whether
 * some input makes lhs defined and rhs undefined or different at some
 * element (the same refinement as verify_task_check; both candidates
 * return one output, of equal shape).  proved: unsat everywhere; refuted:
 * a model (res->reason says where, no cex is kept); unknown: time-out.
 * Returns 0, or -1 for VERIFY_ERROR (res->reason says why). */
int verify_rule_check(verify_ctx *v, const ir_kernel *k, int nin, const int *in_vars,
                      const verify_candidate *lhs, const verify_candidate *rhs,
                      verify_result *res);

/* Release res->cex (res itself is the caller's). */
void verify_result_free(verify_result *res);

/* Run source and candidate concretely on cex (at cex->sizes) and say whether
 * they differ on a compared element.  The source runs in the reference loop
 * interpreter (interp_run with the task's mask); elements where the source
 * is poison or has undefined behaviour are skipped; values agree within
 * max(1e-9, interp_kernel_tolerance) relative.  The candidate runs through
 * cand->eval (or eval_sym over doubles).  Fills cex->confirmed, out_var,
 * out_index, expected and got.  Returns 1 if they differ, 0 if not, -1 if
 * either cannot be run. */
int verify_cex_confirm(const verify_task *t, const verify_candidate *cand,
                       verify_cex *cex);

/* The element budget of one size assignment (all variables together). */
#define VERIFY_MAX_ELEMS 20000L

/* The polynomial degree budget of one query: a query whose simplified
 * formula has a product of higher degree is not given to Z3 (its
 * nonlinear arithmetic can run for minutes without looking at its time
 * limit or an interrupt) and the verdict is unknown. */
#define VERIFY_MAX_DEGREE 20

/* "at most USED of STEPS solver steps per query" (or "(no limit)" when
 * steps is 0) into buf (n bytes): how a result reports its step budget. */
void verify_steps_text(unsigned long steps, unsigned long used, char *buf, size_t n);
/* One line for people: "proved (real, bound 3, 14 size cases, at most 812
 * of 20000000 solver steps per query, 0.21 s)" or with the reason. */
void verify_result_print(const verify_result *res, const ir_kernel *k,
                         FILE *out);

#endif
