/*
 * test_ops.c - the semantic kernels of interp/ops.h: hand-computed cases for
 * every kernel, poison propagation, precondition errors, the static type
 * check, and the symbolic instance: instantiated with an algebra whose terms
 * are expression trees (built in an arena here), evaluating the trees on the
 * concrete inputs must give exactly the concrete kernel's values and poison,
 * for every kernel on random inputs.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "interp/interp.h"
#include "interp/ops.h"
#include "ir/ir.h"
#include "tests/harness.h"

/* ------------------------------------------------------------- helpers */

static ir_tensor ten(int rank, const long *dims, double *data) {
  ir_tensor t;
  memset(&t, 0, sizeof t);
  t.elem = IR_F64;
  t.rank = rank;
  for (int i = 0; i < rank; i++) t.dims[i] = dims[i];
  t.data = data;
  return t;
}
#define D(...) ((long[]){__VA_ARGS__})
#define V(...) ((double[]){__VA_ARGS__})
#define I(...) ((int[]){__VA_ARGS__})
#define PZ(...) ((unsigned char[]){__VA_ARGS__})

static interp_attr ints(int n, const int *v) { return interp_attr_ints(n, v); }
static interp_attr none_list(void) { return interp_attr_ints(0, NULL); }

/* Evaluate `name` and compare with the expected shape and values (and, if
 * epoison is given, the poison mask; NULL expects no poison at all). */
static int eval_ok(const char *what, const char *name, const interp_attr *attrs,
                   const ir_tensor *args, ir_tensor *out, int rank,
                   const long *dims, const double *expect,
                   const unsigned char *epoison) {
  const interp_op *op = interp_op_find(name);
  interp_err err = {0};
  if (!op) {
    CHECKF(0, "%s: kernel %s not found", what, name);
    return 0;
  }
  if (interp_op_eval(op, attrs, args, out, &err)) {
    CHECKF(0, "%s: %s failed: %s", what, name, err.msg);
    return 0;
  }
  int ok = out->rank == rank;
  for (int i = 0; ok && i < rank; i++) ok = out->dims[i] == dims[i];
  size_t n = ir_tensor_size(out);
  for (size_t i = 0; ok && i < n; i++)
    ok = out->data[i] == expect[i] ||
         (fabs(out->data[i] - expect[i]) < 1e-12 * fabs(expect[i]));
  if (ok) {
    if (!epoison)
      ok = out->poison == NULL;
    else
      for (size_t i = 0; ok && i < n; i++)
        ok = (out->poison ? out->poison[i] : 0) == epoison[i];
  }
  CHECKF(ok, "%s: %s gave the wrong result", what, name);
  interp_tensor_free(out);
  return ok;
}

#define EVAL(what, name, attrs, args, rank, dims, expect)                  \
  do {                                                                     \
    ir_tensor o_;                                                          \
    memset(&o_, 0, sizeof o_);                                             \
    eval_ok(what, name, attrs, args, &o_, rank, dims, expect, NULL);       \
  } while (0)

/* Given-shape ops: the wanted result shape in out. */
#define EVAL_GIVEN(what, name, attrs, args, rank, dims, expect)            \
  do {                                                                     \
    ir_tensor o_ = ten(rank, dims, NULL);                                  \
    eval_ok(what, name, attrs, args, &o_, rank, dims, expect, NULL);       \
  } while (0)

#define EVAL_P(what, name, attrs, args, rank, dims, expect, poison)        \
  do {                                                                     \
    ir_tensor o_;                                                          \
    memset(&o_, 0, sizeof o_);                                             \
    eval_ok(what, name, attrs, args, &o_, rank, dims, expect, poison);     \
  } while (0)

/* Expect a precondition failure whose message contains `want`. */
static void expect_error(const char *what, const char *name,
                         const interp_attr *attrs, const ir_tensor *args,
                         ir_tensor *out, const char *want) {
  const interp_op *op = interp_op_find(name);
  interp_err err = {0};
  long live = ir_mem_live();
  int rc = interp_op_eval(op, attrs, args, out, &err);
  CHECKF(rc != 0, "%s: %s should fail", what, name);
  CHECKF(strstr(err.msg, want) != NULL, "%s: message '%s' lacks '%s'", what,
         err.msg, want);
  CHECKF(ir_mem_live() == live, "%s: nothing allocated on error", what);
  if (rc == 0) interp_tensor_free(out);
}

/* ---------------------------------------------------- hand-computed cases */

static void test_unary(void) {
  ir_tensor x = ten(1, D(4), V(1, -2, 4, 9));
  EVAL("neg", "neg", NULL, &x, 1, D(4), V(-1, 2, -4, -9));
  EVAL("abs", "abs", NULL, &x, 1, D(4), V(1, 2, 4, 9));
  ir_tensor y = ten(2, D(1, 3), V(4, 9, 0.25));
  EVAL("sqrt", "sqrt", NULL, &y, 2, D(1, 3), V(2, 3, 0.5));
  EVAL("rsqrt", "rsqrt", NULL, &y, 2, D(1, 3), V(0.5, 1.0 / 3, 2));
  EVAL("reciprocal", "reciprocal", NULL, &y, 2, D(1, 3), V(0.25, 1.0 / 9, 4));
  ir_tensor z = ten(0, NULL, V(0));
  EVAL("exp of 0", "exp", NULL, &z, 0, NULL, V(1));
  ir_tensor w = ten(1, D(2), V(1, 2));
  EVAL("exp", "exp", NULL, &w, 1, D(2), V(exp(1), exp(2)));
}

static void test_binary(void) {
  double a23[] = {1, 2, 3, 4, 5, 6};
  ir_tensor args[2] = {ten(2, D(2, 3), a23), ten(1, D(3), V(10, 20, 30))};
  EVAL("add row broadcast", "add", NULL, args, 2, D(2, 3),
       V(11, 22, 33, 14, 25, 36));
  EVAL("sub row broadcast", "sub", NULL, args, 2, D(2, 3),
       V(-9, -18, -27, -6, -15, -24));
  EVAL("mul row broadcast", "mul", NULL, args, 2, D(2, 3),
       V(10, 40, 90, 40, 100, 180));
  EVAL("div row broadcast", "div", NULL, args, 2, D(2, 3),
       V(0.1, 0.1, 0.1, 0.4, 0.25, 0.2));
  ir_tensor col[2] = {ten(2, D(2, 1), V(1, 2)), ten(2, D(1, 3), V(10, 20, 30))};
  EVAL("add [2,1]+[1,3]", "add", NULL, col, 2, D(2, 3),
       V(11, 21, 31, 12, 22, 32));
  ir_tensor sc[2] = {ten(0, NULL, V(2)), ten(2, D(2, 2), V(1, 2, 3, 4))};
  EVAL("scalar * matrix", "mul", NULL, sc, 2, D(2, 2), V(2, 4, 6, 8));
  ir_tensor m[2] = {ten(1, D(4), V(1, 5, -3, 2)), ten(1, D(4), V(2, 4, -3, 7))};
  EVAL("max", "max", NULL, m, 1, D(4), V(2, 5, -3, 7));
  EVAL("min", "min", NULL, m, 1, D(4), V(1, 4, -3, 2));
  ir_tensor nan[2] = {ten(1, D(2), V(NAN, 1)), ten(1, D(2), V(1, 2))};
  ir_tensor o;
  memset(&o, 0, sizeof o);
  interp_err err;
  int rc = interp_op_eval(interp_op_find("max"), NULL, nan, &o, &err);
  CHECK("max propagates NaN", rc == 0 && isnan(o.data[0]) && o.data[1] == 2);
  interp_tensor_free(&o);
  ir_tensor r3[2] = {ten(3, D(2, 1, 2), V(1, 2, 3, 4)),
                     ten(2, D(3, 1), V(10, 20, 30))};
  EVAL("add rank 3 with rank 2", "add", NULL, r3, 3, D(2, 3, 2),
       V(11, 12, 21, 22, 31, 32, 13, 14, 23, 24, 33, 34));
}

