/*
 * ops.h - the semantic kernels of the dialect ops (docs/architecture.md section 5).
 *
 * Every tensor op a dialect file can name maps to one kernel here, found BY
 * NAME through the registry (interp_op_find).  Each kernel is written once as
 * generic code (interp/ops_kernels.inc) and instantiated twice:
 *   - concrete: doubles on flat row-major arrays (ir_tensor views), the
 *     enumerator's hot path: no allocation and no indirect call per element;
 *   - symbolic: opaque term handles (interp_term) combined through an algebra
 *     table of callbacks (interp_sym_algebra) that verify/ fills with Z3
 *     terms.  ops never sees Z3.
 * Both carry poison, check their preconditions when run (an interp_err names
 * the op, the operand shapes and what was expected), and share one shape
 * function, which also works on symbolic ir_type dims for the grammar's
 * static type check.
 *
 * Kernels (operands -> result; attributes in descriptor order), see
 * docs/ops.md for the full conventions:
 *   neg sqrt exp rsqrt reciprocal abs     x -> x's shape
 *   add sub mul div max min fmax fmin     a, b -> broadcast shape
 *   compare                               a, b -> i1 broadcast; direction
 *   select                                pred, a, b -> broadcast shape
 *   dot_general                           lhs, rhs; lhs_batch rhs_batch
 *                                         lhs_contract rhs_contract
 *   transpose                             x; permutation
 *   reverse                               x; dimension (reversed)
 *   broadcast_in_dim                      x -> given shape; dims
 *   reduce                                x, init; dims body keepdims
 *   iota                                  -> given shape; dimension
 *   constant, fill                        -> given shape; value
 *   fill_scalar                           v (rank 0) -> given shape
 *   slice                                 x -> given shape; start keep
 *   reshape                               x -> given shape
 *   empty                                 -> given shape, all poison
 *   convert                               x -> x's shape, given element type
 *   shl shra shrl                         a, b -> broadcast (integers)
 * "given shape": the caller passes the result shape (INTERP_OP_GIVEN_SHAPE).
 */
#ifndef UPLIFT_INTERP_OPS_H
#define UPLIFT_INTERP_OPS_H

#include <stdint.h>

#include "ir/ir.h"

/* ------------------------------------------------------------ attributes */

/* What an attribute holds (interp_attr.kind). */
typedef enum interp_attr_kind {
  INTERP_ATTR_NONE,   /* unset */
  INTERP_ATTR_INTS,   /* a list of dims: n entries in v (permutation, dims) */
  INTERP_ATTR_INT,    /* one integer in v[0] (iota dimension, keepdims 0/1) */
  INTERP_ATTR_DOUBLE, /* one double in d (constant value) */
  INTERP_ATTR_DIR,    /* a comparison direction (interp_cmp) in v[0] */
  INTERP_ATTR_BODY    /* a reduction body (interp_body) in v[0] */
} interp_attr_kind;

/* Comparison directions of `compare` (C semantics on doubles: NaN compares
 * unequal to everything, so NE is true and the others false). */
typedef enum interp_cmp {
  INTERP_CMP_EQ, INTERP_CMP_NE, INTERP_CMP_LT,
  INTERP_CMP_LE, INTERP_CMP_GT, INTERP_CMP_GE
} interp_cmp;
#define INTERP_CMP_COUNT 6

/* Reduction bodies of `reduce` (the region of stablehlo.reduce etc.).
 * The conditional updates UPD_* are C's running maximum and minimum as
 * written, `acc = (x OP acc) ? x : acc` with OP > >= < <= (C's comparison:
 * a NaN element is skipped, a NaN acc stays; of two equal zeros `>` keeps
 * the earlier, `>=` the later).  They are not associative (with a NaN
 * present), so their fold is only ever the left fold in order. */
typedef enum interp_body {
  INTERP_BODY_ADD, INTERP_BODY_MUL, INTERP_BODY_MAX, INTERP_BODY_MIN,
  INTERP_BODY_UPD_GT, INTERP_BODY_UPD_GE, INTERP_BODY_UPD_LT, INTERP_BODY_UPD_LE
} interp_body;
#define INTERP_BODY_COUNT 8

/* The comparison of a conditional-update body (GT for UPD_GT, ...), or -1
 * for the others. */
