/*
 * tprog.h - the tensor program (docs/architecture.md section 3): an SSA DAG of op
 * nodes over leaves (function arguments, constants, masks), hash-consed in an
 * arena so that a subterm shared by many candidate programs is stored once.
 *
 * ir/ knows nothing about dialects: an op node points to an opaque
 * production descriptor (ir_tp_opdesc, filled by grammar/ for every op of a
 * loaded dialect) and carries its attribute values as small integer lists
 * (ir_attr).  The meaning of the integers is the grammar's: a permutation,
 * a subset of dims, dim pairs, the index of an enum value, ...
 *
 * Ownership: every node lives in the ir_tp_store's arena; nodes are never
 * freed one by one.  ir_tp_store_free releases the hash table (the arena is
 * the caller's).
 */
#ifndef UPLIFT_IR_TPROG_H
#define UPLIFT_IR_TPROG_H

#include "ir/ir.h"

/* --------------------------------------------------------- attributes */

#define IR_TP_MAX_ATTRS 4     /* attributes of one op */
#define IR_TP_MAX_ATTR_LEN 8  /* integers in one attribute value */
#define IR_TP_MAX_OPERANDS 3  /* operands of one op */

/* One attribute value: n small integers (meaning given by the attribute's
 * domain in the dialect: a permutation, a dim list, (lhs, rhs) pairs
 * flattened, the index of an enum value, ...). */
typedef struct ir_attr {
  int8_t n;
  int8_t v[IR_TP_MAX_ATTR_LEN];
} ir_attr;

/* What ir/ needs to know of a dialect op to print and hash a node.  Filled
 * by grammar/ (gram_op embeds one); `owner` points back to the gram_op. */
typedef struct ir_tp_opdesc {
  const char *name;                           /* "dot_general" */
  int nattrs;
  const char *attr_names[IR_TP_MAX_ATTRS];    /* "perm", "contract", ... */
  /* for enum-valued attributes, the value names (index = v[0]); else NULL */
  const char *const *attr_enum[IR_TP_MAX_ATTRS];
  const void *owner;                          /* the gram_op */
  /* the result type is not determined by the operands (a proposed target
   * type, e.g. broadcast_in_dim, iota): the printer writes it after the
   * operands so that ir_tp_parse can rebuild the node */
  int typed_result;
} ir_tp_opdesc;

/* ---------------------------------------------------------------- masks */

/* One affine constraint over the index positions i0..i{rank-1} of a mask
 * and the size symbols:  sum_k coef[k]*i_k + sum_p pcoef[p]*sym[p] + c
 * is >= 0 (eq == 0) or == 0 (eq != 0).  sym[p] are size symbols (the ids of
 * IR_VAR_SIZE variables, as in ir_type dims); unused slots have pcoef 0. */
#define IR_MASK_MAX_SYMS 2
typedef struct ir_mask_con {
  int coef[IR_MAX_RANK];
  int sym[IR_MASK_MAX_SYMS];
  int pcoef[IR_MASK_MAX_SYMS];
  int c;
  int eq;
} ir_mask_con;

/* An i1 tensor that is true exactly where every constraint holds. */
#define IR_MASK_MAX_CONS 6
typedef struct ir_mask {
  int ncons;
  ir_mask_con cons[IR_MASK_MAX_CONS];
} ir_mask;

/* Is index point idx (of the mask's rank) inside the mask?  symval(sym,
 * user) gives the concrete value of a size symbol. */
int ir_mask_contains(const ir_mask *m, const long *idx,
                     long (*symval)(int sym, void *user), void *user);

/* ---------------------------------------------------------------- nodes */

typedef enum ir_tnode_kind {
  IR_TN_ARG,   /* a function argument: A (arg = index, name) */
  IR_TN_CONST, /* a splat constant: 0.5 (value) of the node's type */
  IR_TN_MASK,  /* mask[i0 >= i1]: an i1 tensor defined by affine constraints */
  IR_TN_OP     /* op[attrs](operands...): a production of the grammar */
} ir_tnode_kind;

typedef struct ir_tnode {
  ir_tnode_kind kind;
  ir_type type;            /* result type */
  int id;                  /* 0, 1, 2, ... in creation order in its store */
  int size;                /* number of op nodes in the term (leaves: 0) */
  uint64_t hash;
  /* IR_TN_ARG */
  int arg;
  const char *name;
  /* IR_TN_CONST */
  double value;
  /* IR_TN_MASK */
  const ir_mask *mask;
  /* IR_TN_OP */
  const ir_tp_opdesc *op;
  ir_attr attrs[IR_TP_MAX_ATTRS];
  int nops;
  const struct ir_tnode *ops[IR_TP_MAX_OPERANDS];
} ir_tnode;