static void test_compare_select(void) {
  ir_tensor ab[2] = {ten(1, D(3), V(1, 2, 3)), ten(1, D(3), V(2, 2, 2))};
  static const double want[INTERP_CMP_COUNT][3] = {
      {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {0, 0, 1}, {0, 1, 1}};
  for (int d = 0; d < INTERP_CMP_COUNT; d++) {
    interp_attr at = interp_attr_dir((interp_cmp)d);
    char what[32];
    snprintf(what, sizeof what, "compare %s", interp_cmp_name((interp_cmp)d));
    EVAL(what, "compare", &at, ab, 1, D(3), want[d]);
  }
  ir_tensor abs_[2] = {ten(1, D(3), V(1, 2, 3)), ten(0, NULL, V(2))};
  interp_attr ge = interp_attr_dir(INTERP_CMP_GE);
  EVAL("compare GE with scalar", "compare", &ge, abs_, 1, D(3), V(0, 1, 1));
  ir_tensor o;
  memset(&o, 0, sizeof o);
  interp_op_eval(interp_op_find("compare"), &ge, abs_, &o, NULL);
  CHECK("compare result is i1", o.elem == IR_I1);
  interp_tensor_free(&o);

  ir_tensor s[3] = {ten(1, D(3), V(1, 0, 1)), ten(1, D(3), V(1, 2, 3)),
                    ten(1, D(3), V(10, 20, 30))};
  s[0].elem = IR_I1;
  EVAL("select", "select", NULL, s, 1, D(3), V(1, 20, 3));
  ir_tensor s2[3] = {ten(2, D(2, 2), V(1, 0, 0, 1)),
                     ten(2, D(2, 2), V(1, 2, 3, 4)), ten(0, NULL, V(0))};
  EVAL("select with scalar b (diagonal mask)", "select", NULL, s2, 2,
       D(2, 2), V(1, 0, 0, 4));
}

static void test_dot(void) {
  interp_attr nb[4] = {none_list(), none_list(), ints(1, I(1)), ints(1, I(0))};
  ir_tensor mm[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)),
                     ten(2, D(3, 2), V(7, 8, 9, 10, 11, 12))};
  EVAL("matmul", "dot_general", nb, mm, 2, D(2, 2), V(58, 64, 139, 154));
  ir_tensor mv[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)),
                     ten(1, D(3), V(1, 0, -1))};
  EVAL("matvec", "dot_general", nb, mv, 1, D(2), V(-2, -2));
  interp_attr t0[4] = {none_list(), none_list(), ints(1, I(0)), ints(1, I(0))};
  ir_tensor vm[2] = {ten(1, D(2), V(1, -1)),
                     ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6))};
  EVAL("vecmat (transposed matvec)", "dot_general", t0, vm, 1, D(3),
       V(-3, -3, -3));
  ir_tensor dd[2] = {ten(1, D(3), V(1, 2, 3)), ten(1, D(3), V(4, 5, 6))};
  EVAL("dot", "dot_general", t0, dd, 0, NULL, V(32));
  interp_attr outer[4] = {none_list(), none_list(), none_list(), none_list()};
  EVAL("outer product", "dot_general", outer, dd, 2, D(3, 3),
       V(4, 5, 6, 8, 10, 12, 12, 15, 18));
  /* A·Aᵀ: contract dim 1 with dim 1 */
  interp_attr aat[4] = {none_list(), none_list(), ints(1, I(1)), ints(1, I(1))};
  ir_tensor a2[2] = {ten(2, D(2, 2), V(1, 2, 3, 4)),
                     ten(2, D(2, 2), V(1, 2, 3, 4))};
  EVAL("A times A transposed", "dot_general", aat, a2, 2, D(2, 2),
       V(5, 11, 11, 25));
  interp_attr bm[4] = {ints(1, I(0)), ints(1, I(0)), ints(1, I(2)),
                       ints(1, I(1))};
  ir_tensor b[2] = {ten(3, D(2, 2, 2), V(1, 2, 3, 4, 1, 0, 0, 1)),
                    ten(3, D(2, 2, 2), V(5, 6, 7, 8, 2, 3, 4, 5))};
  EVAL("batch matmul", "dot_general", bm, b, 3, D(2, 2, 2),
       V(19, 22, 43, 50, 2, 3, 4, 5));
  /* doitgen: A[r][q][s] contracted with C4[s][p] */
  interp_attr dg[4] = {none_list(), none_list(), ints(1, I(2)), ints(1, I(0))};
  ir_tensor g[2] = {ten(3, D(1, 2, 2), V(1, 2, 3, 4)),
                    ten(2, D(2, 2), V(1, 1, 0, 1))};
  EVAL("rank 3 times rank 2", "dot_general", dg, g, 3, D(1, 2, 2),
       V(1, 3, 3, 7));
  /* two contracting dims: Frobenius product */
  interp_attr fr[4] = {none_list(), none_list(), ints(2, I(0, 1)),
                       ints(2, I(0, 1))};
  EVAL("two contracting dims", "dot_general", fr, a2, 0, NULL, V(30));
}

static void test_transpose(void) {
  double x[24];
  for (int i = 0; i < 24; i++) x[i] = i;
  ir_tensor t = ten(3, D(2, 3, 4), x);
  interp_attr p = ints(3, I(2, 0, 1));
  ir_tensor o;
  memset(&o, 0, sizeof o);
  int rc = interp_op_eval(interp_op_find("transpose"), &p, &t, &o, NULL);
  int ok = rc == 0 && o.rank == 3 && o.dims[0] == 4 && o.dims[1] == 2 &&
           o.dims[2] == 3;
  for (int i = 0; ok && i < 4; i++)
    for (int j = 0; ok && j < 2; j++)
      for (int k = 0; ok && k < 3; k++)
        ok = o.data[(i * 2 + j) * 3 + k] == x[(j * 3 + k) * 4 + i];
  CHECK("transpose rank 3: out[i][j][k] = x[j][k][i]", ok);
  interp_tensor_free(&o);
  ir_tensor m = ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6));
  interp_attr p2 = ints(2, I(1, 0));
  EVAL("transpose 2x3", "transpose", &p2, &m, 2, D(3, 2), V(1, 4, 2, 5, 3, 6));
}

/* ---- reverse: one dim's order reversed, the others kept, poison moved */
static void test_reverse(void) {
  ir_tensor v = ten(1, D(4), V(1, 2, 3, 4));
  interp_attr d0 = interp_attr_int(0), d1 = interp_attr_int(1);
  EVAL("reverse a vector", "reverse", &d0, &v, 1, D(4), V(4, 3, 2, 1));
  ir_tensor m = ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6));
  EVAL("reverse rows of 2x3", "reverse", &d0, &m, 2, D(2, 3), V(4, 5, 6, 1, 2, 3));
  EVAL("reverse columns of 2x3", "reverse", &d1, &m, 2, D(2, 3), V(3, 2, 1, 6, 5, 4));
  ir_tensor e = ten(1, D(0), NULL);
  EVAL("reverse an empty vector", "reverse", &d0, &e, 1, D(0), NULL);
  ir_tensor p = ten(1, D(3), V(1, 2, 3));
  unsigned char pp[] = {1, 0, 0};
  p.poison = pp;
  EVAL_P("reverse moves poison", "reverse", &d0, &p, 1, D(3), V(3, 2, 1), PZ(0, 0, 1));
  ir_tensor o = ten(1, D(3), NULL);
  interp_attr d2 = interp_attr_int(2);
  expect_error("reverse past the rank", "reverse", &d2, &m, &o,
               "reverse: operand [2,3]: dimension 2 out of range for rank 2");
  ir_tensor s0 = ten(0, NULL, V(1));
  expect_error("reverse a scalar", "reverse", &d0, &s0, &o,
               "reverse: operand []: dimension 0 out of range for rank 0");
}
/* ---- end reverse */

/* slice: start and keep per operand dim, any given result shape, 0
 * outside the operand. */
static void test_slice(void) {
  ir_tensor x = ten(1, D(5), V(1, 2, 3, 4, 5));
  interp_attr a[2] = {ints(1, I(1)), ints(1, I(1))};
  EVAL_GIVEN("slice shifted left (x[i+1]), 0 past the end", "slice", a, &x, 1, D(5),
             V(2, 3, 4, 5, 0));
  a[0] = ints(1, I(-1));
  EVAL_GIVEN("slice shifted right (x[i-1]), 0 before the start", "slice", a, &x, 1, D(5),
             V(0, 1, 2, 3, 4));
  a[0] = ints(1, I(1));
  EVAL_GIVEN("slice interior x[1..4) as a [3] result", "slice", a, &x, 1, D(3), V(2, 3, 4));
  a[0] = ints(1, I(0)), a[1] = ints(1, I(0));
  EVAL_GIVEN("slice x[0] as a rank-0 result", "slice", a, &x, 0, D(0), V(1));
  a[0] = ints(1, I(7));
  EVAL_GIVEN("slice x[7] of a [5]: 0", "slice", a, &x, 0, D(0), V(0));
  ir_tensor e = ten(1, D(0), NULL);
  a[0] = ints(1, I(0));
  EVAL_GIVEN("slice x[0] of an empty x: 0", "slice", a, &e, 0, D(0), V(0));
  ir_tensor m = ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6));
  interp_attr c[2] = {ints(2, I(0, 2)), ints(2, I(1, 0))};
  EVAL_GIVEN("slice column 2 of [2,3]", "slice", c, &m, 1, D(2), V(3, 6));
  c[0] = ints(2, I(1, -1)), c[1] = ints(2, I(1, 1));
  EVAL_GIVEN("slice [2,3] at (+1, -1)", "slice", c, &m, 2, D(2, 3), V(0, 4, 5, 0, 0, 0));
  c[0] = ints(2, I(0, -1)), c[1] = ints(2, I(1, 2));
  EVAL_GIVEN("slice the last column of [2,3] (keep 2: the extent - 1)", "slice", c, &m, 1,
             D(2), V(3, 6));
  a[0] = ints(1, I(-5)), a[1] = ints(1, I(2));
  EVAL_GIVEN("slice x[5 - 5] of a [5] (keep 2)", "slice", a, &x, 0, D(0), V(1));
  ir_tensor o = ten(1, D(2), NULL);
  c[1] = ints(2, I(1, 1));
  expect_error("slice keeping 2 dims into rank 1", "slice", c, &m, &o, "2 dims kept");
  c[1] = ints(2, I(1, 3));
  expect_error("slice keep 3", "slice", c, &m, &o, "expected 0, 1 or 2");
  interp_attr c1[2] = {ints(1, I(0)), ints(1, I(1))};
  expect_error("slice start of rank 1 for a rank-2 operand", "slice", c1, &m, &o,
               "expected 2 (the operand rank)");
}

/* ---- pad (issue 14) ----
 * pad: x[r - low] inside x, the padding value elsewhere; a negative low
 * or high crops; the padding value's poison where it is used. */
