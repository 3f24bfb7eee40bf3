/*
 * grammar.h - dialect descriptions and the grammar generator (docs/architecture.md
 * section 6; the file format is documented in docs/dialects.md).
 *
 * A dialect is a text file (dialects/hlo, dialects/linalg, dialects/tosa, or
 * any path) that gram_load parses into ops.  Each op has typed operand
 * patterns over symbolic dims, attributes with enumerable domains, a result
 * rule, the semantic kernel it maps to (by name, from interp/'s registry)
 * and MLIR text templates.  No dialect is known in C.
 *
 * The generator (gram_productions) turns one op and concrete operand types
 * (ir_type, symbolic dims) into every valid production: attribute values
 * plus the result type.  Invalid combinations are rejected statically and
 * counted.  It allocates nothing and is meant for the enumerator's hot loop.
 *
 * Ownership: a gram_dialect and everything in it live in the arena given to
 * gram_load (owned by the caller).
 */
#ifndef UPLIFT_GRAMMAR_H
#define UPLIFT_GRAMMAR_H

#include "ir/ir.h"
#include "interp/ops.h"
#include "ir/tprog.h"

#define GRAM_MAX_VARS 8   /* dim variables in one op's patterns */
#define GRAM_MAX_ENUM 12  /* values of one enum or region domain */
#define GRAM_MAX_KATTRS 6 /* kernel attribute bindings of one op */

/* A type pattern: `x:[m,k]`, `p:i1[*s]`, `x:[*]`, `s:[]`. */
typedef struct gram_pat {
  int fixed_elem;         /* 0: the op's element type T; 1: `elem` */
  ir_elem elem;
  int any;                /* [*]: any rank, dims unconstrained */
  int ell;                /* [*s]: index of the list variable s, or -1 */
  int rank;               /* number of dims when neither any nor ell */
  int dims[IR_MAX_RANK];  /* dim variable index, or -1 for the literal 1 */
} gram_pat;

/* Attribute domains: which values the generator enumerates. */
typedef enum gram_dom {
  GRAM_DOM_PERM,   /* perm(x) [noid]: permutations of x's dims */
  GRAM_DOM_SUBSET, /* subset(x): non-empty sets of x's dims, ascending */
  GRAM_DOM_DIM,    /* dim(x): one dim of x (x may be `result`) */
  GRAM_DOM_PAIRS,  /* pairs(l, r) [empty]: sets of (l dim, r dim) pairs
                      whose dims unify, flattened l0,r0,l1,r1..; disjoint
                      from earlier pairs attributes of the op */
  GRAM_DOM_BCAST,  /* bcast(x, result) [exact]: increasing map of x's dims
                      into the result's; x dim equals it or is 1 */
  GRAM_DOM_WINDOW, /* window(x): where the result reads x, given by the
                      caller (gram_productions_given), never enumerated:
                      per dim of x its start and whether the result keeps
                      it (1) or drops it at start (0) or at x's extent +
                      start (2), flattened s0,k0,s1,k1.. */
  GRAM_DOM_ENUM,   /* enum(A, B=spelling, ...): one value (index); a
                      spelling FLOAT|INT gives the integer form apart */
  GRAM_DOM_REGION, /* region(add=spelling, ...): a reduction body
                      (add, mul, max, min), one value (index) */
  /* ---- shift (issue 14's pad) ---- */
  GRAM_DOM_SHIFT   /* shift(x): a unit shift of one dim of x that is not 1,
                      as edge padding low and high per dim of x (low = -1,
                      high = 1: the result reads x[i + 1]; 1, -1: x[i - 1]),
                      flattened l0,h0,l1,h1..; any shift is a composition */
  /* ---- end shift ---- */
} gram_dom;

typedef struct gram_attr {
  const char *name;
  ir_pos pos;
  gram_dom dom;
  int arg[2];      /* operand indices the domain ranges over; -1: result */
  int noid;        /* perm: exclude the identity */
  int empty;       /* pairs: allow the empty set */
  int exact;       /* bcast: no size-1 stretching */
  int nvals;       /* enum, region */
  const char *vals[GRAM_MAX_ENUM];  /* our names: GE, add, ... */
  const char *spell[GRAM_MAX_ENUM]; /* MLIR spellings (default: the name) */
  const char *uspell[GRAM_MAX_ENUM]; /* spelling for unsigned integer T
                                        (`=F|I|U`; without a third
                                        spelling: ispell), or NULL (`-`) */
  const char *ispell[GRAM_MAX_ENUM]; /* spelling for integer T (`=F|I`; the
                                        same as spell without a '|'), or
                                        NULL (`-`): no integer form, the
                                        value is not offered for integers */
} gram_attr;

