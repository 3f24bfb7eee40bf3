/*
 * ops.c - the kernel registry, attribute helpers, the shape functions and
 * the two instantiations of the generic kernels.
 *
 * How: the kernels themselves are written once in ops_kernels.inc over an
 * element type T, a poison type P and a handful of element macros (E_ADD,
 * P_OR, ...).  This file includes it twice: once with T = double, P =
 * unsigned char and plain C arithmetic (the concrete, hot-path instance:
 * every element macro is inline code), once with T = P = interp_term and
 * macros that call the interp_sym_algebra callbacks (the symbolic instance).
 * The shape functions are shared by both and by the grammar's static check:
 * they work on integer dims where concrete dims are sizes and symbolic dims
 * are size symbols (1 is IR_DIM_ONE); only reshape needs to know which.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "interp/ops.h"

/* ------------------------------------------------------------ attributes */

interp_attr interp_attr_ints(int n, const int *v) {
  interp_attr a;
  memset(&a, 0, sizeof a);
  a.kind = INTERP_ATTR_INTS;
  if (n < 0) n = 0;
  if (n > IR_MAX_RANK) n = IR_MAX_RANK;
  a.n = n;
  for (int i = 0; i < n; i++) a.v[i] = v[i];
  return a;
}

static interp_attr attr_one(interp_attr_kind kind, int x) {
  interp_attr a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  a.n = 1;
  a.v[0] = x;
  return a;
}

interp_attr interp_attr_int(int x) { return attr_one(INTERP_ATTR_INT, x); }
interp_attr interp_attr_dir(interp_cmp dir) {
  return attr_one(INTERP_ATTR_DIR, (int)dir);
}
interp_attr interp_attr_body(interp_body body) {
  return attr_one(INTERP_ATTR_BODY, (int)body);
}
interp_attr interp_attr_double(double d) {
  interp_attr a = attr_one(INTERP_ATTR_DOUBLE, 0);
  a.n = 0;
  a.d = d;
  return a;
}

static const char *const cmp_names[INTERP_CMP_COUNT] = {"EQ", "NE", "LT",
                                                        "LE", "GT", "GE"};
static const char *const body_names[INTERP_BODY_COUNT] = {
    "add", "mul", "max", "min", "upd_gt", "upd_ge", "upd_lt", "upd_le"};

int interp_body_update_dir(interp_body body) {
  switch (body) {
  case INTERP_BODY_UPD_GT: return INTERP_CMP_GT;
  case INTERP_BODY_UPD_GE: return INTERP_CMP_GE;
  case INTERP_BODY_UPD_LT: return INTERP_CMP_LT;
  case INTERP_BODY_UPD_LE: return INTERP_CMP_LE;
  default: return -1;
  }
}

const char *interp_cmp_name(interp_cmp dir) {
  return (unsigned)dir < INTERP_CMP_COUNT ? cmp_names[dir] : "?";
}
int interp_cmp_parse(const char *name) {
  for (int i = 0; i < INTERP_CMP_COUNT; i++)
    if (strcmp(name, cmp_names[i]) == 0) return i;
  return -1;
}
const char *interp_body_name(interp_body body) {
  return (unsigned)body < INTERP_BODY_COUNT ? body_names[body] : "?";
}
int interp_body_parse(const char *name) {
  for (int i = 0; i < INTERP_BODY_COUNT; i++)
    if (strcmp(name, body_names[i]) == 0) return i;
  return -1;
}
const char *interp_attr_kind_name(interp_attr_kind kind) {
  switch (kind) {
  case INTERP_ATTR_NONE: return "none";
  case INTERP_ATTR_INTS: return "ints";
  case INTERP_ATTR_INT: return "int";
  case INTERP_ATTR_DOUBLE: return "double";
  case INTERP_ATTR_DIR: return "direction";
  case INTERP_ATTR_BODY: return "body";
  }
  return "?";
}

/* ---------------------------------------------------------------- errors */

/* Shapes, attributes and element types that do not fit: IR_ERR_SHAPE. */
__attribute__((format(printf, 2, 3))) static int fail(interp_err *err,
                                                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(err, (ir_pos){0}, IR_ERR_SHAPE, fmt, ap);
  va_end(ap);
  return -1;
}

/* "[3,5]" or, for symbolic dims, "[d3,1]". */
typedef struct shape_str {
  char s[64];
} shape_str;

static shape_str sstr(const interp_shape *sh, int symbolic) {
  shape_str r;
  size_t k = 0;
  r.s[k++] = '[';
  for (int i = 0; i < sh->rank && i < IR_MAX_RANK; i++) {
    long d = sh->dims[i];
    int w;
    if (symbolic && d == IR_DIM_ONE)
      w = snprintf(r.s + k, sizeof r.s - k, "%s1", i ? "," : "");
    else
      w = snprintf(r.s + k, sizeof r.s - k, "%s%s%ld", i ? "," : "",
                   symbolic ? "d" : "", d);
    if (w < 0 || (size_t)w >= sizeof r.s - k - 2) break;
    k += (size_t)w;
  }
  r.s[k++] = ']';
  r.s[k] = 0;
  return r;
}
#define S(sh) (sstr((sh), symbolic).s)
/* The operands' shapes for the messages of a shape function, in its local
 * `shapes`: formatted only when there is an error to fill (the search runs
 * the kernels without one, millions of times, where the formatting cost
 * more than a small dot_general). */
#define SHAPES(...) \
  (err ? (void)snprintf(shapes, sizeof shapes, __VA_ARGS__) : (void)(shapes[0] = 0))

/* --------------------------------------------------------------- helpers */

enum { U_NEG, U_SQRT, U_EXP, U_RSQRT, U_RECIP, U_ABS };
enum { B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_CFMAX, B_CFMIN, B_MAXNUM, B_MINNUM };