static void test_pad(void) {
  ir_tensor x = ten(1, D(5), V(1, 2, 3, 4, 5)), v = ten(0, D(0), V(9));
  ir_tensor xv[2] = {x, v};
  interp_attr a[2] = {ints(1, I(1)), ints(1, I(2))};
  EVAL("pad [5] by (1, 2) with 9", "pad", a, xv, 1, D(8), V(9, 1, 2, 3, 4, 5, 9, 9));
  a[0] = ints(1, I(1)), a[1] = ints(1, I(-1));
  EVAL("pad (1, -1): x[i-1], 9 at the start", "pad", a, xv, 1, D(5), V(9, 1, 2, 3, 4));
  a[0] = ints(1, I(-1)), a[1] = ints(1, I(1));
  EVAL("pad (-1, 1): x[i+1], 9 at the end", "pad", a, xv, 1, D(5), V(2, 3, 4, 5, 9));
  a[0] = ints(1, I(-2)), a[1] = ints(1, I(-3));
  EVAL("pad (-2, -3): everything cropped", "pad", a, xv, 1, D(0), V(0));
  a[0] = ints(1, I(0)), a[1] = ints(1, I(0));
  EVAL("pad (0, 0): x itself", "pad", a, xv, 1, D(5), V(1, 2, 3, 4, 5));
  ir_tensor e[2] = {ten(1, D(0), NULL), v};
  a[0] = ints(1, I(2)), a[1] = ints(1, I(1));
  EVAL("pad of an empty x: all padding", "pad", a, e, 1, D(3), V(9, 9, 9));
  ir_tensor m[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), v};
  interp_attr c[2] = {ints(2, I(1, -1)), ints(2, I(-1, 1))};
  EVAL("pad [2,3] by (1,-1) low, (-1,1) high: m[i-1][j+1]", "pad", c, m, 2, D(2, 3),
       V(9, 9, 9, 2, 3, 9));
  c[0] = ints(2, I(0, 1)), c[1] = ints(2, I(1, 0));
  EVAL("pad [2,3] to [3,4]", "pad", c, m, 2, D(3, 4), V(9, 1, 2, 3, 9, 4, 5, 6, 9, 9, 9, 9));
  /* poison: x's where x is read, the padding value's elsewhere */
  ir_tensor px[2] = {x, v};
  px[0].poison = PZ(0, 1, 0, 0, 0);
  px[1].poison = PZ(1);
  a[0] = ints(1, I(1)), a[1] = ints(1, I(-1));
  EVAL_P("pad poison: x's moved, v's at the padding", "pad", a, px, 1, D(5),
         V(9, 1, 2, 3, 4), PZ(1, 0, 1, 0, 0));
  ir_tensor o = ten(1, D(2), NULL);
  a[0] = ints(1, I(-6)), a[1] = ints(1, I(0));
  expect_error("pad cropping past the extent", "pad", a, xv, &o, "negative extent");
  a[0] = ints(1, I(1)), a[1] = ints(1, I(-1));
  EVAL("pad (1, -1) of an empty x: empty (a shift at size 0)", "pad", a, e, 1, D(0), V(0));
  ir_tensor one[2] = {ten(1, D(1), V(4)), v};
  a[0] = ints(1, I(-2)), a[1] = ints(1, I(2));
  EVAL("pad (-2, 2) of a [1]: reads past the end, the padding value", "pad", a, one, 1, D(1),
       V(9));
  interp_attr a1[2] = {ints(1, I(0)), ints(1, I(0))};
  expect_error("pad low of rank 1 for a rank-2 operand", "pad", a1, m, &o,
               "expected 2 (the operand rank)");
  ir_tensor vv[2] = {x, x};
  expect_error("pad value of rank 1", "pad", a1, vv, &o, "must be rank 0");
}
/* ---- end pad ---- */

/* ---- conv (issue 14) ----
 * conv: a `same` cross-correlation, the window centred at (K-1)/2, zeros
 * outside the operand (their products with the window are terms too). */
static void test_conv(void) {
  ir_tensor xw[2] = {ten(1, D(5), V(1, 2, 3, 4, 5)), ten(1, D(3), V(1, 10, 100))};
  /* y[i] = x[i-1] + 10 x[i] + 100 x[i+1] */
  EVAL("conv [5] with [3]: x[i-1] + 10x[i] + 100x[i+1], 0 past either end", "conv", NULL, xw,
       1, D(5), V(210, 321, 432, 543, 54));
  xw[1] = ten(1, D(2), V(1, 10)); /* even window: lo = 0, y[i] = x[i] + 10 x[i+1] */
  EVAL("conv with an even window [2]: x[i] + 10x[i+1]", "conv", NULL, xw, 1, D(5),
       V(21, 32, 43, 54, 5));
  xw[1] = ten(1, D(0), NULL);
  EVAL("conv with an empty window: 0", "conv", NULL, xw, 1, D(5), V(0, 0, 0, 0, 0));
  ir_tensor e[2] = {ten(1, D(0), NULL), ten(1, D(3), V(1, 10, 100))};
  EVAL("conv of an empty operand: empty", "conv", NULL, e, 1, D(0), V(0));
  /* 2-D: a [2,3] x, the window [[0,1,0],[0,0,2]]: y[i][j] = x[i-0][j] +
   * 2 x[i+1][j+1] (lo = (0, 1)) */
  ir_tensor m[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), ten(2, D(2, 3), V(0, 1, 0, 0, 0, 2))};
  EVAL("conv 2-D [2,3] with [2,3]", "conv", NULL, m, 2, D(2, 3), V(11, 14, 3, 4, 5, 6));
  /* a NaN window times a padding zero is NaN, as on the padded operand */
  ir_tensor nw[2] = {ten(1, D(2), V(1, 2)), ten(1, D(3), V(NAN, 0, 0))};
  ir_tensor o;
  memset(&o, 0, sizeof o);
  const interp_op *cv = interp_op_find("conv");
  int ok = cv && interp_op_eval(cv, NULL, nw, &o, NULL) == 0 && isnan(o.data[0]) &&
           isnan(o.data[1]);
  CHECK("conv: a padding zero times a NaN window element is NaN", ok);
  if (o.data) interp_tensor_free(&o);
  ir_tensor bad[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), ten(1, D(3), V(1, 2, 3))};
  ir_tensor out = ten(2, D(2, 3), NULL);
  expect_error("conv with a window of another rank", "conv", NULL, bad, &out,
               "the window must have the operand's rank");
}
/* ---- end conv ---- */

/* The conditional-update bodies against C's loop `if (x OP acc) acc = x`
 * on the values where no max or min op agrees with it: a NaN element
 * (skipped), a NaN start (kept), zeros of both signs (`>` keeps the
 * earlier, `>=` the later), compared bit for bit but for NaN payloads. */
static void test_reduce_update(void) {
  static const double vecs[][3] = {{NAN, 1, 2}, {1, NAN, 2}, {-0.0, 0.0, -1},
                                   {0.0, -0.0, -1}, {-INFINITY, -INFINITY, -INFINITY}};
  static const double starts[] = {-INFINITY, INFINITY, NAN, 0.0, -0.0};
  static const interp_body bodies[] = {INTERP_BODY_UPD_GT, INTERP_BODY_UPD_GE,
                                       INTERP_BODY_UPD_LT, INTERP_BODY_UPD_LE};
  const interp_op *op = interp_op_find("reduce");
  int bad = 0, n = 0;
  for (int b = 0; b < 4; b++)
    for (int v = 0; v < 5; v++)
      for (int st = 0; st < 5; st++) {
        ir_tensor a[2] = {ten(1, D(3), (double *)vecs[v]), ten(0, NULL, V(starts[st]))};
        interp_attr at[3] = {ints(1, I(0)), interp_attr_body(bodies[b]), interp_attr_int(0)};
        ir_tensor out;
        memset(&out, 0, sizeof out);
        interp_err err = {0};
        double want = starts[st];
        for (int i = 0; i < 3; i++) {
          double x = vecs[v][i];
          int take = bodies[b] == INTERP_BODY_UPD_GT   ? x > want
                     : bodies[b] == INTERP_BODY_UPD_GE ? x >= want
                     : bodies[b] == INTERP_BODY_UPD_LT ? x < want
                                                       : x <= want;
          if (take) want = x;
        }
        int ok = !interp_op_eval(op, at, a, &out, &err);
        double got = ok ? out.data[0] : 0;
        ok = ok && (isnan(want) ? isnan(got)
                                : !isnan(got) && got == want && signbit(got) == signbit(want));
        if (!ok && bad++ < 3)
          CHECKF(0, "reduce %s over vector %d from %g: C %g, kernel %g %s",
                 interp_body_name(bodies[b]), v, starts[st], want, got, err.msg);
        interp_tensor_free(&out);
        n++;
      }
  CHECKF(bad == 0, "reduce's conditional updates are C's loop on %d NaN/-0/-inf cases", n);
  /* C's fmax and fmin, elementwise: the other operand of a NaN, the first
   * of equal ones */
  static const double fa[] = {NAN, 1, NAN, -0.0, 0.0, 2}, fb[] = {1, NAN, NAN, 0.0, -0.0, 3};
  for (int m = 0; m < 2; m++) {
    ir_tensor a[2] = {ten(1, D(6), (double *)fa), ten(1, D(6), (double *)fb)};
    ir_tensor out;
    memset(&out, 0, sizeof out);
    interp_err err = {0};
    int ok = !interp_op_eval(interp_op_find(m ? "fmax" : "fmin"), NULL, a, &out, &err);
    for (int i = 0; ok && i < 6; i++) {
      double want = interp_c_fmaxmin(fa[i], fb[i], m), got = out.data[i];
      ok = isnan(want) ? isnan(got) : got == want && signbit(got) == signbit(want);
    }
    CHECKF(ok, "%s is C's on NaN and signed zeros %s", m ? "fmax" : "fmin", err.msg);
    interp_tensor_free(&out);
  }
  /* maxnum and minnum (TOSA's maximum and minimum as MLIR 16 lowers them):
   * poison exactly at a NaN operand or zeros of opposite signs, IEEE's
   * maximum and minimum elsewhere; f32 and f64, and never poison on i32 */
  static const double ta[] = {NAN, 1, NAN, -0.0, 0.0, 2, -0.0, 0.0, -1};
  static const double tb[] = {1, NAN, NAN, 0.0, -0.0, 3, -0.0, 0.0, 0.0};
  static const int tpoison[] = {1, 1, 1, 1, 1, 0, 0, 0, 0};
  enum { NT = sizeof ta / sizeof ta[0] };
  for (int m = 0; m < 2; m++) {
    ir_tensor a[2] = {ten(1, D(NT), (double *)ta), ten(1, D(NT), (double *)tb)};
    ir_tensor out;
    memset(&out, 0, sizeof out);
    interp_err err = {0};
    int ok = !interp_op_eval(interp_op_find(m ? "maxnum" : "minnum"), NULL, a, &out, &err);
    for (int i = 0; ok && i < NT; i++) {
      int p = out.poison && out.poison[i];
      double want = m ? (ta[i] > tb[i] ? ta[i] : tb[i]) : (ta[i] < tb[i] ? ta[i] : tb[i]);
      ok = p == tpoison[i] && (p || (out.data[i] == want && signbit(out.data[i]) == signbit(want)));
    }
    CHECKF(ok, "%s: poison at a NaN and at zeros of opposite signs, else the maximum %s",
           m ? "maxnum" : "minnum", err.msg);
    interp_tensor_free(&out);
    ir_tensor ia[2] = {ten(1, D(3), V(-0.0, 4, -7)), ten(1, D(3), V(0, 4, 2))};
    ia[0].elem = ia[1].elem = IR_I32;
    memset(&out, 0, sizeof out);
    ok = !interp_op_eval(interp_op_find(m ? "maxnum" : "minnum"), NULL, ia, &out, &err);
    CHECKF(ok && !out.poison && out.data[2] == (m ? 2 : -7), "%s on i32: no poison %s",
           m ? "maxnum" : "minnum", err.msg);
    interp_tensor_free(&out);
  }
  /* reduce_num: poison when a NaN is reduced or the maximum is a zero
   * that comes with both signs; a larger element (5 after a tie of
   * zeros: maxnum then gives 5 whichever zero it kept) or one sign:
   * defined */
  static const double rv[][3] = {{1, NAN, 2}, {-0.0, 0.0, -1}, {0.0, -0.0, 5},
                                 {-0.0, -0.0, -3}, {-2, 0.0, 0.0}};
  static const int rpoison[] = {1, 1, 0, 0, 0};
  for (int v = 0; v < 5; v++) {
    ir_tensor a[2] = {ten(1, D(3), (double *)rv[v]), ten(0, NULL, V(-3.4028234663852886e38))};
    interp_attr at[3] = {ints(1, I(0)), interp_attr_body(INTERP_BODY_MAX), interp_attr_int(0)};
    ir_tensor out;
    memset(&out, 0, sizeof out);
    interp_err err = {0};
    int ok = !interp_op_eval(interp_op_find("reduce_num"), at, a, &out, &err);
    int p = ok && out.poison && out.poison[0];
    CHECKF(ok && p == rpoison[v], "reduce_num max of {%g, %g, %g}: %s %s", rv[v][0], rv[v][1],
           rv[v][2], rpoison[v] ? "poison" : "defined", err.msg);
    interp_tensor_free(&out);
  }
  CHECK("update body names", interp_body_parse("upd_ge") == INTERP_BODY_UPD_GE &&
                                 interp_body_update_dir(INTERP_BODY_UPD_LT) == INTERP_CMP_LT &&
                                 interp_body_update_dir(INTERP_BODY_MAX) < 0);
}