/* The hash-consing store: equal requests return the same node pointer. */
typedef struct ir_tp_store {
  ir_arena *arena;        /* nodes live here (not owned) */
  const ir_tnode **table; /* open addressing, ir_malloc'd */
  size_t cap, count;
} ir_tp_store;

/* Initialize over `arena` (owned by the caller, must outlive the store). */
void ir_tp_store_init(ir_tp_store *s, ir_arena *arena);
/* Release the hash table (the nodes stay in the arena). */
void ir_tp_store_free(ir_tp_store *s);

/* Node constructors: return the unique node for the request, creating it in
 * the store's arena if new.  Strings and masks are copied into the arena. */
const ir_tnode *ir_tp_arg(ir_tp_store *s, int arg, const char *name,
                          const ir_type *type);
const ir_tnode *ir_tp_const(ir_tp_store *s, double value, const ir_type *type);
const ir_tnode *ir_tp_mask(ir_tp_store *s, const ir_mask *m,
                           const ir_type *type);
/* `op` must outlive the store (it lives in the dialect's arena). */
const ir_tnode *ir_tp_op(ir_tp_store *s, const ir_tp_opdesc *op,
                         const ir_attr *attrs, const ir_tnode *const *ops,
                         int nops, const ir_type *type);

/* Does n have an op with an attribute variable (a rewrite rule's `$0`:
 * an ir_attr with n < 0, rewrites/rewrites.h)? */
int ir_tp_has_attr_var(const ir_tnode *n);

/* --------------------------------------------------------------- programs */

/* An operand of a kept loop's body cut from an array at the iterator
 * (pipeline/kept.c): the body's reads A[t + 1][i] are the elements [i] of
 * the slice var, which each iteration takes from A at that iteration's
 * iterator.  The body is raised and verified with the slice as an input of
 * its own (any value), so its proof holds at every iteration. */
typedef struct ir_tslice {
  int var;                        /* the body's operand (a var of the body's
                                     kernel, not a C parameter) */
  int src;                        /* the array it is cut from (not written
                                     by the body) */
  const ir_expr *at[IR_MAX_RANK]; /* per dim of src: the index, affine in the
                                     iterator and the sizes, or NULL: the
                                     whole dim, a dim of the slice (in order) */
} ir_tslice;

/* A kept sequential loop around a program (docs/architecture.md section 3;
 * issue 14): the program's results are computed once per iteration, iter
 * running over lo..hi (both INCLUSIVE, affine in the size parameters, as in
 * an IR_ST_FOR), and each result feeds back as the argument of the same name
 * for the next iteration (the arrays the body writes are carried); after
 * the last iteration the carried values are the program's results.  The
 * body does not read iter: where the kernel's body reads an array at an
 * index in iter, the program reads one of the slices, cut at each
 * iteration before the body runs (so one proof of the body covers every
 * iteration). */
typedef struct ir_tloop {
  int iter;                 /* the kept iterator's var id in the kernel */
  const ir_expr *lo, *hi;   /* its bounds: affine in the size parameters */
  int nslices;
  const ir_tslice *slices;  /* [nslices]: the body's operands cut at iter */
  int down;                 /* 1: iter runs downward, hi, hi-1, .., lo (an
                               IR_ST_FOR of step -1) */
  int iter_size;            /* the body reads iter (in a bound, a condition, a
                               value, a subscript not cut): iter is a size of
                               the body's kernel, given at each iteration */
} ir_tloop;