int interp_body_update_dir(interp_body body);

/* One attribute value, shared by the kernels and the grammar.  A plain value
 * type: copy it freely.  Lists hold at most IR_MAX_RANK entries. */
typedef struct interp_attr {
  interp_attr_kind kind;
  int n;              /* INTS: number of entries in v */
  int v[IR_MAX_RANK]; /* INTS: the entries; INT, DIR, BODY: v[0] */
  double d;           /* DOUBLE */
} interp_attr;

/* Constructors.  interp_attr_ints copies n (<= IR_MAX_RANK) entries. */
interp_attr interp_attr_ints(int n, const int *v);
interp_attr interp_attr_int(int x);
interp_attr interp_attr_double(double d);
interp_attr interp_attr_dir(interp_cmp dir);
interp_attr interp_attr_body(interp_body body);

/* Names: "EQ".."GE" and "add" "mul" "max" "min" "upd_gt" "upd_ge"
 * "upd_lt" "upd_le"; parse returns -1 if the
 * name is unknown (case-sensitive). */
const char *interp_cmp_name(interp_cmp dir);
int interp_cmp_parse(const char *name);
const char *interp_body_name(interp_body body);
int interp_body_parse(const char *name);
const char *interp_attr_kind_name(interp_attr_kind kind); /* "ints", ... */

/* ---------------------------------------------------------------- errors */

/* A failed precondition: the message names the op, the operand shapes and
 * what was expected, e.g. "dot_general: lhs [3,5] and rhs [4,7]: contracting
 * dims lhs 1 (size 5) and rhs 0 (size 4) differ".  Every function taking an
 * interp_err * accepts NULL (then no message is written). */
typedef ir_error interp_err; /* the old name of ir_error (ir/ir.h) */

/* ---------------------------------------------------------------- shapes */

/* A shape.  Concrete: sizes.  Symbolic (interp_op_type): size symbols as in
 * ir_type, IR_DIM_ONE for the constant 1. */
typedef struct interp_shape {
  int rank;
  long dims[IR_MAX_RANK];
} interp_shape;

/* ------------------------------------------------------- symbolic values */

/* An opaque term handle of the symbolic instance (e.g. a Z3_ast or an index
 * into the caller's term table).  For poison terms the handle 0
 * (INTERP_TERM_NONE) is reserved and means "certainly defined". */
typedef uintptr_t interp_term;
#define INTERP_TERM_NONE ((interp_term)0)

/* The operations the symbolic instance builds terms with.  Every callback
 * gets ctx first.  Value terms: constant, the arithmetic, compare (an i1
 * term: 1 if the comparison holds, else 0), select (pred is an i1 term:
 * non-zero picks a).  Derived ops are built from these: rsqrt(x) =
 * div(constant(1), sqrt(x)), reciprocal(x) = div(constant(1), x), abs(x) =
 * select(compare(LT, x, constant(0)), neg(x), x); concrete does the same.
 * reduce may be NULL: a reduction (reduce, the sum of dot_general) is then
 * the left fold op(..op(op(init, xs[0]), xs[1]).., xs[n-1]) in row-major
 * order of the reduced indices, exactly as the concrete instance computes
 * it; if set, it receives the whole reduction at once (xs holds n terms,
 * valid only during the call; dot_general passes body ADD, init
 * constant(0) and the products lhs*rhs).
 * Poison terms are booleans: poison_or(a, b) gets two non-NONE terms;
 * poison_select(pred, pa, pb) is "pred ? pa : pb" where pa or pb may be
 * INTERP_TERM_NONE (defined).  Either may return INTERP_TERM_NONE when the
 * result is certainly defined.  poison_true() is the constant "poison"
 * (used by `empty` only). */