/* The spelling of value v of enum or region attribute a for element type
 * T = elem: a->uspell[v] for an unsigned integer T, a->ispell[v] for a
 * signed one, else a->spell[v]; NULL when
 * the value has no form for that type. */
const char *gram_attr_spelling(const gram_attr *a, int v, ir_elem elem);

/* How the result type is computed. */
typedef enum gram_res {
  GRAM_RES_PATTERN,   /* [m,n] / [*s]: from the operand bindings */
  GRAM_RES_BCAST,     /* broadcast(a, b, ...): numpy/CHLO broadcasting */
  GRAM_RES_BCAST_EQ,  /* broadcast_eq(a, b, ...): equal ranks, 1 stretches */
  GRAM_RES_PERMUTE,   /* permute(x, perm) */
  GRAM_RES_REDUCE,    /* reduce(x, dims): the dims removed */
  GRAM_RES_REDUCE1,   /* reduce1(x, dims): the dims kept with size 1 */
  GRAM_RES_DOT,       /* dot(l, r, batch, contract): batch, l free, r free */
  GRAM_RES_TARGET,    /* target: the caller proposes the result type */
  GRAM_RES_RESHAPE,   /* reshape(x): a proposed type with x's element count */
  GRAM_RES_CONVERT,   /* convert(x): x's shape, the element type of a
                         proposed type of that shape (another one of the
                         op's element types) */
  GRAM_RES_SEXT,      /* sext(x): convert(x) where a signless cast that
                         extends by sign (truncates, sitofp) is C's
                         conversion: x signed, or both integers and the
                         result no wider */
  GRAM_RES_ZEXT       /* zext(x): convert(x) of an unsigned integer x to a
                         wider integer (C's zero extension) */
} gram_res;

/* A kernel attribute binding: key=VALUE. */
typedef enum gram_kval {
  GRAM_KV_LIST,  /* [1, 0]: a literal dim list (also a single integer) */
  GRAM_KV_NAME,  /* add, GE: a literal name */
  GRAM_KV_ATTR   /* @attr, @attr.lhs, @attr.rhs: an attribute's value */
} gram_kval;

typedef struct gram_kattr {
  const char *key;
  gram_kval kind;
  int n;
  int list[IR_TP_MAX_ATTR_LEN];
  const char *name;
  int attr;      /* GRAM_KV_ATTR: attribute index */
  int part;      /* 0 whole, 1 lhs half of pairs, 2 rhs half */
} gram_kattr;

/* One line of an MLIR template. */
typedef struct gram_line {
  const char *text;
  ir_pos pos;
  int indent; /* the blanks between the directive and the text, but one
                 (a region body's indentation in the output) */
} gram_line;

typedef struct gram_op {
  ir_tp_opdesc desc;     /* name and attribute names for ir_tprog (first) */
  struct gram_dialect *dialect;
  const char *name;      /* matmul */
  const char *mlir;      /* linalg.matmul */
  ir_pos pos;
  int nops;
  const char *opnames[IR_TP_MAX_OPERANDS];
  gram_pat pats[IR_TP_MAX_OPERANDS];
  int nvars;
  const char *vars[GRAM_MAX_VARS]; /* dim variable names */
  int var_is_list[GRAM_MAX_VARS];  /* bound by [*s] */
  unsigned elems;        /* allowed element types for T: bit (1 << ir_elem) */
  int minrank, maxrank;  /* every operand and the result */
  int nattrs;
  gram_attr attrs[IR_TP_MAX_ATTRS];
  /* result */
  gram_res res;
  gram_pat res_pat;      /* PATTERN (and its element type for every rule) */
  int res_args[4];       /* operand / attribute indices */
  int nres_args;
  /* kernel */
  const char *kernel;    /* kernel name, or NULL when kernel_attr >= 0 */
  int kernel_attr;       /* kernel @attr: the kernel is the enum value */
  int nkargs;            /* kernel operands, -1: the op's operands */
  int kargs[IR_TP_MAX_OPERANDS];      /* operand index, or -1: constant */
  double kconst[IR_TP_MAX_OPERANDS];  /* rank-0 constant operand */
  int nkattrs;
  gram_kattr kattrs[GRAM_MAX_KATTRS];
  /* MLIR templates */
  int nemit, nemit_b;
  gram_line *emit;       /* emit lines */
  gram_line *emit_b;     /* emit.broadcast lines: used when an operand's
                            shape differs from the result's (or NULL) */
  int nemit_d;
  gram_line *emit_d;     /* emit.dynamic lines: used instead of emit when
                            shapes are dynamic and the result has a `?` dim
                            (or NULL) */
  int nemit_u;
  gram_line *emit_u;     /* emit.unit lines (a reduce op): used instead of the
                            others when the reduced operand is a broadcast
                            that only adds the reduced dims, all of extent 1
                            (then the reduce is one application of its body
                            per element, and the operand's placeholders name
                            the broadcast's operand; docs/dialects.md) */
} gram_op;