static void test_reduce(void) {
  ir_tensor a[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), ten(0, NULL, V(0))};
  interp_attr at[3] = {ints(1, I(1)), interp_attr_body(INTERP_BODY_ADD),
                       interp_attr_int(0)};
  EVAL("reduce add rows", "reduce", at, a, 1, D(2), V(6, 15));
  at[0] = ints(1, I(0));
  EVAL("reduce add cols", "reduce", at, a, 1, D(3), V(5, 7, 9));
  at[2] = interp_attr_int(1);
  EVAL("reduce add keepdims", "reduce", at, a, 2, D(1, 3), V(5, 7, 9));
  at[0] = ints(2, I(0, 1));
  at[2] = interp_attr_int(0);
  EVAL("reduce add all", "reduce", at, a, 0, NULL, V(21));
  at[2] = interp_attr_int(1);
  EVAL("reduce add all keepdims", "reduce", at, a, 2, D(1, 1), V(21));
  at[0] = ints(1, I(1));
  at[2] = interp_attr_int(0);
  ir_tensor b[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), ten(0, NULL, V(1))};
  at[1] = interp_attr_body(INTERP_BODY_MUL);
  EVAL("reduce mul", "reduce", at, b, 1, D(2), V(6, 120));
  ir_tensor c[2] = {ten(2, D(2, 3), V(1, 7, 3, -4, -5, -6)),
                    ten(0, NULL, V(-INFINITY))};
  at[1] = interp_attr_body(INTERP_BODY_MAX);
  EVAL("reduce max", "reduce", at, c, 1, D(2), V(7, -4));
  c[1] = ten(0, NULL, V(INFINITY));
  at[1] = interp_attr_body(INTERP_BODY_MIN);
  EVAL("reduce min", "reduce", at, c, 1, D(2), V(1, -6));
  ir_tensor d[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)), ten(0, NULL, V(10))};
  at[1] = interp_attr_body(INTERP_BODY_ADD);
  EVAL("reduce add with init 10", "reduce", at, d, 1, D(2), V(16, 25));
  at[0] = none_list();
  EVAL("reduce over no dims adds init", "reduce", at, d, 2, D(2, 3),
       V(11, 12, 13, 14, 15, 16));
  /* rank 3, middle dim */
  double x[12];
  for (int i = 0; i < 12; i++) x[i] = i;
  ir_tensor e[2] = {ten(3, D(2, 3, 2), x), ten(0, NULL, V(0))};
  at[0] = ints(1, I(1));
  EVAL("reduce rank 3 middle dim", "reduce", at, e, 2, D(2, 2),
       V(6, 9, 24, 27));
}

static void test_creators(void) {
  ir_tensor v = ten(1, D(3), V(1, 2, 3));
  interp_attr d1 = ints(1, I(1));
  EVAL_GIVEN("broadcast_in_dim row", "broadcast_in_dim", &d1, &v, 2, D(2, 3),
             V(1, 2, 3, 1, 2, 3));
  interp_attr d0 = ints(1, I(0));
  EVAL_GIVEN("broadcast_in_dim column", "broadcast_in_dim", &d0, &v, 2,
             D(3, 2), V(1, 1, 2, 2, 3, 3));
  ir_tensor one = ten(2, D(1, 3), V(1, 2, 3));
  interp_attr d01 = ints(2, I(0, 1));
  EVAL_GIVEN("broadcast_in_dim size-1 operand dim", "broadcast_in_dim", &d01,
             &one, 2, D(2, 3), V(1, 2, 3, 1, 2, 3));
  ir_tensor s = ten(0, NULL, V(7));
  interp_attr dn = none_list();
  EVAL_GIVEN("broadcast_in_dim scalar", "broadcast_in_dim", &dn, &s, 2,
             D(2, 2), V(7, 7, 7, 7));
  ir_tensor m = ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6));
  interp_attr d02 = ints(2, I(0, 2));
  EVAL_GIVEN("broadcast_in_dim into rank 3", "broadcast_in_dim", &d02, &m, 3,
             D(2, 2, 3), V(1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6));
  interp_attr d10 = ints(2, I(1, 0));
  EVAL_GIVEN("broadcast_in_dim permuting", "broadcast_in_dim", &d10, &m, 2,
             D(3, 2), V(1, 4, 2, 5, 3, 6));

  interp_attr i1 = interp_attr_int(1), i0 = interp_attr_int(0);
  EVAL_GIVEN("iota dim 1", "iota", &i1, NULL, 2, D(2, 3), V(0, 1, 2, 0, 1, 2));
  EVAL_GIVEN("iota dim 0", "iota", &i0, NULL, 2, D(2, 3), V(0, 0, 0, 1, 1, 1));
  interp_attr val = interp_attr_double(1.5);
  EVAL_GIVEN("constant", "constant", &val, NULL, 2, D(2, 2),
             V(1.5, 1.5, 1.5, 1.5));
  EVAL_GIVEN("fill", "fill", &val, NULL, 1, D(3), V(1.5, 1.5, 1.5));
  EVAL_GIVEN("constant scalar", "constant", &val, NULL, 0, NULL, V(1.5));
  EVAL_GIVEN("fill_scalar", "fill_scalar", NULL, &s, 2, D(1, 2), V(7, 7));
  EVAL_GIVEN("reshape 2x3 to 3x2", "reshape", NULL, &m, 2, D(3, 2),
             V(1, 2, 3, 4, 5, 6));
  EVAL_GIVEN("reshape to rank 1", "reshape", NULL, &m, 1, D(6),
             V(1, 2, 3, 4, 5, 6));
  EVAL_GIVEN("reshape to rank 3", "reshape", NULL, &m, 3, D(1, 6, 1),
             V(1, 2, 3, 4, 5, 6));
  ir_tensor e = ten(2, D(1, 2), NULL);
  eval_ok("empty is all poison", "empty", NULL, NULL, &e, 2, D(1, 2), V(0, 0),
          PZ(1, 1));
  ir_tensor o = ten(2, D(2, 2), NULL);
  o.elem = IR_I32;
  interp_op_eval(interp_op_find("iota"), &i0, NULL, &o, NULL);
  CHECK("iota keeps the given element type", o.elem == IR_I32);
  interp_tensor_free(&o);
}

static void test_f32(void) {
  ir_tensor a[2] = {ten(1, D(1), V(1)), ten(1, D(1), V(3))};
  a[0].elem = a[1].elem = IR_F32;
  ir_tensor o;
  memset(&o, 0, sizeof o);
  interp_op_eval(interp_op_find("div"), NULL, a, &o, NULL);
  CHECK("f32 division rounds to float",
        o.elem == IR_F32 && o.data[0] == (double)(1.0f / 3.0f));
  interp_tensor_free(&o);
}

/* ------------------------------------------------------------------ poison */