/* A tensor program: named results over a DAG of nodes. */
#define IR_TP_MAX_RESULTS 8
typedef struct ir_tprog {
  int nargs;
  const ir_tnode *args[16];      /* the argument leaves, in signature order */
  int nresults;
  const ir_tnode *results[IR_TP_MAX_RESULTS];
  const char *result_names[IR_TP_MAX_RESULTS]; /* may be NULL */
  const ir_kernel *kernel;       /* for dim names; may be NULL */
  const ir_tloop *loop;          /* NULL: the program runs once; else it is
                                    the body of this kept loop */
  /* a kept loop whose body is a sequence of programs (nested kept loops,
   * docs/analyze.md "Nested kept loops"): its items, run in order at each
   * iteration, each on the arrays as the one before leaves them (an item
   * may be such a loop in turn).  The program then has no op nodes of its
   * own: its arguments and results are the items' (the signature of the
   * sequence, emit_mlir_seq_signature: every array some item reads or
   * writes, and the first result written to each array). */
  int nitems;
  const struct ir_tprog *const *items;
  /* a scalar item (issue 14; docs/analyze.md, "Scalar items"): no op nodes;
   * kernel->body runs as written (the interpreter's semantics, scalar loops
   * over element reads and writes).  Its arguments are the kernel's
   * parameters (argument leaves), its results the leaves of those it
   * writes. */
  int scalar;
} ir_tprog;

/* The number of iterations of loop at sizes (by var id; 0 when empty). */
long ir_tloop_trips(const ir_tloop *loop, const long *sizes);
/* The value of loop's iterator at trip t (0 <= t < trips): lo + t, or hi - t
 * for a downward loop. */
long ir_tloop_iter_value(const ir_tloop *loop, const long *sizes, long t);
/* The slice of loop cutting var v (a var id of the body's kernel), or NULL. */
const ir_tslice *ir_tloop_slice(const ir_tloop *loop, int v);

/* Print a term compactly: add(mul(beta, C), dot_general[contract=(1,0)](A, B)).
 * Constants print as numbers, masks as mask[i0>=i1].  k (may be NULL) names
 * the size symbols of masks.  When k is given, the text carries every type
 * that the operands do not determine, as a `:TYPE` suffix (ir_type_str
 * syntax): masks (`mask[i0 - i1 >= 0]:i1[n,n]`), constants other than rank-0
 * ones of k->data_type (`0:f64[ni,nj]`) and ops with typed_result; the text
 * can then be parsed back with ir_tp_parse. */
void ir_tp_print(const ir_tnode *n, const ir_kernel *k, FILE *out);
/* The same appended to b (any length). */
void ir_tp_buf(ir_buf *b, const ir_tnode *t, const ir_kernel *k);
/* The same into a buffer (truncated to n bytes; ir_tp_buf is not); returns
 * buf. */
char *ir_tp_str(const ir_tnode *t, const ir_kernel *k, char *buf, size_t n);

/* Collect every node of the DAGs rooted at roots[0..nroots-1] in
 * topological order (operands first, each node once) into out (capacity
 * cap); returns the count, or -1 if cap is too small. */
int ir_tp_topo(const ir_tnode *const *roots, int nroots, const ir_tnode **out,
               int cap);

/* ---------------------------------------------------------------- parsing */

/* What ir_tp_parse needs to know of a dialect, as callbacks (ir/ knows no
 * dialect; grammar/'s gram_term_syntax fills one). */
typedef struct ir_tp_syntax {
  /* The op called `name`, or NULL. */
  const ir_tp_opdesc *(*find_op)(void *user, const char *name);
  /* The index of the value `name` of enum-valued attribute `attr` of op, or
   * -1. */
  int (*enum_value)(void *user, const ir_tp_opdesc *op, int attr, const char *name);
  /* Type-check op[attrs] over operands of types ops[0..nops-1]: on success
   * fill *result (target: the annotated result type, or NULL) and *canon
   * (the attribute values as the generator makes them) and return 0; else
   * return -1 with a message in err (may be NULL). */
  int (*result_type)(void *user, const ir_tp_opdesc *op, const ir_attr *attrs,
                     const ir_type *ops, int nops, const ir_type *target,
                     ir_type *result, ir_attr *canon, ir_error *err);
  void *user;
} ir_tp_syntax;

/* Parse the text ir_tp_print writes (with a kernel) back into a node of
 * store s.  Argument names are looked up among leaves[0..nleaves-1] (ARG
 * leaves by name; the caller's leaves, e.g. a task's input leaves, so that
 * the numbering matches), size symbols among k's IR_VAR_SIZE variables (or
 * dN).  Because the store hash-conses, parse(print(p)) == p.  Returns the
 * node, or NULL with err (may be NULL) filled: IR_ERR_INPUT, "column N: what
 * was expected" (nothing to free; nodes made before the error stay in the
 * store). */
const ir_tnode *ir_tp_parse(ir_tp_store *s, const char *text, const ir_kernel *k,
                            const ir_tnode *const *leaves, int nleaves,
                            const ir_tp_syntax *syn, ir_error *err);

#endif