static long shape_numel(const interp_shape *s) {
  long n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

/* A list attribute's entries must be distinct dims in [0, rank). */
static int check_dim_list(const interp_op *op, const char *what,
                          const interp_attr *a, int rank, const char *shapes,
                          interp_err *err) {
  unsigned seen = 0;
  for (int i = 0; i < a->n; i++) {
    int d = a->v[i];
    if (d < 0 || d >= rank)
      return fail(err, "%s: %s: %s dim %d out of range for rank %d", op->name,
                  shapes, what, d, rank);
    if (seen & (1u << d))
      return fail(err, "%s: %s: %s lists dim %d twice", op->name, shapes, what,
                  d);
    seen |= 1u << d;
  }
  return 0;
}

static int check_rank(const interp_op *op, const interp_shape *s,
                      interp_err *err) {
  if (s->rank < 0 || s->rank > IR_MAX_RANK)
    return fail(err, "%s: rank %d outside 0..%d", op->name, s->rank,
                IR_MAX_RANK);
  return 0;
}

/* A given result shape: rank in range, concrete sizes >= 0. */
static int check_given(const interp_op *op, const interp_shape *res,
                       int symbolic, interp_err *err) {
  if (check_rank(op, res, err)) return -1;
  if (!symbolic)
    for (int i = 0; i < res->rank; i++)
      if (res->dims[i] < 0)
        return fail(err, "%s: result %s: negative size", op->name,
                    sstr(res, 0).s);
  return 0;
}

/* --------------------------------------------------------- shape functions */

static int shape_unary(const interp_op *op, const interp_attr *attrs,
                       const interp_shape *args, interp_shape *res,
                       int symbolic, interp_err *err) {
  (void)attrs, (void)symbolic;
  if (check_rank(op, &args[0], err)) return -1;
  *res = args[0];
  return 0;
}

/* Numpy/CHLO broadcasting of n shapes, aligned at the trailing dims. */
static int broadcast_shapes(const interp_op *op, int n,
                            const interp_shape *args, interp_shape *res,
                            int symbolic, interp_err *err) {
  static const char *const names[] = {"a", "b", "c"};
  static const char *const names_sel[] = {"pred", "a", "b"};
  const char *const *nm = n == 3 ? names_sel : names;
  long one = symbolic ? IR_DIM_ONE : 1;
  int rank = 0;
  for (int k = 0; k < n; k++) {
    if (check_rank(op, &args[k], err)) return -1;
    if (args[k].rank > rank) rank = args[k].rank;
  }
  res->rank = rank;
  for (int i = 0; i < rank; i++) { /* i counts from the trailing dim */
    long d = one;
    int from = -1;
    for (int k = 0; k < n; k++) {
      int r = args[k].rank;
      if (i >= r) continue;
      long e = args[k].dims[r - 1 - i];
      if (e == one) continue;
      if (d == one) {
        d = e;
        from = k;
      } else if (e != d) {
        char buf[200];
        int w = 0;
        for (int j = 0; j < n; j++)
          w += snprintf(buf + w, sizeof buf - (size_t)w, "%s%s %s",
                        j ? (j == n - 1 ? " and " : ", ") : "", nm[j],
                        S(&args[j]));
        return fail(err,
                    "%s: %s: dim %d from the end differs (%s%ld vs %s%ld) "
                    "and neither is 1: cannot broadcast",
                    op->name, buf, i, symbolic ? "d" : "", d,
                    symbolic ? "d" : "", e);
      }
    }
    (void)from;
    res->dims[rank - 1 - i] = d;
  }
  return 0;
}

static int shape_binary(const interp_op *op, const interp_attr *attrs,
                        const interp_shape *args, interp_shape *res,
                        int symbolic, interp_err *err) {
  (void)attrs;
  return broadcast_shapes(op, 2, args, res, symbolic, err);
}

static int shape_compare(const interp_op *op, const interp_attr *attrs,
                         const interp_shape *args, interp_shape *res,
                         int symbolic, interp_err *err) {
  if ((unsigned)attrs[0].v[0] >= INTERP_CMP_COUNT)
    return fail(err, "%s: direction %d is not one of EQ NE LT LE GT GE",
                op->name, attrs[0].v[0]);
  return broadcast_shapes(op, 2, args, res, symbolic, err);
}

static int shape_select(const interp_op *op, const interp_attr *attrs,
                        const interp_shape *args, interp_shape *res,
                        int symbolic, interp_err *err) {
  (void)attrs;
  return broadcast_shapes(op, 3, args, res, symbolic, err);
}

/* dot_general: classify each operand dim as batch, contracting or free. */
static int shape_dot(const interp_op *op, const interp_attr *attrs,
                     const interp_shape *args, interp_shape *res, int symbolic,
                     interp_err *err) {
  const interp_shape *l = &args[0], *r = &args[1];
  const interp_attr *lb = &attrs[0], *rb = &attrs[1], *lc = &attrs[2],
                    *rc = &attrs[3];
  char shapes[160];
  if (check_rank(op, l, err) || check_rank(op, r, err)) return -1;
  SHAPES("lhs %s and rhs %s", S(l), S(r));
  if (lb->n != rb->n)
    return fail(err, "%s: %s: %d lhs batch dims but %d rhs batch dims",
                op->name, shapes, lb->n, rb->n);
  if (lc->n != rc->n)
    return fail(err,
                "%s: %s: %d lhs contracting dims but %d rhs contracting dims",
                op->name, shapes, lc->n, rc->n);
  if (check_dim_list(op, "lhs_batch", lb, l->rank, shapes, err) ||
      check_dim_list(op, "rhs_batch", rb, r->rank, shapes, err) ||
      check_dim_list(op, "lhs_contract", lc, l->rank, shapes, err) ||
      check_dim_list(op, "rhs_contract", rc, r->rank, shapes, err))
    return -1;
  unsigned lused = 0, rused = 0;
  for (int i = 0; i < lb->n; i++) lused |= 1u << lb->v[i];
  for (int i = 0; i < rb->n; i++) rused |= 1u << rb->v[i];
  for (int i = 0; i < lc->n; i++) {
    if (lused & (1u << lc->v[i]))
      return fail(err, "%s: %s: lhs dim %d is both batch and contracting",
                  op->name, shapes, lc->v[i]);
    lused |= 1u << lc->v[i];
  }
  for (int i = 0; i < rc->n; i++) {
    if (rused & (1u << rc->v[i]))
      return fail(err, "%s: %s: rhs dim %d is both batch and contracting",
                  op->name, shapes, rc->v[i]);
    rused |= 1u << rc->v[i];
  }
  const char *sd = symbolic ? "d" : "";
  for (int i = 0; i < lb->n; i++) {
    long a = l->dims[lb->v[i]], b = r->dims[rb->v[i]];
    if (a != b)
      return fail(err,
                  "%s: %s: batch dims lhs %d (size %s%ld) and rhs %d (size "
                  "%s%ld) differ",
                  op->name, shapes, lb->v[i], sd, a, rb->v[i], sd, b);
  }
  for (int i = 0; i < lc->n; i++) {
    long a = l->dims[lc->v[i]], b = r->dims[rc->v[i]];
    if (a != b)
      return fail(err,
                  "%s: %s: contracting dims lhs %d (size %s%ld) and rhs %d "
                  "(size %s%ld) differ",
                  op->name, shapes, lc->v[i], sd, a, rc->v[i], sd, b);
  }
  int rank = lb->n + (l->rank - lb->n - lc->n) + (r->rank - rb->n - rc->n);
  if (rank > IR_MAX_RANK)
    return fail(err, "%s: %s: result rank %d exceeds %d", op->name, shapes,
                rank, IR_MAX_RANK);
  int k = 0;
  for (int i = 0; i < lb->n; i++) res->dims[k++] = l->dims[lb->v[i]];
  for (int d = 0; d < l->rank; d++)
    if (!(lused & (1u << d))) res->dims[k++] = l->dims[d];
  for (int d = 0; d < r->rank; d++)
    if (!(rused & (1u << d))) res->dims[k++] = r->dims[d];
  res->rank = k;
  return 0;
}

static int shape_transpose(const interp_op *op, const interp_attr *attrs,
                           const interp_shape *args, interp_shape *res,
                           int symbolic, interp_err *err) {
  const interp_attr *p = &attrs[0];
  const interp_shape *x = &args[0];
  if (check_rank(op, x, err)) return -1;
  if (p->n != x->rank)
    return fail(err,
                "%s: operand %s: permutation has %d entries, expected %d",
                op->name, S(x), p->n, x->rank);
  char shapes[80];
  SHAPES("operand %s", S(x));
  if (check_dim_list(op, "permutation", p, x->rank, shapes, err)) return -1;
  res->rank = x->rank;
  for (int i = 0; i < x->rank; i++) res->dims[i] = x->dims[p->v[i]];
  return 0;
}

/* ---- reverse (issue 14: reversed windows such as durbin's r[k - i - 1]) */
static int shape_reverse(const interp_op *op, const interp_attr *attrs,
                         const interp_shape *args, interp_shape *res,
                         int symbolic, interp_err *err) {
  (void)symbolic;
  const interp_shape *x = &args[0];
  if (check_rank(op, x, err)) return -1;
  int d = attrs[0].v[0];
  if (d < 0 || d >= x->rank)
    return fail(err, "%s: operand %s: dimension %d out of range for rank %d",
                op->name, S(x), d, x->rank);
  *res = *x;
  return 0;
}
/* ---- end reverse */

static int shape_bcast(const interp_op *op, const interp_attr *attrs,
                       const interp_shape *args, interp_shape *res,
                       int symbolic, interp_err *err) {
  const interp_attr *m = &attrs[0];
  const interp_shape *x = &args[0];
  long one = symbolic ? IR_DIM_ONE : 1;
  if (check_rank(op, x, err) || check_given(op, res, symbolic, err)) return -1;
  char shapes[160];
  SHAPES("operand %s to result %s", S(x), S(res));
  if (m->n != x->rank)
    return fail(err, "%s: %s: dims has %d entries, expected %d (the operand "
                "rank)", op->name, shapes, m->n, x->rank);
  if (check_dim_list(op, "dims", m, res->rank, shapes, err)) return -1;
  for (int i = 0; i < x->rank; i++) {
    long a = x->dims[i], b = res->dims[m->v[i]];
    if (a != b && a != one)
      return fail(err,
                  "%s: %s: operand dim %d (size %s%ld) must equal result dim "
                  "%d (size %s%ld) or be 1",
                  op->name, shapes, i, symbolic ? "d" : "", a, m->v[i],
                  symbolic ? "d" : "", b);
  }
  return 0;
}

/* slice: start and keep per operand dim (1 kept, 0 dropped at start, 2
 * dropped at the dim's extent + start); the kept dims are the result's, in
 * order.  Any given result sizes: what falls outside the operand reads 0. */
static int shape_slice(const interp_op *op, const interp_attr *attrs,
                       const interp_shape *args, interp_shape *res,
                       int symbolic, interp_err *err) {
  const interp_attr *st = &attrs[0], *keep = &attrs[1];
  const interp_shape *x = &args[0];
  if (check_rank(op, x, err) || check_given(op, res, symbolic, err)) return -1;
  char shapes[160];
  SHAPES("operand %s to result %s", S(x), S(res));
  if (st->n != x->rank || keep->n != x->rank)
    return fail(err, "%s: %s: start and keep have %d and %d entries, expected %d (the "
                "operand rank)", op->name, shapes, st->n, keep->n, x->rank);
  int kept = 0;
  for (int d = 0; d < x->rank; d++) {
    if (keep->v[d] < 0 || keep->v[d] > 2)
      return fail(err, "%s: %s: keep of dim %d is %d, expected 0, 1 or 2", op->name, shapes,
                  d, keep->v[d]);
    kept += keep->v[d] == 1;
  }
  if (kept != res->rank)
    return fail(err, "%s: %s: %d dims kept, expected the result rank %d", op->name, shapes,
                kept, res->rank);
  return 0;
}

/* ---- pad (edge padding; issue 14's stencil ops) ----
 * pad: x and a rank-0 padding value v; low and high per dim of x, each
 * possibly negative (a crop at that edge, as StableHLO's).  Result dim d
 * is x's + low[d] + high[d].  Over size symbols an extent that changes by
 * a constant is no type (dims are sizes or 1): there only pads with
 * low[d] + high[d] = 0 (a shift of the dim by low[d]) have one. */
static int shape_pad(const interp_op *op, const interp_attr *attrs,
                     const interp_shape *args, interp_shape *res,
                     int symbolic, interp_err *err) {
  const interp_attr *lo = &attrs[0], *hi = &attrs[1];
  const interp_shape *x = &args[0], *v = &args[1];
  if (check_rank(op, x, err)) return -1;
  char shapes[160];
  SHAPES("operand %s and padding value %s", S(x), S(v));
  if (v->rank != 0)
    return fail(err, "%s: %s: the padding value must be rank 0", op->name, shapes);
  if (lo->n != x->rank || hi->n != x->rank)
    return fail(err, "%s: %s: low and high have %d and %d entries, expected %d (the "
                "operand rank)", op->name, shapes, lo->n, hi->n, x->rank);
  for (int d = 0; d < x->rank; d++) {
    long grow = (long)lo->v[d] + hi->v[d];
    if (symbolic) {
      if (grow != 0)
        return fail(err, "%s: %s: dim %d grows by %ld, which no size symbol expresses "
                    "(only low + high = 0 has a type)", op->name, shapes, d, grow);
      res->dims[d] = x->dims[d];
    } else {
      if (x->dims[d] + grow < 0)
        return fail(err, "%s: %s: the padding of dim %d (low %d, high %d) leaves a "
                    "negative extent", op->name, shapes, d, lo->v[d], hi->v[d]);
      res->dims[d] = x->dims[d] + grow;
    }
  }
  res->rank = x->rank;
  return 0;
}
/* ---- end pad ---- */

/* ---- conv (issue 14) ----
 * conv: x and a window w of x's rank; the result has x's shape (a `same`
 * convolution, unit strides, zero padding, so that it types over size
 * symbols). */
static int shape_conv(const interp_op *op, const interp_attr *attrs,
                      const interp_shape *args, interp_shape *res,
                      int symbolic, interp_err *err) {
  (void)attrs;
  const interp_shape *x = &args[0], *w = &args[1];
  if (check_rank(op, x, err) || check_rank(op, w, err)) return -1;
  char shapes[160];
  SHAPES("operand %s and window %s", S(x), S(w));
  if (x->rank != w->rank || x->rank == 0)
    return fail(err, "%s: %s: the window must have the operand's rank, at least 1", op->name,
                shapes);
  *res = *x;
  return 0;
}
/* ---- end conv ---- */

static int shape_reduce(const interp_op *op, const interp_attr *attrs,
                        const interp_shape *args, interp_shape *res,
                        int symbolic, interp_err *err) {
  const interp_shape *x = &args[0], *init = &args[1];
  const interp_attr *dims = &attrs[0];
  int body = attrs[1].v[0], keep = attrs[2].v[0];
  long one = symbolic ? IR_DIM_ONE : 1;
  if (check_rank(op, x, err)) return -1;
  char shapes[160];
  SHAPES("operand %s and init %s", S(x), S(init));
  if (init->rank != 0)
    return fail(err, "%s: %s: init must be rank 0", op->name, shapes);
  if ((unsigned)body >= INTERP_BODY_COUNT)
    return fail(err,
                "%s: %s: body %d is not one of add mul max min upd_gt upd_ge upd_lt upd_le",
                op->name, shapes, body);
  if (keep != 0 && keep != 1)
    return fail(err, "%s: %s: keepdims is %d, expected 0 or 1", op->name,
                shapes, keep);
  if (check_dim_list(op, "dims", dims, x->rank, shapes, err)) return -1;
  unsigned red = 0;
  for (int i = 0; i < dims->n; i++) red |= 1u << dims->v[i];
  int k = 0;
  for (int d = 0; d < x->rank; d++) {
    if (!(red & (1u << d)))
      res->dims[k++] = x->dims[d];
    else if (keep)
      res->dims[k++] = one;
  }
  res->rank = k;
  return 0;
}

static int shape_iota(const interp_op *op, const interp_attr *attrs,
                      const interp_shape *args, interp_shape *res,
                      int symbolic, interp_err *err) {
  (void)args;
  if (check_given(op, res, symbolic, err)) return -1;
  int d = attrs[0].v[0];
  if (d < 0 || d >= res->rank)
    return fail(err, "%s: result %s: dimension %d out of range for rank %d",
                op->name, S(res), d, res->rank);
  return 0;
}

static int shape_constant(const interp_op *op, const interp_attr *attrs,
                          const interp_shape *args, interp_shape *res,
                          int symbolic, interp_err *err) {
  (void)args, (void)attrs;
  return check_given(op, res, symbolic, err);
}

static int shape_fill_scalar(const interp_op *op, const interp_attr *attrs,
                             const interp_shape *args, interp_shape *res,
                             int symbolic, interp_err *err) {
  (void)attrs;
  if (check_given(op, res, symbolic, err)) return -1;
  if (args[0].rank != 0)
    return fail(err, "%s: value %s to result %s: the value must be rank 0",
                op->name, S(&args[0]), S(res));
  return 0;
}

/* Symbolic element counts agree when the non-1 dims are the same multiset
 * of symbols. */
static int same_symbolic_count(const interp_shape *a, const interp_shape *b) {
  long x[IR_MAX_RANK], y[IR_MAX_RANK];
  int nx = 0, ny = 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != IR_DIM_ONE) x[nx++] = a->dims[i];
  for (int i = 0; i < b->rank; i++)
    if (b->dims[i] != IR_DIM_ONE) y[ny++] = b->dims[i];
  if (nx != ny) return 0;
  for (int i = 0; i < nx; i++) {
    int j = 0;
    while (j < ny && y[j] != x[i]) j++;
    if (j == ny) return 0;
    y[j] = y[--ny];
  }
  return 1;
}