typedef struct interp_sym_algebra {
  void *ctx;
  interp_term (*constant)(void *ctx, double v);
  interp_term (*add)(void *ctx, interp_term a, interp_term b);
  interp_term (*sub)(void *ctx, interp_term a, interp_term b);
  interp_term (*mul)(void *ctx, interp_term a, interp_term b);
  interp_term (*div)(void *ctx, interp_term a, interp_term b);
  interp_term (*max)(void *ctx, interp_term a, interp_term b);
  interp_term (*min)(void *ctx, interp_term a, interp_term b);
  interp_term (*neg)(void *ctx, interp_term a);
  interp_term (*sqrt)(void *ctx, interp_term a);
  interp_term (*exp)(void *ctx, interp_term a);
  interp_term (*compare)(void *ctx, interp_cmp dir, interp_term a,
                         interp_term b);
  interp_term (*select)(void *ctx, interp_term pred, interp_term a,
                        interp_term b);
  interp_term (*reduce)(void *ctx, interp_body body, interp_term init,
                        const interp_term *xs, long n); /* may be NULL */
  interp_term (*poison_or)(void *ctx, interp_term a, interp_term b);
  interp_term (*poison_select)(void *ctx, interp_term pred, interp_term pa,
                               interp_term pb);
  interp_term (*poison_true)(void *ctx); /* always poison (tensor.empty) */
  /* Integer data (may be NULL: the kernels below then fail).  convert: a
   * of element type `from` converted to `to` as C converts (integers
   * modulo 2^N, floating to integer truncating); shift: a OP b in integer
   * type elem, op 'l' (<<), 'a' (>> arithmetic), 'r' (>> logical), with
   * ir_int_arith's rule for counts out of range. */
  interp_term (*convert)(void *ctx, interp_term a, ir_elem from, ir_elem to);
  interp_term (*shift)(void *ctx, int op, interp_term a, interp_term b, ir_elem elem);
  /* The poison of maxnum(a, b) and minnum(a, b) on floating values (may be
   * NULL: those kernels then fail): a NaN operand, or two zeros of opposite
   * signs; INTERP_TERM_NONE where certainly defined.  A world that cannot
   * tell (the abstract floating point) says it is outside its model. */
  interp_term (*num_tie)(void *ctx, interp_term a, interp_term b);
} interp_sym_algebra;

/* A symbolic tensor: like ir_tensor with a term per element.  poison ==
 * NULL means every element is defined; otherwise poison[i] is element i's
 * poison term (INTERP_TERM_NONE: defined).  Ownership is said by whoever
 * hands it out. */
typedef struct interp_sym_tensor {
  ir_elem elem;
  int rank;
  long dims[IR_MAX_RANK];
  interp_term *data;
  interp_term *poison;
} interp_sym_tensor;

/* -------------------------------------------------------------- registry */

#define INTERP_MAX_ARGS 3  /* most operands of a kernel (select) */
#define INTERP_MAX_ATTRS 4 /* most attributes of a kernel (dot_general) */

/* Descriptor flags. */
enum {
  INTERP_OP_GIVEN_SHAPE = 1, /* the caller passes the result shape */
  INTERP_OP_ELEMENTWISE = 2, /* result element i depends on element i */
  INTERP_OP_REDUCTION = 4,   /* sums/folds elements (dot_general, reduce) */
  INTERP_OP_FLOAT_ONLY = 8,  /* operands must be f32/f64 (div, sqrt, ...) */
  INTERP_OP_GIVEN_ELEM = 16, /* the caller passes the result's element type
                                (convert) */
  INTERP_OP_INT_ONLY = 32    /* operands must be integers (the shifts) */
};

typedef struct interp_op interp_op;

/* Concrete entry point (the hot path).  args[0..op->nargs-1] are read-only
 * views (data, poison may be NULL, rank, dims, elem).  out->data and
 * out->poison must point to caller buffers with room for the result's
 * element count (interp_op_shape tells it); for GIVEN_SHAPE ops out->rank,
 * out->dims and out->elem say the wanted result on entry, for the others
 * the kernel sets them.  On return out->poison is NULL if no element is
 * poison (the buffer is then left unspecified), else it is the caller's
 * buffer with poison[i] in {0,1}.  Returns 0, or -1 with err filled on a
 * failed precondition (out's buffers are then unspecified). */
typedef int (*interp_run_fn)(const interp_op *op, const interp_attr *attrs,
                             const ir_tensor *args, ir_tensor *out,
                             interp_err *err);

/* Symbolic entry point: the same contract over interp_sym_tensor, building
 * terms through alg.  May allocate scratch memory (ir_malloc) and frees it. */
typedef int (*interp_run_sym_fn)(const interp_op *op, const interp_attr *attrs,
                                 const interp_sym_tensor *args,
                                 interp_sym_tensor *out,
                                 const interp_sym_algebra *alg,
                                 interp_err *err);