/* How a mask leaf of dynamic shape is written (`mask.dynamic` line). */
typedef enum gram_dynmask {
  GRAM_DYNMASK_NONE,    /* not declared: masks need static shapes */
  GRAM_DYNMASK_GENERIC, /* linalg.generic over linalg.index and arith ops */
  GRAM_DYNMASK_IOTA     /* stablehlo.dynamic_iota, chlo compare, and */
} gram_dynmask;

typedef struct gram_dialect {
  const char *name;      /* hlo */
  const char *path;      /* the file it was read from */
  const char *summary;   /* the `summary` line, or "" */
  int maxrank;
  unsigned elems;
  int nops;
  gram_op **ops;
  gram_line constant;    /* how a constant (dense literal) is written */
  int generic;           /* `form generic`: informational */
  int loop_while;        /* `loop while`: a kept loop is a stablehlo.while
                            (generic form); `loop for` (default): scf.for */
  int nsplat;
  gram_line *splat;      /* `splat` lines: a splat constant of dynamic
                            shape ($value is the scalar literal), or NULL */
  gram_dynmask dynmask;  /* `mask.dynamic` */
  int upstream;          /* `upstream`: upstream mlir-opt-16 registers the
                            dialect's ops (rewrite patterns can apply) */
  int signless;          /* `signless`: element types are written without
                            their signedness (ui8 as i8), as MLIR's builtin
                            integers of arith, linalg and tosa */
} gram_dialect;

/* Load a dialect: `name_or_path` is a path if it contains '/' or names an
 * existing file, else a bare name looked up in the dialects/ folder of the
 * source tree (UPLIFT_SRC_DIR, or next to the executable).  Everything is
 * allocated in `arena`.  On a malformed file prints positioned errors
 * (file:line:col: error: ..., line, caret) and returns NULL; the caller
 * exits 2. */
gram_dialect *gram_load(const char *name_or_path, ir_arena *arena);

/* Parse a dialect from text (for tests); `file` names it in messages. */
gram_dialect *gram_parse(const char *file, const char *text, ir_arena *arena);

/* The directory of the shipped dialects (static storage). */
const char *gram_dialect_dir(void);

/* The names of the entries of that directory (dot files aside), sorted,
 * into *names (a heap array of heap strings: gram_dialect_list_free).
 * Returns how many, or -1 with err filled when it cannot be read. */
int gram_dialect_list(char ***names, ir_error *err);
void gram_dialect_list_free(char **names, int n);

/* Find an op by name; NULL if none. */
const gram_op *gram_find_op(const gram_dialect *d, const char *name);

/* The index of op's operand (gram_op.opnames) or attribute (attrs[].name)
 * named name[0..len), as a template placeholder names it; -1 if none. */
int gram_op_operand(const gram_op *op, const char *name, int len);
int gram_op_attr(const gram_op *op, const char *name, int len);

/* ------------------------------------------------------------ generator */

/* One production: an op, its attribute values and its result type. */
typedef struct gram_prod {
  const gram_op *op;
  ir_attr attrs[IR_TP_MAX_ATTRS];
  ir_type result;
} gram_prod;

/* Statistics of the static filter (docs/architecture.md section 7). */
typedef struct gram_stats {
  long enumerated;  /* candidate (operand types, attribute values) tried */
  long rejected;    /* of those, rejected statically */
} gram_stats;

/* Every production of `op` for operand types ops[0..op->nops-1].  `target`
 * is the proposed result type for ops whose result shape is not determined
 * by their operands (target, reshape, bcast/dim over the result); NULL
 * means none is proposed, and such ops yield nothing.  Writes up to `cap`
 * productions to `out` and returns how many exist (may exceed cap).
 * `st` (may be NULL) accumulates the statistics.  Allocates nothing. */
int gram_productions(const gram_op *op, const ir_type *ops,
                     const ir_type *target, gram_prod *out, int cap,
                     gram_stats *st);

/* gram_productions with the values of op's window attributes given by
 * given[attr] (NULL: none, and an op with a window attribute yields
 * nothing, so the search never builds one). */
int gram_productions_given(const gram_op *op, const ir_type *ops, const ir_attr *given,
                           const ir_type *target, gram_prod *out, int cap,
                           gram_stats *st);

/* Has op an attribute of domain window (built by callers only)? */
int gram_op_has_window(const gram_op *op);

/* Does `op` need a proposed result type? */
int gram_op_needs_target(const gram_op *op);

/* The kernel name of a production (resolves `kernel @attr`; NULL where
 * that attribute is a rewrite rule's variable, n < 0). */