static int shape_reshape(const interp_op *op, const interp_attr *attrs,
                         const interp_shape *args, interp_shape *res,
                         int symbolic, interp_err *err) {
  (void)attrs;
  const interp_shape *x = &args[0];
  if (check_rank(op, x, err) || check_given(op, res, symbolic, err)) return -1;
  int ok = symbolic ? same_symbolic_count(x, res)
                    : shape_numel(x) == shape_numel(res);
  if (!ok) {
    if (symbolic)
      return fail(err, "%s: operand %s to result %s: element counts differ",
                  op->name, S(x), S(res));
    return fail(err,
                "%s: operand %s to result %s: element counts differ (%ld vs "
                "%ld)",
                op->name, S(x), S(res), shape_numel(x), shape_numel(res));
  }
  return 0;
}

/* -------------------------------------------------- broadcasting strides */

/* Padded to rank 4 (leading 1s): dims of `res` into rd, and the strides of
 * an operand (aligned at the trailing dims) into st, 0 where it stretches. */
static void pad_dims(const interp_shape *res, long rd[IR_MAX_RANK]) {
  int off = IR_MAX_RANK - res->rank;
  for (int i = 0; i < IR_MAX_RANK; i++)
    rd[i] = i < off ? 1 : res->dims[i - off];
}