/* Shape function: operand shapes + attributes -> result shape (for
 * GIVEN_SHAPE ops, res holds the wanted shape on entry and is checked).
 * symbolic != 0: dims are size symbols (IR_DIM_ONE is 1); two dims agree
 * only if they are the same symbol.  Returns 0, or -1 with err filled. */
typedef int (*interp_shape_fn)(const interp_op *op, const interp_attr *attrs,
                               const interp_shape *args, interp_shape *res,
                               int symbolic, interp_err *err);

/* One attribute slot of a kernel. */
typedef struct interp_attr_spec {
  const char *name;      /* "lhs_batch", "dims", "direction", ... */
  interp_attr_kind kind;
} interp_attr_spec;

/* A kernel descriptor.  Static data: never freed. */
struct interp_op {
  const char *name;  /* the name dialect files use */
  int code;          /* private: which op of its family */
  int nargs;         /* operands */
  int nattrs;        /* attributes, in attrs[] order */
  interp_attr_spec attrs[INTERP_MAX_ATTRS];
  unsigned flags;    /* INTERP_OP_* */
  interp_shape_fn shape;
  interp_run_fn run;
  interp_run_sym_fn run_sym;
  /* The kernel whose part this one plays for the search's hints and the C
   * backend (maxnum: max), computing the same value where it is defined;
   * NULL: its own name. */
  const char *like;
};

/* The name of the kernel whose part `name` plays (interp_op.like), or name
 * itself; NULL stays NULL. */
const char *interp_op_like(const char *name);

/* Look up a kernel by name; NULL if there is none. */
const interp_op *interp_op_find(const char *name);
/* All kernels, for listings: i in 0..interp_op_count()-1. */
int interp_op_count(void);
const interp_op *interp_op_at(int i);
/* Attribute slot index by name, or -1. */
int interp_op_attr_index(const interp_op *op, const char *attr_name);

/* Check that attrs (op->nattrs values, descriptor order) have the kinds the
 * kernel wants (a list attribute's length is checked against ranks at run
 * time).  Returns 0, or -1 with err filled. */
int interp_op_check_attrs(const interp_op *op, const interp_attr *attrs,
                          interp_err *err);

/* Concrete result shape: op->shape with symbolic = 0, after the attribute
 * kind check.  Returns 0 or -1 with err. */
int interp_op_shape(const interp_op *op, const interp_attr *attrs,
                    const interp_shape *args, interp_shape *res,
                    interp_err *err);

/* Static type check (the grammar's): operand ir_types (symbolic dims) +
 * attributes -> result type.  For GIVEN_SHAPE ops res holds the proposed
 * result type on entry (its elem too, for iota, constant and fill); for the
 * others res is output only.  Also checks element types (operands agree,
 * select's pred is i1, reduce's init matches, float-only ops).  Result
 * element: i1 for compare, a's for select, the operand's otherwise.
 * Returns 0, or -1 with err filled. */
int interp_op_type(const interp_op *op, const interp_attr *attrs,
                   const ir_type *args, ir_type *res, interp_err *err);

/* Concrete convenience wrapper over ir_tensor: checks attributes, computes
 * the shape, allocates out->data and (only if some element is poison)
 * out->poison with ir_malloc (owned by the caller: interp_tensor_free), and
 * runs the kernel.  For GIVEN_SHAPE ops out->rank, dims and elem say the
 * wanted result on entry.  Returns 0, or -1 with err filled and nothing
 * allocated. */
int interp_op_eval(const interp_op *op, const interp_attr *attrs,
                   const ir_tensor *args, ir_tensor *out, interp_err *err);
void interp_tensor_free(ir_tensor *t); /* frees data and poison, NULLs them */

/* Symbolic convenience wrapper: as interp_op_eval with interp_sym_tensor;
 * out->data and out->poison (if any) are ir_malloc'd, freed with
 * interp_sym_tensor_free. */
int interp_op_eval_sym(const interp_op *op, const interp_attr *attrs,
                       const interp_sym_tensor *args, interp_sym_tensor *out,
                       const interp_sym_algebra *alg, interp_err *err);
void interp_sym_tensor_free(interp_sym_tensor *t);

#endif