static void test_poison(void) {
  unsigned char pa[] = {0, 1, 0};
  ir_tensor a[2] = {ten(1, D(3), V(1, 2, 3)), ten(1, D(3), V(1, 1, 1))};
  a[0].poison = pa;
  EVAL_P("add: poison elementwise", "add", NULL, a, 1, D(3), V(2, 3, 4), pa);
  EVAL_P("neg: poison elementwise", "neg", NULL, a, 1, D(3), V(-1, -2, -3), pa);
  unsigned char ps[] = {1};
  ir_tensor b[2] = {ten(1, D(3), V(1, 2, 3)), ten(0, NULL, V(1))};
  b[1].poison = ps;
  EVAL_P("mul: a poisoned scalar poisons all", "mul", NULL, b, 1, D(3),
         V(1, 2, 3), PZ(1, 1, 1));
  unsigned char pz[] = {0};
  b[1].poison = pz;
  EVAL("a poison mask of zeros gives no poison", "mul", NULL, b, 1, D(3),
       V(1, 2, 3));

  /* contraction: A[0][1] poison poisons row 0 of A·B only */
  unsigned char pA[] = {0, 1, 0, 0, 0, 0};
  ir_tensor mm[2] = {ten(2, D(2, 3), V(1, 2, 3, 4, 5, 6)),
                     ten(2, D(3, 2), V(7, 8, 9, 10, 11, 12))};
  mm[0].poison = pA;
  interp_attr nb[4] = {none_list(), none_list(), ints(1, I(1)), ints(1, I(0))};
  EVAL_P("dot_general: poison through the contraction", "dot_general", nb, mm,
         2, D(2, 2), V(58, 64, 139, 154), PZ(1, 1, 0, 0));
  interp_attr rd[3] = {ints(1, I(0)), interp_attr_body(INTERP_BODY_ADD),
                       interp_attr_int(0)};
  ir_tensor r[2] = {mm[0], ten(0, NULL, V(0))};
  EVAL_P("reduce: poison of a summed element", "reduce", rd, r, 1, D(3),
         V(5, 7, 9), PZ(0, 1, 0));
  r[0].poison = NULL;
  r[1].poison = ps;
  EVAL_P("reduce: poisoned init", "reduce", rd, r, 1, D(3), V(5, 7, 9),
         PZ(1, 1, 1));

  /* select with a defined condition takes only the picked side's poison */
  unsigned char pall[] = {1, 1};
  ir_tensor s[3] = {ten(1, D(2), V(0, 0)), ten(1, D(2), V(5, 6)),
                    ten(1, D(2), V(1, 2))};
  s[1].poison = pall;
  EVAL("select: unpicked poison side is ignored", "select", NULL, s, 1, D(2),
       V(1, 2));
  s[0] = ten(1, D(2), V(1, 0));
  EVAL_P("select: picked poison side", "select", NULL, s, 1, D(2), V(5, 2),
         PZ(1, 0));
  s[1].poison = NULL;
  unsigned char pc[] = {0, 1};
  s[0].poison = pc;
  EVAL_P("select: poisoned condition", "select", NULL, s, 1, D(2), V(5, 2),
         PZ(0, 1));

  ir_tensor t = ten(2, D(2, 2), V(1, 2, 3, 4));
  unsigned char pt[] = {0, 1, 0, 0};
  t.poison = pt;
  interp_attr perm = ints(2, I(1, 0));
  EVAL_P("transpose moves poison", "transpose", &perm, &t, 2, D(2, 2),
         V(1, 3, 2, 4), PZ(0, 0, 1, 0));
  ir_tensor f = ten(0, NULL, V(3));
  f.poison = ps;
  ir_tensor o = ten(1, D(2), NULL);
  eval_ok("fill_scalar of poison", "fill_scalar", NULL, &f, &o, 1, D(2),
          V(3, 3), PZ(1, 1));

  /* the hot-path entry point with caller buffers */
  double buf[3];
  unsigned char pbuf[3];
  ir_tensor out = {IR_F64, 0, {0}, buf, pbuf};
  const interp_op *add = interp_op_find("add");
  int rc = add->run(add, NULL, a, &out, NULL);
  CHECK("run: caller buffers, poison kept",
        rc == 0 && out.poison == pbuf && pbuf[1] == 1 && pbuf[0] == 0 &&
            buf[2] == 4 && out.rank == 1 && out.dims[0] == 3);
  a[0].poison = NULL;
  out.poison = pbuf;
  rc = add->run(add, NULL, a, &out, NULL);
  CHECK("run: no poison gives poison == NULL", rc == 0 && out.poison == NULL);
}

/* ------------------------------------------------------------------ errors */

static void test_errors(void) {
  ir_tensor o;
  memset(&o, 0, sizeof o);
  interp_attr nb[4] = {none_list(), none_list(), ints(1, I(1)), ints(1, I(0))};
  double z[64] = {0};
  ir_tensor dg[2] = {ten(2, D(3, 5), z), ten(2, D(4, 7), z)};
  expect_error("dot mismatch", "dot_general", nb, dg, &o,
               "dot_general: lhs [3,5] and rhs [4,7]: contracting dims lhs 1 "
               "(size 5) and rhs 0 (size 4) differ");
  interp_attr bad[4] = {ints(1, I(0)), none_list(), ints(1, I(1)),
                        ints(1, I(0))};
  expect_error("dot batch count", "dot_general", bad, dg, &o,
               "1 lhs batch dims but 0 rhs batch dims");
  interp_attr oor[4] = {none_list(), none_list(), ints(1, I(2)), ints(1, I(0))};
  expect_error("dot dim range", "dot_general", oor, dg, &o,
               "lhs_contract dim 2 out of range for rank 2");
  interp_attr bc[4] = {ints(1, I(0)), ints(1, I(0)), ints(1, I(0)),
                       ints(1, I(1))};
  ir_tensor sq[2] = {ten(2, D(3, 3), z), ten(2, D(3, 3), z)};
  expect_error("dot batch and contract", "dot_general", bc, sq, &o,
               "lhs dim 0 is both batch and contracting");
  ir_tensor ab[2] = {ten(2, D(2, 3), z), ten(1, D(4), z)};
  expect_error("add incompatible", "add", NULL, ab, &o,
               "add: a [2,3] and b [4]: dim 0 from the end differs (3 vs 4)");
  ir_tensor sel[3] = {ten(1, D(2), z), ten(1, D(3), z), ten(1, D(3), z)};
  expect_error("select incompatible", "select", NULL, sel, &o,
               "select: pred [2], a [3] and b [3]");
  interp_attr dup = ints(2, I(0, 0));
  ir_tensor m = ten(2, D(2, 3), z);
  expect_error("transpose duplicate", "transpose", &dup, &m, &o,
               "permutation lists dim 0 twice");
  interp_attr shortp = ints(1, I(0));
  expect_error("transpose length", "transpose", &shortp, &m, &o,
               "transpose: operand [2,3]: permutation has 1 entries, "
               "expected 2");
  ir_tensor rs = ten(2, D(2, 4), NULL);
  expect_error("reshape count", "reshape", NULL, &m, &rs,
               "reshape: operand [2,3] to result [2,4]: element counts "
               "differ (6 vs 8)");
  interp_attr d1 = ints(1, I(1));
  ir_tensor v = ten(1, D(3), z);
  ir_tensor bo = ten(2, D(3, 2), NULL);
  expect_error("broadcast_in_dim size", "broadcast_in_dim", &d1, &v, &bo,
               "operand dim 0 (size 3) must equal result dim 1 (size 2) or "
               "be 1");
  interp_attr d5 = ints(1, I(5));
  expect_error("broadcast_in_dim range", "broadcast_in_dim", &d5, &v, &bo,
               "dims dim 5 out of range for rank 2");
  ir_tensor r[2] = {m, ten(1, D(1), z)};
  interp_attr rd[3] = {ints(1, I(0)), interp_attr_body(INTERP_BODY_ADD),
                       interp_attr_int(0)};
  expect_error("reduce init rank", "reduce", rd, r, &o, "init must be rank 0");
  r[1] = ten(0, NULL, z);
  rd[0] = ints(1, I(2));
  expect_error("reduce dim range", "reduce", rd, r, &o,
               "reduce: operand [2,3] and init []: dims dim 2 out of range");
  rd[0] = ints(1, I(0));
  rd[2] = interp_attr_int(2);
  expect_error("reduce keepdims", "reduce", rd, r, &o,
               "keepdims is 2, expected 0 or 1");
  rd[2] = interp_attr_double(0);
  expect_error("attribute kind", "reduce", rd, r, &o,
               "reduce: attribute keepdims is double, expected int");
  interp_attr i3 = interp_attr_int(3);
  ir_tensor io = ten(2, D(2, 2), NULL);
  expect_error("iota dimension", "iota", &i3, NULL, &io,
               "iota: result [2,2]: dimension 3 out of range for rank 2");
  interp_attr dir = interp_attr_dir((interp_cmp)9);
  ir_tensor cc[2] = {v, v};
  expect_error("compare direction", "compare", &dir, cc, &o,
               "direction 9 is not one of");
  ir_tensor fs = ten(2, D(2, 2), NULL);
  expect_error("fill_scalar rank", "fill_scalar", NULL, &m, &fs,
               "the value must be rank 0");
  ir_tensor neg = ten(1, D(-1), NULL);
  interp_attr val = interp_attr_double(1);
  expect_error("negative size", "constant", &val, NULL, &neg,
               "negative size");
  /* run with no buffers: an error, not a crash */
  const interp_op *op = interp_op_find("add");
  ir_tensor nob;
  memset(&nob, 0, sizeof nob);
  ir_tensor ok2[2] = {v, v};
  interp_err err;
  CHECK("run without output buffer fails cleanly",
        op->run(op, NULL, ok2, &nob, &err) != 0 &&
            strstr(err.msg, "no buffer") != NULL);
  CHECK("unknown kernel", interp_op_find("frobnicate") == NULL);
  ir_tensor iv[2] = {v, v};
  iv[0].elem = iv[1].elem = IR_I32;
  expect_error("integer division", "div", NULL, iv, &o,
               "div: element type i32, expected f32 or f64");
}

/* ------------------------------------------------------ registry, types */