static void bcast_strides(int rank, const long *dims, long st[IR_MAX_RANK]) {
  int off = IR_MAX_RANK - rank;
  long s = 1;
  for (int i = IR_MAX_RANK - 1; i >= 0; i--) {
    if (i < off) {
      st[i] = 0;
      continue;
    }
    long d = dims[i - off];
    st[i] = d == 1 ? 0 : s;
    s *= d;
  }
}

static void row_strides(int rank, const long *dims, long *st) {
  long s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    st[i] = s;
    s *= dims[i];
  }
}

/* Advance a multi-index in row-major order; 0 once it wraps around. */
static inline int odo_next(long *idx, const long *dims, int rank) {
  for (int i = rank - 1; i >= 0; i--) {
    if (++idx[i] < dims[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}

/* Advance the reduced multi-index ridx (extents re, strides rst, nr dims)
 * and the element offset *o with it, row-major; back to the start once it
 * wraps around. */
static inline void red_next(long *o, long *ridx, const long *rst, const long *re, int nr) {
  for (int c = nr - 1; c >= 0; c--) {
    *o += rst[c];
    if (++ridx[c] < re[c]) return;
    *o -= rst[c] * re[c];
    ridx[c] = 0;
  }
}

/* NaN-propagating max/min with -0 < +0 (StableHLO maximum/minimum, MLIR
 * arith.maxf/minf). */
static inline double max_c(double a, double b) {
  if (a != a || b != b) return a + b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline double min_c(double a, double b) {
  if (a != a || b != b) return a + b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* The poison of maxnum/minnum (MLIR 16's lowering of tosa.maximum and
 * friends, llvm.intr.maxnum: a NaN operand is skipped and of two zeros
 * either may come out): a NaN operand or zeros of opposite signs. */
static inline unsigned char num_tie_c(double a, double b) {
  return a != a || b != b || (a == 0 && b == 0 && !signbit(a) != !signbit(b));
}

static inline double cmp_c(int dir, double a, double b) {
  switch (dir) {
  case INTERP_CMP_EQ: return a == b;
  case INTERP_CMP_NE: return a != b;
  case INTERP_CMP_LT: return a < b;
  case INTERP_CMP_LE: return a <= b;
  case INTERP_CMP_GT: return a > b;
  default: return a >= b;
  }
}

/* ------------------------------------------------ concrete instantiation */

/* C's conversion of a value to type to (floating: rounding to f32). */
static double conv_c(double a, ir_elem to) {
  if (to == IR_F32) return (double)(float)a;
  if (to == IR_I1) return a != 0;
  return ir_elem_wrap(to, a);
}

/* A reduction step of the concrete instance in type e: integer sums and
 * products exactly on 64-bit integers, wrapped to e (a sum of u32
 * products is past a double's 53 bits), as the binary ops compute. */
static inline double red_step_c(ir_elem e, int body, double acc, double x) {
  switch (body) {
  case INTERP_BODY_ADD: return ir_elem_is_int(e) ? ir_int_arith(e, '+', acc, x) : acc + x;
  case INTERP_BODY_MUL: return ir_elem_is_int(e) ? ir_int_arith(e, '*', acc, x) : acc * x;
  case INTERP_BODY_MAX: return max_c(acc, x);
  case INTERP_BODY_MIN: return min_c(acc, x);
  default: return cmp_c(interp_body_update_dir((interp_body)body), x, acc) ? x : acc;
  }
}

#define SFX(name) name##_c
#define TENSOR ir_tensor
#define T double
#define P unsigned char
#define ALG_DECL
#define ALG_ARG
#define SYMBOLIC 0
#define E_CONST(v) ((double)(v))
#define E_ADD(a, b) ((a) + (b))
#define E_SUB(a, b) ((a) - (b))
#define E_MUL(a, b) ((a) * (b))
#define E_DIV(a, b) ((a) / (b))
#define E_MAX(a, b) max_c((a), (b))
#define E_MIN(a, b) min_c((a), (b))
#define E_NEG(a) (-(a))
#define E_SQRT(a) sqrt(a)
#define E_EXP(a) exp(a)
#define E_CMP(dir, a, b) cmp_c((dir), (a), (b))
#define E_SEL(p, a, b) ((p) != 0.0 ? (a) : (b))
#define P_TIE(a, b) num_tie_c((a), (b))
#define P_NONE 0
#define P_TRUE 1
#define P_SET(p) ((p) != 0)
#define P_OR(a, b) ((P)((a) | (b)))
#define P_SEL(c, pc, pa, pb) ((P)((pc) | ((c) != 0.0 ? (pa) : (pb))))
#define RED_VARS(n)
#define RED_INIT(acc, init) ((acc) = (init))
#define RED_STEP(acc, body, x) ((acc) = red_step_c(out->elem, (body), (acc), (x)))
#define E_MUL_IN(a, b, elem) (ir_elem_is_int(elem) ? ir_int_arith((elem), '*', (a), (b)) : (a) * (b))
#define RED_FINISH(acc, body, init) ((void)0)
#define RED_FREE() ((void)0)
#define E_CONV(a, from, to) conv_c((a), (to))
#define E_SHIFT(op, a, b, elem) ir_int_arith((elem), (op), (a), (b))
#define ROUND_OUT(out, n)                                                  \
  do {                                                                     \
    if ((out)->elem == IR_F32)                                             \
      for (long r_ = 0; r_ < (n); r_++)                                    \
        (out)->data[r_] = (double)(float)(out)->data[r_];                  \
    else if (ir_elem_is_int((out)->elem)) /* integer ops wrap */           \
      for (long r_ = 0; r_ < (n); r_++)                                    \
        (out)->data[r_] = ir_elem_wrap((out)->elem, (out)->data[r_]);      \
  } while (0)
#include "interp/ops_kernels.inc"
#undef SFX
#undef TENSOR
#undef T
#undef P
#undef ALG_DECL
#undef ALG_ARG
#undef SYMBOLIC
#undef E_CONST
#undef E_ADD
#undef E_SUB
#undef E_MUL
#undef E_DIV
#undef E_MAX
#undef E_MIN
#undef E_NEG
#undef E_SQRT
#undef E_EXP
#undef E_CMP
#undef E_SEL
#undef P_TIE
#undef E_CONV
#undef E_SHIFT
#undef E_MUL_IN
#undef P_NONE
#undef P_TRUE
#undef P_SET
#undef P_OR
#undef P_SEL
#undef RED_VARS
#undef RED_INIT
#undef RED_STEP
#undef RED_FINISH
#undef RED_FREE
#undef ROUND_OUT

/* ------------------------------------------------ symbolic instantiation */

static inline interp_term sym_por(const interp_sym_algebra *alg, interp_term a,
                                  interp_term b) {
  if (a == INTERP_TERM_NONE) return b;
  if (b == INTERP_TERM_NONE || a == b) return a;
  return alg->poison_or(alg->ctx, a, b);
}

static inline interp_term sym_psel(const interp_sym_algebra *alg,
                                   interp_term c, interp_term pc,
                                   interp_term pa, interp_term pb) {
  interp_term p = pa == pb ? pa : alg->poison_select(alg->ctx, c, pa, pb);
  return sym_por(alg, pc, p);
}

#define SFX(name) name##_s
#define TENSOR interp_sym_tensor
#define T interp_term
#define P interp_term
#define ALG_DECL , const interp_sym_algebra *alg
#define ALG_ARG , alg
#define SYMBOLIC 1
#define E_CONST(v) alg->constant(alg->ctx, (double)(v))
#define E_ADD(a, b) alg->add(alg->ctx, (a), (b))
#define E_SUB(a, b) alg->sub(alg->ctx, (a), (b))
#define E_MUL(a, b) alg->mul(alg->ctx, (a), (b))
#define E_DIV(a, b) alg->div(alg->ctx, (a), (b))
#define E_MAX(a, b) alg->max(alg->ctx, (a), (b))
#define E_MIN(a, b) alg->min(alg->ctx, (a), (b))
#define E_NEG(a) alg->neg(alg->ctx, (a))
#define E_SQRT(a) alg->sqrt(alg->ctx, (a))
#define E_EXP(a) alg->exp(alg->ctx, (a))
#define E_CMP(dir, a, b) alg->compare(alg->ctx, (interp_cmp)(dir), (a), (b))
#define E_SEL(p, a, b) alg->select(alg->ctx, (p), (a), (b))
#define P_TIE(a, b) alg->num_tie(alg->ctx, (a), (b))
#define P_NONE INTERP_TERM_NONE
#define P_TRUE alg->poison_true(alg->ctx)
#define P_SET(p) ((p) != INTERP_TERM_NONE)
#define P_OR(a, b) sym_por(alg, (a), (b))
#define P_SEL(c, pc, pa, pb) sym_psel(alg, (c), (pc), (pa), (pb))
#define RED_VARS(n)                                                        \
  interp_term *red_xs_ =                                                   \
      alg->reduce ? ir_malloc(sizeof(interp_term) * (size_t)((n) > 0 ? (n) : 1)) \
                  : NULL;                                                  \
  long red_n_ = 0
#define RED_INIT(acc, init) ((acc) = (init), red_n_ = 0)
#define RED_STEP(acc, body, x)                                             \
  do {                                                                     \
    if (red_xs_)                                                           \
      red_xs_[red_n_++] = (x);                                             \
    else                                                                   \
      (acc) = body_op_s((body), (acc), (x), alg);                          \
  } while (0)
#define RED_FINISH(acc, body, init)                                        \
  do {                                                                     \
    if (red_xs_)                                                           \
      (acc) = alg->reduce(alg->ctx, (interp_body)(body), (init), red_xs_,  \
                          red_n_);                                         \
  } while (0)
#define RED_FREE() ir_free(red_xs_)
#define E_CONV(a, from, to) alg->convert(alg->ctx, (a), (from), (to))
#define E_SHIFT(op, a, b, elem) alg->shift(alg->ctx, (op), (a), (b), (elem))
#define E_MUL_IN(a, b, elem) E_MUL((a), (b))
#define ROUND_OUT(out, n) ((void)(out), (void)(n))
#include "interp/ops_kernels.inc"

/* -------------------------------------------------------------- registry */

#define A_NONE {NULL, INTERP_ATTR_NONE}
#define KERNEL(fam) fam##_c, fam##_s, NULL
/* a kernel that plays the part of kernel `like` (interp_op.like) */
#define KERNEL_LIKE(fam, like) fam##_c, fam##_s, like

static const interp_op ops[] = {
    /* elementwise unary: x -> x */
    {"neg", U_NEG, 1, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_unary,
     KERNEL(k_unary)},
    {"sqrt", U_SQRT, 1, 0, {A_NONE},
     INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY, shape_unary,
     KERNEL(k_unary)},
    {"exp", U_EXP, 1, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY,
     shape_unary, KERNEL(k_unary)},
    {"rsqrt", U_RSQRT, 1, 0, {A_NONE},
     INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY, shape_unary,
     KERNEL(k_unary)},
    {"reciprocal", U_RECIP, 1, 0, {A_NONE},
     INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY, shape_unary,
     KERNEL(k_unary)},
    {"abs", U_ABS, 1, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_unary,
     KERNEL(k_unary)},
    /* elementwise binary with broadcasting: a, b -> broadcast */
    {"add", B_ADD, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL(k_binary)},
    {"sub", B_SUB, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL(k_binary)},
    {"mul", B_MUL, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL(k_binary)},
    {"div", B_DIV, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY,
     shape_binary, KERNEL(k_binary)},
    {"max", B_MAX, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL(k_binary)},
    {"min", B_MIN, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL(k_binary)},
    /* C's fmax and fmin: a NaN operand gives the other, equal ones the first */
    {"fmax", B_CFMAX, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY,
     shape_binary, KERNEL(k_binary)},
    {"fmin", B_CFMIN, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_FLOAT_ONLY,
     shape_binary, KERNEL(k_binary)},
    /* max and min with poison where MLIR 16's lowering to llvm.intr.maxnum
     * and minnum leaves the value open (a NaN operand, zeros of opposite
     * signs): TOSA's maximum and minimum */
    {"maxnum", B_MAXNUM, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL_LIKE(k_binary, "max")},
    {"minnum", B_MINNUM, 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_binary,
     KERNEL_LIKE(k_binary, "min")},
    {"compare", 0, 2, 1, {{"direction", INTERP_ATTR_DIR}},
     INTERP_OP_ELEMENTWISE, shape_compare, KERNEL(k_compare)},
    {"select", 0, 3, 0, {A_NONE}, INTERP_OP_ELEMENTWISE, shape_select,
     KERNEL(k_select)},
    /* structured */
    {"dot_general", 0, 2, 4,
     {{"lhs_batch", INTERP_ATTR_INTS},
      {"rhs_batch", INTERP_ATTR_INTS},
      {"lhs_contract", INTERP_ATTR_INTS},
      {"rhs_contract", INTERP_ATTR_INTS}},
     INTERP_OP_REDUCTION, shape_dot, KERNEL(k_dot)},
    {"transpose", 0, 1, 1, {{"permutation", INTERP_ATTR_INTS}}, 0,
     shape_transpose, KERNEL(k_transpose)},
    /* reverse: x with one dim's order reversed */
    {"reverse", 0, 1, 1, {{"dimension", INTERP_ATTR_INT}}, 0, shape_reverse,
     KERNEL(k_reverse)},
    {"broadcast_in_dim", 0, 1, 1, {{"dims", INTERP_ATTR_INTS}},
     INTERP_OP_GIVEN_SHAPE, shape_bcast, KERNEL(k_bcast)},
    {"slice", 0, 1, 2, {{"start", INTERP_ATTR_INTS}, {"keep", INTERP_ATTR_INTS}},
     INTERP_OP_GIVEN_SHAPE, shape_slice, KERNEL(k_slice)},
    /* issue 14's stencil ops */
    {"pad", 0, 2, 2, {{"low", INTERP_ATTR_INTS}, {"high", INTERP_ATTR_INTS}}, 0,
     shape_pad, KERNEL(k_pad)},
    {"conv", 0, 2, 0, {A_NONE}, INTERP_OP_REDUCTION, shape_conv, KERNEL(k_conv)},
    {"reduce", 0, 2, 3,
     {{"dims", INTERP_ATTR_INTS},
      {"body", INTERP_ATTR_BODY},
      {"keepdims", INTERP_ATTR_INT}},
     INTERP_OP_REDUCTION, shape_reduce, KERNEL(k_reduce)},
    /* reduce whose max and min steps are maxnum and minnum (poison at a NaN
     * element or a zero meeting one of the other sign): TOSA's reduce_max
     * and reduce_min */
    {"reduce_num", 1, 2, 3,
     {{"dims", INTERP_ATTR_INTS},
      {"body", INTERP_ATTR_BODY},
      {"keepdims", INTERP_ATTR_INT}},
     INTERP_OP_REDUCTION, shape_reduce, KERNEL_LIKE(k_reduce, "reduce")},
    {"iota", 0, 0, 1, {{"dimension", INTERP_ATTR_INT}}, INTERP_OP_GIVEN_SHAPE,
     shape_iota, KERNEL(k_iota)},
    {"constant", 0, 0, 1, {{"value", INTERP_ATTR_DOUBLE}},
     INTERP_OP_GIVEN_SHAPE, shape_constant, KERNEL(k_constant)},
    {"fill", 0, 0, 1, {{"value", INTERP_ATTR_DOUBLE}}, INTERP_OP_GIVEN_SHAPE,
     shape_constant, KERNEL(k_constant)},
    {"fill_scalar", 0, 1, 0, {A_NONE}, INTERP_OP_GIVEN_SHAPE, shape_fill_scalar,
     KERNEL(k_fill_scalar)},
    {"reshape", 0, 1, 0, {A_NONE}, INTERP_OP_GIVEN_SHAPE, shape_reshape,
     KERNEL(k_reshape)},
    {"empty", 0, 0, 0, {A_NONE}, INTERP_OP_GIVEN_SHAPE, shape_constant,
     KERNEL(k_empty)},
    /* integer data */
    {"convert", 0, 1, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_GIVEN_ELEM,
     shape_unary, KERNEL(k_convert)},
    {"shl", 'l', 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_INT_ONLY, shape_binary,
     KERNEL(k_shift)},
    {"shra", 'a', 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_INT_ONLY, shape_binary,
     KERNEL(k_shift)},
    {"shrl", 'r', 2, 0, {A_NONE}, INTERP_OP_ELEMENTWISE | INTERP_OP_INT_ONLY, shape_binary,
     KERNEL(k_shift)},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

const interp_op *interp_op_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; i < NOPS; i++)
    if (strcmp(ops[i].name, name) == 0) return &ops[i];
  return NULL;
}

int interp_op_count(void) { return NOPS; }

const char *interp_op_like(const char *name) {
  const interp_op *op = interp_op_find(name);
  return op && op->like ? op->like : name;
}

const interp_op *interp_op_at(int i) {
  return i >= 0 && i < NOPS ? &ops[i] : NULL;
}

int interp_op_attr_index(const interp_op *op, const char *attr_name) {
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, attr_name) == 0) return i;
  return -1;
}

int interp_op_check_attrs(const interp_op *op, const interp_attr *attrs,
                          interp_err *err) {
  if (op->nattrs > 0 && !attrs)
    return fail(err, "%s: missing attributes (expected %d)", op->name,
                op->nattrs);
  for (int i = 0; i < op->nattrs; i++) {
    const interp_attr *a = &attrs[i];
    if (a->kind != op->attrs[i].kind)
      return fail(err, "%s: attribute %s is %s, expected %s", op->name,
                  op->attrs[i].name, interp_attr_kind_name(a->kind),
                  interp_attr_kind_name(op->attrs[i].kind));
    if (a->n < 0 || a->n > IR_MAX_RANK)
      return fail(err, "%s: attribute %s has %d entries (at most %d)",
                  op->name, op->attrs[i].name, a->n, IR_MAX_RANK);
  }
  return 0;
}

int interp_op_shape(const interp_op *op, const interp_attr *attrs,
                    const interp_shape *args, interp_shape *res,
                    interp_err *err) {
  if (interp_op_check_attrs(op, attrs, err)) return -1;
  return op->shape(op, attrs, args, res, 0, err);
}

int interp_op_type(const interp_op *op, const interp_attr *attrs,
                   const ir_type *args, ir_type *res, interp_err *err) {
  if (interp_op_check_attrs(op, attrs, err)) return -1;
  interp_shape sh[INTERP_MAX_ARGS], rs;
  for (int k = 0; k < op->nargs; k++) {
    sh[k].rank = args[k].rank;
    for (int i = 0; i < args[k].rank && i < IR_MAX_RANK; i++)
      sh[k].dims[i] = args[k].dims[i];
  }
  rs.rank = 0;
  if (op->flags & INTERP_OP_GIVEN_SHAPE) {
    rs.rank = res->rank;
    for (int i = 0; i < res->rank && i < IR_MAX_RANK; i++)
      rs.dims[i] = res->dims[i];
  }
  if (op->shape(op, attrs, sh, &rs, 1, err)) return -1;

  /* element types */
  ir_elem elem = res->elem;
#define en(e) ir_elem_mlir_name(e)
  if (op->shape == shape_select) {
    if (args[0].elem != IR_I1)
      return fail(err, "%s: pred is %s, expected i1", op->name,
                  en(args[0].elem));
    if (args[1].elem != args[2].elem)
      return fail(err, "%s: a is %s but b is %s", op->name, en(args[1].elem),
                  en(args[2].elem));
    elem = args[1].elem;
  } else if (op->nargs == 2) {
    if (args[0].elem != args[1].elem)
      return fail(err, "%s: operand element types %s and %s differ",
                  op->name, en(args[0].elem), en(args[1].elem));
    elem = op->shape == shape_compare ? IR_I1 : args[0].elem;
  } else if (op->nargs == 1 && !(op->flags & INTERP_OP_GIVEN_ELEM)) {
    elem = args[0].elem;
  }
  if ((op->flags & INTERP_OP_FLOAT_ONLY) && !ir_elem_is_float(elem))
    return fail(err, "%s: element type %s, expected f32 or f64", op->name,
                en(elem));
  if ((op->flags & INTERP_OP_INT_ONLY) && !ir_elem_is_int(elem))
    return fail(err, "%s: element type %s, expected an integer type", op->name, en(elem));
  if ((op->flags & INTERP_OP_GIVEN_ELEM) && (elem == IR_I1 || args[0].elem == IR_I1))
    return fail(err, "%s: converts numbers, not i1", op->name);
#undef en
  res->elem = elem;
  res->rank = rs.rank;
  for (int i = 0; i < rs.rank; i++) res->dims[i] = (int)rs.dims[i];
  return 0;
}

/* ---------------------------------------------------------------- wrappers */

/* The concrete and the symbolic tensors share their leading fields (elem,
 * rank, dims), so one function reads the shapes of either. */
_Static_assert(offsetof(ir_tensor, rank) == offsetof(interp_sym_tensor, rank) &&
                   offsetof(ir_tensor, dims) == offsetof(interp_sym_tensor, dims),
               "ir_tensor and interp_sym_tensor share elem, rank and dims");

static const ir_tensor *shape_view(const void *tensors, size_t stride, int k) {
  return (const ir_tensor *)((const char *)tensors + (size_t)k * stride);
}

/* The result shape of op on args (op->nargs tensors, `stride` bytes apart)
 * and, for GIVEN_SHAPE ops, the wanted result out. */
static int eval_shape(const interp_op *op, const interp_attr *attrs, const void *args,
                      size_t stride, const void *out, interp_shape *rs, interp_err *err) {
  interp_shape sh[INTERP_MAX_ARGS];
  for (int k = 0; k < op->nargs; k++) {
    const ir_tensor *t = shape_view(args, stride, k);
    sh[k].rank = t->rank;
    if (t->rank < 0 || t->rank > IR_MAX_RANK)
      return fail(err, "%s: operand %d has rank %d outside 0..%d", op->name,
                  k, t->rank, IR_MAX_RANK);
    memcpy(sh[k].dims, t->dims, sizeof sh[k].dims);
  }
  rs->rank = 0;
  memset(rs->dims, 0, sizeof rs->dims);
  if (op->flags & INTERP_OP_GIVEN_SHAPE) {
    const ir_tensor *o = shape_view(out, stride, 0);
    rs->rank = o->rank;
    memcpy(rs->dims, o->dims, sizeof rs->dims);
  }
  return interp_op_shape(op, attrs, sh, rs, err);
}

/* After a run into freshly allocated data and poison mask pbuf: on failure
 * both are freed (returns 1: the caller clears its pointers); a run that
 * dropped the mask (no poison) leaves pbuf to free here. */
static int run_failed(int rc, void *data, const void *poison, void *pbuf) {
  if (rc) {
    ir_free(data);
    ir_free(pbuf);
    return 1;
  }
  if (!poison) ir_free(pbuf);
  return 0;
}

int interp_op_eval(const interp_op *op, const interp_attr *attrs,
                   const ir_tensor *args, ir_tensor *out, interp_err *err) {
  interp_shape rs;
  if (eval_shape(op, attrs, args, sizeof *args, out, &rs, err)) return -1;
  size_t n = (size_t)shape_numel(&rs);
  out->data = ir_malloc(n * sizeof(double));
  unsigned char *pbuf = out->poison = ir_malloc(n);
  int rc = op->run(op, attrs, args, out, err);
  if (run_failed(rc, out->data, out->poison, pbuf)) out->data = NULL, out->poison = NULL;
  return rc ? -1 : 0;
}

void interp_tensor_free(ir_tensor *t) {
  ir_free(t->data);
  ir_free(t->poison);
  t->data = NULL;
  t->poison = NULL;
}

int interp_op_eval_sym(const interp_op *op, const interp_attr *attrs,
                       const interp_sym_tensor *args, interp_sym_tensor *out,
                       const interp_sym_algebra *alg, interp_err *err) {
  interp_shape rs;
  if (eval_shape(op, attrs, args, sizeof *args, out, &rs, err)) return -1;
  size_t n = (size_t)shape_numel(&rs);
  out->data = ir_malloc(n * sizeof(interp_term));
  interp_term *pbuf = out->poison = ir_malloc(n * sizeof(interp_term));
  int rc = op->run_sym(op, attrs, args, out, alg, err);
  if (run_failed(rc, out->data, out->poison, pbuf)) out->data = NULL, out->poison = NULL;
  return rc ? -1 : 0;
}

void interp_sym_tensor_free(interp_sym_tensor *t) {
  ir_free(t->data);
  ir_free(t->poison);
  t->data = NULL;
  t->poison = NULL;
}