const char *gram_prod_kernel(const gram_op *op, const ir_attr *attrs);
/* Does the rule lhs -> rhs hold at every shape when it holds at its own:
 * every op of it elementwise (its kernel's INTERP_OP_ELEMENTWISE: each
 * result element from the same element of each operand) and every node
 * of rank 0 or of lhs's dims?  Then each element of either side is the
 * same scalar expression of the inputs' elements at that place (a rank-0
 * node the same at every place), whatever the shape. */
int gram_rule_shape_generic(const ir_tnode *lhs, const ir_tnode *rhs);

/* Run a production on concrete operands args[0..op->nops-1] through its
 * semantic kernel (interp/ops.h, found by name).  out->elem, rank and dims
 * must hold the concrete result shape on entry (the production's result
 * type at the example's sizes); out->data and out->poison are allocated
 * with ir_malloc and owned by the caller (ir_free both).  Returns 0, or -1
 * with err (may be NULL) filled (a failed kernel precondition, or a
 * dialect binding the kernel does not accept). */
int gram_prod_eval(const gram_op *op, const ir_attr *attrs, const ir_tensor *args,
                   ir_tensor *out, ir_error *err);
/* A production bound to its semantic kernel: the kernel, its attribute
 * values (descriptor order), and for each kernel operand the op operand
 * index, or -1 with a rank-0 constant kconst[i].  Resolved once per
 * production so that hot loops call b.kernel->run directly. */
typedef struct gram_binding {
  const interp_op *kernel;
  interp_attr attrs[INTERP_MAX_ATTRS];
  int nargs;
  int args[INTERP_MAX_ARGS];
  double kconst[INTERP_MAX_ARGS];
} gram_binding;

/* Bind a production.  Returns 0, or -1 with err (may be NULL) filled,
 * IR_ERR_INPUT (the dialect names a kernel or an attribute the registry
 * does not have, or one that does not fit). */
int gram_bind(const gram_op *op, const ir_attr *attrs, gram_binding *b, ir_error *err);

/* The element type of binding b's constant kernel operands: that of the
 * kernel's data operands (a select's a and b, any other kernel's
 * operands: a compare's constant has its other operand's type, not i1),
 * read from the op operand bound to the first of them (op_elems: the op
 * operands' element types); the result's when none is bound. */
ir_elem gram_binding_const_elem(const gram_binding *b, const ir_elem *op_elems,
                                ir_elem result);

/* Kernel constant i of binding b as a value of elem: a floating type
 * keeps it; an integer type takes the nearest of its values (truncated
 * toward zero and clamped to the type's range), so the -FLT_MAX that tosa's
 * float reduce_max starts from is INT_MIN in i32, where MLIR 16 starts the
 * integer reduction.  Every reader of kconst goes through it. */
double gram_binding_kconst(const gram_binding *b, int i, ir_elem elem);

/* The kernel operands of binding b over the op's nops operands ops (data
 * borrowed): kargs[i] = ops[b->args[i]], or a rank-0 tensor over kc[i]
 * holding the constant, of gram_binding_const_elem's type (result: the
 * result's element type).  The one place that binds a production's
 * operands: the concrete and symbolic evaluators and the search use it. */
void gram_binding_args(const gram_binding *b, const ir_tensor *ops, int nops, ir_elem result,
                       ir_tensor *kargs, double *kc);

/* Run binding b on the op's operands ops into out (rank and dims set for
 * kernels whose result shape is given; data allocated).  Returns 0 or -1
 * with err set. */
int gram_binding_eval(const gram_binding *b, const ir_tensor *ops, int nops, ir_tensor *out,
                      interp_err *err);

/* Print a production's attributes as "perm=(1,0) body=add" into buf. */
char *gram_attrs_str(const gram_op *op, const ir_attr *attrs, char *buf,
                     size_t n);

/* Print the dialect's ops with signatures, attributes and kernels
 * (uplift dialects NAME). */
void gram_dialect_print(const gram_dialect *d, FILE *out);

/* Scan a template at s: 0 if s does not start a placeholder; 1 for a
 * placeholder $NAME / ${NAME} (name, len: the NAME; skip: characters it
 * spans); 2 for "$$" (a literal '$'); -1 if malformed. */
int gram_template_next(const char *s, const char **name, int *len, int *skip);

/* The identity of a reduction body: 0 add, 1 mul, -inf max, +inf min. */
double gram_region_identity(const char *name);

/* Print one op's signature: "matmul a:[m,k] b:[k,n] -> [m,n]". */
void gram_op_signature(const gram_op *op, FILE *out);

/* Fill syn so that ir_tp_parse reads terms of dialect d: op names via
 * gram_find_op, enum and region values by name, result types and attribute
 * validity via gram_productions.  d must outlive every use of syn. */
void gram_term_syntax(const gram_dialect *d, ir_tp_syntax *syn);

#endif