static void test_registry(void) {
  static const char *const names[] = {
      "neg", "sqrt", "exp", "rsqrt", "reciprocal", "abs", "add", "sub",
      "mul", "div", "max", "min", "fmax", "fmin", "maxnum", "minnum", "compare", "select",
      "dot_general", "transpose", "broadcast_in_dim", "slice", "reduce", "reduce_num", "iota",
      "constant", "fill", "fill_scalar", "reshape", "empty", "convert", "shl", "shra", "shrl",
      "pad", "conv", "reverse"};
  int n = (int)(sizeof names / sizeof names[0]);
  int found = 0;
  for (int i = 0; i < n; i++) found += interp_op_find(names[i]) != NULL;
  CHECK("every contract kernel is registered", found == n);
  CHECK("registry count", interp_op_count() == n);
  int consistent = 1;
  for (int i = 0; i < interp_op_count(); i++) {
    const interp_op *op = interp_op_at(i);
    consistent &= interp_op_find(op->name) == op && op->run && op->run_sym &&
                  op->shape && op->nargs <= INTERP_MAX_ARGS &&
                  op->nattrs <= INTERP_MAX_ATTRS;
  }
  CHECK("registry entries are complete", consistent);
  const interp_op *dg = interp_op_find("dot_general");
  CHECK("dot_general has 4 attributes", dg->nattrs == 4 && dg->nargs == 2);
  CHECK("attribute index by name",
        interp_op_attr_index(dg, "rhs_contract") == 3 &&
            interp_op_attr_index(dg, "nope") == -1);
  CHECK("direction names", interp_cmp_parse("GE") == INTERP_CMP_GE &&
                               interp_cmp_parse("ge") == -1 &&
                               strcmp(interp_cmp_name(INTERP_CMP_NE), "NE") == 0);
  CHECK("body names", interp_body_parse("max") == INTERP_BODY_MAX &&
                          strcmp(interp_body_name(INTERP_BODY_MUL), "mul") == 0);
}

static void test_types(void) {
  enum { M = 0, K = 1, N = 2 }; /* size symbols */
  const interp_op *dg = interp_op_find("dot_general");
  interp_attr nb[4] = {none_list(), none_list(), ints(1, I(1)), ints(1, I(0))};
  ir_type a[2] = {{IR_F64, 2, {M, K}}, {IR_F64, 2, {K, N}}}, r;
  interp_err err;
  CHECK("symbolic matmul type",
        interp_op_type(dg, nb, a, &r, &err) == 0 && r.rank == 2 &&
            r.dims[0] == M && r.dims[1] == N && r.elem == IR_F64);
  a[1].dims[0] = N;
  CHECK("symbolic matmul rejects k vs n",
        interp_op_type(dg, nb, a, &r, &err) != 0 &&
            strstr(err.msg, "size d1) and rhs 0 (size d2) differ"));
  const interp_op *add = interp_op_find("add");
  ir_type b[2] = {{IR_F64, 2, {M, N}}, {IR_F64, 1, {N}}};
  CHECK("symbolic broadcast", interp_op_type(add, NULL, b, &r, &err) == 0 &&
                                  r.rank == 2 && r.dims[1] == N);
  b[1].dims[0] = IR_DIM_ONE;
  CHECK("symbolic broadcast of 1", interp_op_type(add, NULL, b, &r, &err) == 0 &&
                                       r.rank == 2 && r.dims[1] == N);
  b[1].dims[0] = M;
  CHECK("symbolic broadcast rejects m vs n",
        interp_op_type(add, NULL, b, &r, &err) != 0 &&
            strstr(err.msg, "[d0,d2]") != NULL);
  b[1] = (ir_type){IR_F32, 0, {0}};
  CHECK("element types must agree", interp_op_type(add, NULL, b, &r, &err) != 0);
  const interp_op *cmp = interp_op_find("compare");
  interp_attr lt = interp_attr_dir(INTERP_CMP_LT);
  ir_type c[2] = {{IR_I32, 2, {M, N}}, {IR_I32, 2, {M, N}}};
  CHECK("compare gives i1",
        interp_op_type(cmp, &lt, c, &r, &err) == 0 && r.elem == IR_I1);
  const interp_op *sel = interp_op_find("select");
  ir_type s[3] = {{IR_F64, 1, {M}}, {IR_F64, 1, {M}}, {IR_F64, 1, {M}}};
  CHECK("select wants an i1 pred", interp_op_type(sel, NULL, s, &r, &err) != 0 &&
                                       strstr(err.msg, "expected i1"));
  s[0].elem = IR_I1;
  CHECK("select type", interp_op_type(sel, NULL, s, &r, &err) == 0 &&
                           r.elem == IR_F64);
  const interp_op *sq = interp_op_find("sqrt");
  CHECK("sqrt of i32 is rejected",
        interp_op_type(sq, NULL, c, &r, &err) != 0 &&
            strstr(err.msg, "expected f32 or f64"));
  /* pad over size symbols: a shift keeps the dim, a growth has no type */
  const interp_op *pd = interp_op_find("pad");
  ir_type pa[2] = {{IR_F64, 2, {M, N}}, {IR_F64, 0, {0}}};
  interp_attr sh[2] = {ints(2, I(1, -1)), ints(2, I(-1, 1))};
  CHECK("symbolic pad by a shift keeps the type",
        interp_op_type(pd, sh, pa, &r, &err) == 0 && r.rank == 2 && r.dims[0] == M &&
            r.dims[1] == N && r.elem == IR_F64);
  sh[1] = ints(2, I(0, 1));
  CHECK("symbolic pad that grows a dim has no type",
        interp_op_type(pd, sh, pa, &r, &err) != 0 && strstr(err.msg, "no size symbol"));
  const interp_op *rs = interp_op_find("reshape");
  ir_type x = {IR_F64, 2, {M, N}};
  r = (ir_type){IR_F64, 3, {N, IR_DIM_ONE, M}};
  CHECK("symbolic reshape, same symbols",
        interp_op_type(rs, NULL, &x, &r, &err) == 0);
  r = (ir_type){IR_F64, 2, {N, N}};
  CHECK("symbolic reshape, other symbols",
        interp_op_type(rs, NULL, &x, &r, &err) != 0);
  const interp_op *bi = interp_op_find("broadcast_in_dim");
  interp_attr d1 = ints(1, I(1));
  ir_type v = {IR_F64, 1, {N}};
  r = (ir_type){IR_F64, 2, {M, N}};
  CHECK("symbolic broadcast_in_dim", interp_op_type(bi, &d1, &v, &r, &err) == 0);
  r = (ir_type){IR_F64, 2, {N, M}};
  CHECK("symbolic broadcast_in_dim mismatch",
        interp_op_type(bi, &d1, &v, &r, &err) != 0);
  const interp_op *red = interp_op_find("reduce");
  interp_attr ra[3] = {ints(1, I(0)), interp_attr_body(INTERP_BODY_ADD),
                       interp_attr_int(1)};
  ir_type ri[2] = {{IR_F64, 2, {M, N}}, {IR_F64, 0, {0}}};
  CHECK("symbolic reduce keepdims",
        interp_op_type(red, ra, ri, &r, &err) == 0 && r.rank == 2 &&
            r.dims[0] == IR_DIM_ONE && r.dims[1] == N);
  const interp_op *io = interp_op_find("iota");
  interp_attr d = interp_attr_int(0);
  r = (ir_type){IR_I32, 1, {M}};
  CHECK("iota keeps the proposed type",
        interp_op_type(io, &d, NULL, &r, &err) == 0 && r.elem == IR_I32);
}

/* ------------------------------------------------- symbolic instantiation */

/* The test algebra: terms are expression trees in an arena. */
typedef enum {
  N_IN,    /* operand `in`, element `idx` */
  N_PIN,   /* poison flag of operand `in`, element `idx` */
  N_CONST, N_ADD, N_SUB, N_MUL, N_DIV, N_MAX, N_MIN, N_NEG, N_SQRT, N_EXP,
  N_CMP, N_SEL, N_RED, N_POR, N_PSEL, N_PTRUE,
  N_CONV,  /* a converted to element type `dir` */
  N_SHIFT, /* a OP b (OP in `in`: 'l', 'a', 'r') in element type `dir` */
  N_TIE    /* maxnum's poison: a or b NaN, or zeros of opposite signs */
} nkind;

typedef struct node {
  nkind kind;
  int in, dir;
  long idx, n;
  double v;
  struct node *a, *b, *c, **xs;
} node;

typedef struct tctx {
  ir_arena *arena;
  long nodes;
} tctx;

static node *mk(void *ctx, nkind k, interp_term a, interp_term b,
                interp_term c) {
  tctx *t = ctx;
  node *n = IR_NEW(t->arena, node);
  n->kind = k;
  n->a = (node *)a;
  n->b = (node *)b;
  n->c = (node *)c;
  t->nodes++;
  return n;
}
#define H(p) ((interp_term)(p))
static interp_term t_const(void *c, double v) {
  node *n = mk(c, N_CONST, 0, 0, 0);
  n->v = v;
  return H(n);
}
static interp_term t_add(void *c, interp_term a, interp_term b) { return H(mk(c, N_ADD, a, b, 0)); }
static interp_term t_sub(void *c, interp_term a, interp_term b) { return H(mk(c, N_SUB, a, b, 0)); }
static interp_term t_mul(void *c, interp_term a, interp_term b) { return H(mk(c, N_MUL, a, b, 0)); }
static interp_term t_div(void *c, interp_term a, interp_term b) { return H(mk(c, N_DIV, a, b, 0)); }
static interp_term t_max(void *c, interp_term a, interp_term b) { return H(mk(c, N_MAX, a, b, 0)); }
static interp_term t_min(void *c, interp_term a, interp_term b) { return H(mk(c, N_MIN, a, b, 0)); }
static interp_term t_neg(void *c, interp_term a) { return H(mk(c, N_NEG, a, 0, 0)); }
static interp_term t_sqrt(void *c, interp_term a) { return H(mk(c, N_SQRT, a, 0, 0)); }
static interp_term t_exp(void *c, interp_term a) { return H(mk(c, N_EXP, a, 0, 0)); }
static interp_term t_cmp(void *c, interp_cmp d, interp_term a, interp_term b) {
  node *n = mk(c, N_CMP, a, b, 0);
  n->dir = (int)d;
  return H(n);
}
static interp_term t_sel(void *c, interp_term p, interp_term a, interp_term b) {
  return H(mk(c, N_SEL, p, a, b));
}
static interp_term t_red(void *c, interp_body body, interp_term init,
                         const interp_term *xs, long n) {
  tctx *t = c;
  node *r = mk(c, N_RED, init, 0, 0);
  r->dir = (int)body;
  r->n = n;
  r->xs = IR_NEW_N(t->arena, node *, n > 0 ? n : 1);
  for (long i = 0; i < n; i++) r->xs[i] = (node *)xs[i];
  return H(r);
}
static interp_term t_por(void *c, interp_term a, interp_term b) {
  return H(mk(c, N_POR, a, b, 0));
}
static interp_term t_psel(void *c, interp_term p, interp_term a, interp_term b) {
  return H(mk(c, N_PSEL, p, a, b));
}
static interp_term t_ptrue(void *c) { return H(mk(c, N_PTRUE, 0, 0, 0)); }
static interp_term t_conv(void *c, interp_term a, ir_elem from, ir_elem to) {
  (void)from;
  node *n = mk(c, N_CONV, a, 0, 0);
  n->dir = (int)to;
  return H(n);
}
static interp_term t_tie(void *c, interp_term a, interp_term b) {
  return H(mk(c, N_TIE, a, b, 0));
}
static interp_term t_shift(void *c, int op, interp_term a, interp_term b, ir_elem e) {
  node *n = mk(c, N_SHIFT, a, b, 0);
  n->in = op;
  n->dir = (int)e;
  return H(n);
}

/* C's conversion of an integer value v to the integer type e (modulo 2^N,
 * two's complement), written apart from ir_elem_wrap. */
static double ref_wrap(int e, double v) {
  int w = ir_elem_bits((ir_elem)e);
  unsigned long long u = (unsigned long long)(long long)v;
  if (w < 64) u &= (1ull << w) - 1;
  if (ir_elem_is_signed((ir_elem)e) && w < 64 && (u >> (w - 1)) & 1)
    return (double)(long long)(u | ~((1ull << w) - 1));
  return (double)u;
}

/* The documented semantics, written independently of ops.c. */
static double ref_max(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double ref_min(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static double ref_body(int body, double a, double b) {
  switch (body) {
  case INTERP_BODY_ADD: return a + b;
  case INTERP_BODY_MUL: return a * b;
  case INTERP_BODY_MAX: return ref_max(a, b);
  default: return ref_min(a, b);
  }
}

static double eval(const node *n, const ir_tensor *ins) {
  double a, b;
  switch (n->kind) {
  case N_IN: return ins[n->in].data[n->idx];
  case N_PIN: return ins[n->in].poison[n->idx] != 0;
  case N_CONST: return n->v;
  case N_ADD: return eval(n->a, ins) + eval(n->b, ins);
  case N_SUB: return eval(n->a, ins) - eval(n->b, ins);
  case N_MUL: return eval(n->a, ins) * eval(n->b, ins);
  case N_DIV: return eval(n->a, ins) / eval(n->b, ins);
  case N_MAX: return ref_max(eval(n->a, ins), eval(n->b, ins));
  case N_MIN: return ref_min(eval(n->a, ins), eval(n->b, ins));
  case N_NEG: return -eval(n->a, ins);
  case N_SQRT: return sqrt(eval(n->a, ins));
  case N_EXP: return exp(eval(n->a, ins));
  case N_CMP:
    a = eval(n->a, ins);
    b = eval(n->b, ins);
    switch (n->dir) {
    case INTERP_CMP_EQ: return a == b;
    case INTERP_CMP_NE: return a != b;
    case INTERP_CMP_LT: return a < b;
    case INTERP_CMP_LE: return a <= b;
    case INTERP_CMP_GT: return a > b;
    default: return a >= b;
    }
  case N_SEL:
  case N_PSEL:
    /* PSEL's sides may be NULL (defined) */
    if (eval(n->a, ins) != 0) return n->b ? eval(n->b, ins) : 0;
    return n->c ? eval(n->c, ins) : 0;
  case N_RED: {
    double acc = eval(n->a, ins);
    for (long i = 0; i < n->n; i++) acc = ref_body(n->dir, acc, eval(n->xs[i], ins));
    return acc;
  }
  case N_POR: return (eval(n->a, ins) != 0) || (eval(n->b, ins) != 0);
  case N_TIE:
    a = eval(n->a, ins);
    b = eval(n->b, ins);
    return isnan(a) || isnan(b) || (a == 0 && b == 0 && (signbit(a) != 0) != (signbit(b) != 0));
  case N_PTRUE: return 1;
  case N_CONV: return ref_wrap(n->dir, eval(n->a, ins));
  case N_SHIFT: {
    a = eval(n->a, ins);
    b = eval(n->b, ins);
    int w = ir_elem_bits((ir_elem)n->dir);
    /* arithmetic: the bits read as the signed type of the width */
    double sa = ref_wrap(ir_elem_int(w, 1), a);
    if (b < 0 || b >= w) return n->in == 'a' && sa < 0 ? ref_wrap(n->dir, -1) : 0;
    if (n->in == 'l') return ref_wrap(n->dir, a * ldexp(1, (int)b));
    if (n->in == 'a') return ref_wrap(n->dir, floor(sa / ldexp(1, (int)b)));
    /* logical: the value's bits as unsigned */
    double u = a < 0 ? a + ldexp(1, w) : a;
    return ref_wrap(n->dir, floor(u / ldexp(1, (int)b)));
  }
  }
  return NAN;
}

/* A deterministic PRNG (splitmix64). */
static uint64_t rng_state = 0x1234567;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static long rnd_int(long lo, long hi) {
  return lo + (long)(rnd() % (uint64_t)(hi - lo + 1));
}

/* One random configuration of a kernel: operand shapes and attributes. */
typedef struct sym_case {
  const char *name;
  int nargs;
  int ranks[3];
  long dims[3][IR_MAX_RANK];
  interp_attr attrs[INTERP_MAX_ATTRS];
  int out_rank; /* GIVEN_SHAPE ops */
  long out_dims[IR_MAX_RANK];
  int pred0;    /* operand 0 is a 0/1 predicate */
  ir_elem elem, out_elem; /* integer kernels: the operands' and the
                             result's element types (else f64) */
} sym_case;

static int same_double(double a, double b) {
  return a == b || (isnan(a) && isnan(b));
}

/* Run one case concretely and symbolically (with and without the reduce
 * hook) on random inputs with random poison; compare. */
static int run_sym_case(const sym_case *c, int with_poison, int use_hook) {
  const interp_op *op = interp_op_find(c->name);
  ir_tensor in[3];
  interp_sym_tensor sin[3];
  ir_arena arena;
  ir_arena_init(&arena);
  tctx ctx = {&arena, 0};
  interp_sym_algebra alg = {&ctx, t_const, t_add, t_sub, t_mul, t_div,
                            t_max, t_min, t_neg, t_sqrt, t_exp,
                            t_cmp, t_sel, use_hook ? t_red : NULL,
                            t_por, t_psel, t_ptrue, t_conv, t_shift, t_tie};
  for (int k = 0; k < c->nargs; k++) {
    in[k] = ten(c->ranks[k], c->dims[k], NULL);
    in[k].elem = c->elem;
    size_t n = ir_tensor_size(&in[k]);
    in[k].data = IR_NEW_N(&arena, double, n);
    for (size_t i = 0; i < n; i++)
      in[k].data[i] = k == 0 && c->pred0 ? (double)rnd_int(0, 1)
                      : k == 1 && c->elem != IR_F64 && strcmp(c->name, "convert")
                          ? (double)rnd_int(0, ir_elem_bits(c->elem) + 1) /* counts */
                      : c->elem != IR_F64 ? ir_elem_wrap(c->elem, (double)rnd_int(-300, 300))
                                          : (double)rnd_int(-4, 4);
    if (with_poison && rnd_int(0, 1)) {
      in[k].poison = IR_NEW_N(&arena, unsigned char, n);
      for (size_t i = 0; i < n; i++) in[k].poison[i] = rnd_int(0, 4) == 0;
    }
    memset(&sin[k], 0, sizeof sin[k]);
    sin[k].elem = in[k].elem;
    sin[k].rank = in[k].rank;
    memcpy(sin[k].dims, in[k].dims, sizeof sin[k].dims);
    sin[k].data = IR_NEW_N(&arena, interp_term, n);
    for (size_t i = 0; i < n; i++) {
      node *v = mk(&ctx, N_IN, 0, 0, 0);
      v->in = k;
      v->idx = (long)i;
      sin[k].data[i] = H(v);
    }
    if (in[k].poison) {
      sin[k].poison = IR_NEW_N(&arena, interp_term, n);
      for (size_t i = 0; i < n; i++) {
        node *v = mk(&ctx, N_PIN, 0, 0, 0);
        v->in = k;
        v->idx = (long)i;
        sin[k].poison[i] = H(v);
      }
    }
  }
  ir_tensor out = ten(c->out_rank, c->out_dims, NULL);
  out.elem = c->out_elem;
  interp_sym_tensor sout;
  memset(&sout, 0, sizeof sout);
  sout.elem = c->out_elem;
  sout.rank = c->out_rank;
  memcpy(sout.dims, c->out_dims, sizeof sout.dims);
  interp_err e1, e2;
  int r1 = interp_op_eval(op, c->attrs, in, &out, &e1);
  int r2 = interp_op_eval_sym(op, c->attrs, sin, &sout, &alg, &e2);
  int ok = r1 == 0 && r2 == 0;
  if (!ok)
    fprintf(stderr, "  %s: %s / %s\n", c->name, r1 ? e1.msg : "",
            r2 ? e2.msg : "");
  ok = ok && out.rank == sout.rank;
  for (int i = 0; ok && i < out.rank; i++) ok = out.dims[i] == sout.dims[i];
  if (!ok) fprintf(stderr, "  %s: shapes differ\n", c->name);
  size_t n = ok ? ir_tensor_size(&out) : 0;
  for (size_t i = 0; ok && i < n; i++) {
    double v = eval((node *)sout.data[i], in);
    int p = sout.poison && sout.poison[i]
                ? eval((node *)sout.poison[i], in) != 0
                : 0;
    int cp = out.poison ? out.poison[i] : 0;
    if (!same_double(v, out.data[i]) || p != cp) {
      fprintf(stderr, "  %s: element %zu: concrete %g%s, symbolic %g%s\n",
              c->name, i, out.data[i], cp ? " (poison)" : "", v,
              p ? " (poison)" : "");
      ok = 0;
    }
  }
  if (r1 == 0) interp_tensor_free(&out);
  if (r2 == 0) interp_sym_tensor_free(&sout);
  ir_arena_free(&arena);
  return ok;
}

static void rnd_shape(int rank, long *dims) {
  for (int i = 0; i < rank; i++) dims[i] = rnd_int(1, 3);
}

/* A random permutation of 0..n-1 into v. */
static void rnd_perm(int n, int *v) {
  for (int i = 0; i < n; i++) v[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)rnd_int(0, i), t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

/* Build a random valid case for kernel `name`. */
static void make_case(const char *name, sym_case *c) {
  memset(c, 0, sizeof *c);
  c->name = name;
  c->elem = c->out_elem = IR_F64;
  const interp_op *op = interp_op_find(name);
  c->nargs = op->nargs;
  if (op->flags & INTERP_OP_ELEMENTWISE) {
    /* a result shape, then operands that broadcast to it */
    int rank = (int)rnd_int(0, 3);
    long rd[IR_MAX_RANK];
    rnd_shape(rank, rd);
    for (int k = 0; k < op->nargs; k++) {
      int r = (int)rnd_int(0, rank);
      c->ranks[k] = r;
      for (int i = 0; i < r; i++)
        c->dims[k][i] = rnd_int(0, 2) == 0 ? 1 : rd[rank - r + i];
    }
    if (strcmp(name, "compare") == 0)
      c->attrs[0] = interp_attr_dir((interp_cmp)rnd_int(0, 5));
    c->pred0 = strcmp(name, "select") == 0;
    /* integer kernels: random integer types (convert: between two) */
    static const ir_elem ints[] = {IR_I8, IR_U8, IR_I16, IR_U16, IR_I32, IR_U32};
    if (op->flags & (INTERP_OP_INT_ONLY | INTERP_OP_GIVEN_ELEM)) {
      c->elem = c->out_elem = ints[rnd_int(0, 5)];
      if (op->flags & INTERP_OP_GIVEN_ELEM) {
        c->out_elem = ints[rnd_int(0, 5)];
        c->out_rank = 0; /* the result's shape is the operand's */
        for (int k = 0; k < op->nargs; k++) c->ranks[k] = rank;
        for (int i = 0; i < rank; i++) c->dims[0][i] = rd[i];
      }
    }
  } else if (strcmp(name, "dot_general") == 0) {
    int nb = (int)rnd_int(0, 1), nc = (int)rnd_int(0, 2);
    int lf = (int)rnd_int(0, 1), rf = (int)rnd_int(0, 1);
    long bd[2], cd[2];
    rnd_shape(nb, bd);
    rnd_shape(nc, cd);
    int lr = nb + nc + lf, rr = nb + nc + rf;
    int lp[4], rp[4];
    rnd_perm(lr, lp);
    rnd_perm(rr, rp);
    int lbv[2], rbv[2], lcv[2], rcv[2];
    c->ranks[0] = lr;
    c->ranks[1] = rr;
    /* lp[j] is where logical dim j (batch..., contract..., free) goes */
    for (int j = 0; j < nb; j++) {
      lbv[j] = lp[j], rbv[j] = rp[j];
      c->dims[0][lp[j]] = c->dims[1][rp[j]] = bd[j];
    }
    for (int j = 0; j < nc; j++) {
      lcv[j] = lp[nb + j], rcv[j] = rp[nb + j];
      c->dims[0][lp[nb + j]] = c->dims[1][rp[nb + j]] = cd[j];
    }
    if (lf) c->dims[0][lp[nb + nc]] = rnd_int(1, 3);
    if (rf) c->dims[1][rp[nb + nc]] = rnd_int(1, 3);
    c->attrs[0] = ints(nb, lbv);
    c->attrs[1] = ints(nb, rbv);
    c->attrs[2] = ints(nc, lcv);
    c->attrs[3] = ints(nc, rcv);
  } else if (strcmp(name, "transpose") == 0) {
    int r = (int)rnd_int(1, 4), p[4];
    c->ranks[0] = r;
    rnd_shape(r, c->dims[0]);
    rnd_perm(r, p);
    c->attrs[0] = ints(r, p);
  } else if (strcmp(name, "reverse") == 0) {
    int r = (int)rnd_int(1, 4);
    c->ranks[0] = r;
    rnd_shape(r, c->dims[0]);
    c->attrs[0] = interp_attr_int((int)rnd_int(0, r - 1));
  } else if (strcmp(name, "broadcast_in_dim") == 0) {
    int rr = (int)rnd_int(0, 3), r = (int)rnd_int(0, rr), p[4], m[4];
    c->out_rank = rr;
    rnd_shape(rr, c->out_dims);
    rnd_perm(rr, p);
    c->ranks[0] = r;
    for (int i = 0; i < r; i++) {
      m[i] = p[i];
      c->dims[0][i] = rnd_int(0, 2) == 0 ? 1 : c->out_dims[m[i]];
    }
    c->attrs[0] = ints(r, m);
  } else if (strcmp(name, "reduce") == 0 || strcmp(name, "reduce_num") == 0) {
    int r = (int)rnd_int(0, 3), p[4];
    c->ranks[0] = r;
    rnd_shape(r, c->dims[0]);
    c->ranks[1] = 0;
    rnd_perm(r, p);
    int nd = (int)rnd_int(0, r);
    c->attrs[0] = ints(nd, p);
    /* reduce_num: its max and min (maxnum, minnum) */
    c->attrs[1] = interp_attr_body((interp_body)rnd_int(name[6] ? 2 : 0, 3));
    c->attrs[2] = interp_attr_int((int)rnd_int(0, 1));
  } else if (strcmp(name, "iota") == 0) {
    c->out_rank = (int)rnd_int(1, 3);
    rnd_shape(c->out_rank, c->out_dims);
    c->attrs[0] = interp_attr_int((int)rnd_int(0, c->out_rank - 1));
  } else if (strcmp(name, "empty") == 0) {
    c->out_rank = (int)rnd_int(0, 3);
    rnd_shape(c->out_rank, c->out_dims);
  } else if (strcmp(name, "constant") == 0 || strcmp(name, "fill") == 0) {
    c->out_rank = (int)rnd_int(0, 3);
    rnd_shape(c->out_rank, c->out_dims);
    c->attrs[0] = interp_attr_double((double)rnd_int(-4, 4) / 2);
  } else if (strcmp(name, "fill_scalar") == 0) {
    c->ranks[0] = 0;
    c->out_rank = (int)rnd_int(0, 3);
    rnd_shape(c->out_rank, c->out_dims);
  } else if (strcmp(name, "slice") == 0) {
    /* starts in -2..2 (past either end too), dims kept or dropped */
    int r = (int)rnd_int(1, 3), st[4], keep[4];
    c->ranks[0] = r;
    rnd_shape(r, c->dims[0]);
    for (int d = 0; d < r; d++) {
      st[d] = (int)rnd_int(-2, 2);
      keep[d] = (int)rnd_int(0, 3) % 3; /* kept half the time */
      if (keep[d] == 1) c->out_dims[c->out_rank++] = rnd_int(0, 4);
    }
    c->attrs[0] = ints(r, st);
    c->attrs[1] = ints(r, keep);
  } else if (strcmp(name, "pad") == 0) {
    /* low and high in -3..2 per dim, any whose extent is not negative */
    int r = (int)rnd_int(0, 3), lo[4], hi[4];
    c->ranks[0] = r;
    c->ranks[1] = 0;
    rnd_shape(r, c->dims[0]);
    for (int d = 0; d < r; d++) {
      lo[d] = (int)rnd_int(-3, 2);
      hi[d] = (int)rnd_int(-3, 2);
      if (c->dims[0][d] + lo[d] + hi[d] < 0) hi[d] = -lo[d];
    }
    c->attrs[0] = ints(r, lo);
    c->attrs[1] = ints(r, hi);
  } else if (strcmp(name, "conv") == 0) {
    int r = (int)rnd_int(1, 3);
    c->ranks[0] = c->ranks[1] = r;
    rnd_shape(r, c->dims[0]);
    rnd_shape(r, c->dims[1]);
  } else if (strcmp(name, "reshape") == 0) {
    /* split 2*3*k elements into two different shapes */
    long k = rnd_int(1, 2);
    c->ranks[0] = 2;
    c->dims[0][0] = 2;
    c->dims[0][1] = 3 * k;
    c->out_rank = 3;
    c->out_dims[0] = 3;
    c->out_dims[1] = k;
    c->out_dims[2] = 2;
  } else {
    /* unary elementwise ops are handled above; anything else is new */
    c->name = NULL;
  }
}

static void test_symbolic(void) {
  for (int i = 0; i < interp_op_count(); i++) {
    const char *name = interp_op_at(i)->name;
    int ok = 1, cases = 0;
    for (int rep = 0; rep < 40; rep++) {
      sym_case c;
      make_case(name, &c);
      if (!c.name) break;
      ok &= run_sym_case(&c, rep % 2, (rep / 2) % 2);
      cases++;
    }
    CHECKF(cases > 0 && ok,
           "symbolic %s agrees with concrete on %d random cases", name, cases);
  }
}

int main(void) {
  test_unary();
  test_binary();
  test_compare_select();
  test_dot();
  test_transpose();
  test_reverse();
  test_slice();
  test_pad();
  test_conv();
  test_reduce();
  test_reduce_update();
  test_creators();
  test_f32();
  test_poison();
  test_errors();
  test_registry();
  test_types();
  test_symbolic();
  CHECK("no memory left live", ir_mem_live() == 0);
  return TEST_REPORT();
}
