/* test_interp.c - the loop interpreter (interp/loop.c), values and checksums
 * (interp/values.c) and native runs (interp/native.c) on small kernels built
 * by hand with the tiny builder below. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interp/interp.h"
#include "tests/harness.h"

/* ------------------------------------------------------------ builder */

static ir_arena A;
static ir_kernel *K;
static int next_id;
static int line_no;

static ir_pos here(void) { return (ir_pos){"t.c", ++line_no, 3}; }

static void begin(const char *name) {
  K = IR_NEW(&A, ir_kernel);
  K->name = name;
  K->file = "t.c";
  K->data_type = IR_F64;
  K->vars = IR_NEW_N(&A, ir_var *, 32);
  K->params = IR_NEW_N(&A, int, 32);
  next_id = 0;
}

static int var(ir_var_kind kind, const char *name, ir_elem elem, int rank,
               ir_expr *d0, ir_expr *d1) {
  ir_var *v = IR_NEW(&A, ir_var);
  v->kind = kind;
  v->id = K->nvars;
  v->name = name;
  v->elem = elem;
  v->rank = rank;
  v->dims[0] = d0;
  v->dims[1] = d1;
  v->pos = here();
  v->param_index = -1;
  if (kind == IR_VAR_SIZE || kind == IR_VAR_SCALAR || kind == IR_VAR_ARRAY) {
    v->param_index = K->nparams;
    K->params[K->nparams++] = v->id;
  }
  K->vars[K->nvars++] = v;
  return v->id;
}

static ir_expr *ex(ir_expr_kind kind, ir_elem type, int nargs, ir_expr *a,
                   ir_expr *b, ir_expr *c) {
  ir_expr *e = IR_NEW(&A, ir_expr);
  e->kind = kind;
  e->type = type;
  e->pos = here();
  e->nargs = nargs;
  e->args = IR_NEW_N(&A, ir_expr *, 3);
  e->args[0] = a;
  e->args[1] = b;
  e->args[2] = c;
  return e;
}
static ir_expr *cst(double v, ir_elem t) {
  ir_expr *e = ex(IR_EX_CONST, t, 0, NULL, NULL, NULL);
  e->value = v;
  e->is_int = v == floor(v);
  return e;
}
static ir_expr *ci(long v) { return cst((double)v, IR_I32); }
static ir_expr *vr(int v) {
  ir_expr *e = ex(IR_EX_VAR, K->vars[v]->elem, 0, NULL, NULL, NULL);
  e->var = v;
  return e;
}
static ir_expr *el(int v, ir_expr *i, ir_expr *j) {
  ir_expr *e = ex(IR_EX_ELEM, K->vars[v]->elem, j ? 2 : 1, i, j, NULL);
  e->var = v;
  return e;
}
static ir_expr *bin(ir_expr_kind k, ir_expr *a, ir_expr *b) {
  ir_elem t = k >= IR_EX_LT && k <= IR_EX_OR ? IR_I1 : a->type;
  return ex(k, t, 2, a, b, NULL);
}
static ir_expr *sel(ir_expr *c, ir_expr *a, ir_expr *b) {
  return ex(IR_EX_SELECT, a->type, 3, c, a, b);
}
static ir_stmt *st(ir_stmt_kind kind) {
  ir_stmt *s = IR_NEW(&A, ir_stmt);
  s->kind = kind;
  s->pos = here();
  return s;
}
/* assignments must be created in textual order (ids) */
static ir_stmt *asg(ir_expr *lhs, ir_assign_op op, ir_expr *rhs) {
  ir_stmt *s = st(IR_ST_ASSIGN);
  s->lhs = lhs;
  s->op = op;
  s->rhs = rhs;
  s->id = next_id++;
  K->nassign = next_id;
  return s;
}
static ir_stmt *loop(int iter, ir_expr *lo, ir_expr *hi, int step, ir_stmt *body) {
  ir_stmt *s = st(IR_ST_FOR);
  s->iter = iter;
  s->lo = lo;
  s->hi = hi;
  s->step = step;
  s->body = body;
  return s;
}
static ir_stmt *seq(ir_stmt *a, ir_stmt *b) {
  ir_stmt *t = a;
  while (t->next) t = t->next;
  t->next = b;
  return a;
}

/* ------------------------------------------------------------ helpers */

static interp_env E;
static interp_error ERR;

static int setup(long n) {
  long sizes[32] = {0};
  for (int v = 0; v < K->nvars; v++)
    if (K->vars[v]->kind == IR_VAR_SIZE) sizes[v] = n;
  return interp_env_init(&E, K, sizes, &ERR);
}

static double *data(int v) { return E.vals[v].data; }

static const char *write_file(const char *dir, const char *name, const char *text) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

/* -------------------------------------------------------------- tests */

static void test_loops(void) {
  /* void f(int n, double A[n], double B[n], double C[n]):
   *   for (i = n-1; i >= 1; i--) A[i] = A[i-1];          downward shift
   *   for (i = 1; i <= n-1; i++) B[i] = B[i-1] + B[i];   prefix sum
   *   for (i = 2; i <= n-2; i++) C[0] += 1;              inclusive bounds */
  begin("kernel_loops");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int a = var(IR_VAR_ARRAY, "A", IR_F64, 1, vr(n), NULL);
  int b = var(IR_VAR_ARRAY, "B", IR_F64, 1, vr(n), NULL);
  int c = var(IR_VAR_ARRAY, "C", IR_F64, 1, vr(n), NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  ir_stmt *s0 = loop(i, ci(1), bin(IR_EX_SUB, vr(n), ci(1)), -1,
                     asg(el(a, vr(i), NULL), IR_ASSIGN,
                         el(a, bin(IR_EX_SUB, vr(i), ci(1)), NULL)));
  ir_stmt *s1 = loop(i, ci(1), bin(IR_EX_SUB, vr(n), ci(1)), 1,
                     asg(el(b, vr(i), NULL), IR_ASSIGN,
                         bin(IR_EX_ADD, el(b, bin(IR_EX_SUB, vr(i), ci(1)), NULL),
                             el(b, vr(i), NULL))));
  ir_stmt *s2 = loop(i, ci(2), bin(IR_EX_SUB, vr(n), ci(2)), 1,
                     asg(el(c, ci(0), NULL), IR_ASSIGN_ADD, cst(1, IR_F64)));
  K->body = seq(s0, seq(s1, s2));

  CHECK("env init", setup(7) == 0);
  interp_fill_random(&E, 42);
  double a0[7], b0[7];
  memcpy(a0, data(a), sizeof a0);
  memcpy(b0, data(b), sizeof b0);
  double c0 = data(c)[0];
  CHECK("run succeeds", interp_run(&E, NULL, &ERR) == 0);
  int ok = 1;
  for (int k = 1; k < 7; k++) ok &= data(a)[k] == a0[k - 1];
  CHECK("downward loop shifts (each element gets its left neighbour)", ok && data(a)[0] == a0[0]);
  double s = 0;
  ok = 1;
  for (int k = 0; k < 7; k++) {
    s += b0[k];
    ok &= data(b)[k] == s;
  }
  CHECK("upward loop computes prefix sums", ok);
  CHECKF(data(c)[0] == c0 + 4, "inclusive bounds 2..n-2 run n-3 = 4 times (got %g)",
         data(c)[0] - c0);
  CHECK("no poison in parameters", interp_poison_count(&E.vals[b]) == 0);
  interp_env_free(&E);
}

static void test_compound_and_select(void) {
  /* void f(int n, double alpha, double A[n], double B[n], double C[n]):
   *   for i: A[i] += alpha; A[i] -= 1; A[i] *= alpha; A[i] /= 2;
   *   for i: B[i] = i < n-1 ? C[i+1] : -1;        only the taken side runs
   *   for i: C[i] = A[i] > 0 && B[i] > 0 ? 1 : 0 */
  begin("kernel_ops");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int al = var(IR_VAR_SCALAR, "alpha", IR_F64, 0, NULL, NULL);
  int a = var(IR_VAR_ARRAY, "A", IR_F64, 1, vr(n), NULL);
  int b = var(IR_VAR_ARRAY, "B", IR_F64, 1, vr(n), NULL);
  int c = var(IR_VAR_ARRAY, "C", IR_F64, 1, vr(n), NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  ir_expr *last = bin(IR_EX_SUB, vr(n), ci(1));
  ir_stmt *body = asg(el(a, vr(i), NULL), IR_ASSIGN_ADD, vr(al));
  seq(body, asg(el(a, vr(i), NULL), IR_ASSIGN_SUB, cst(1, IR_F64)));
  seq(body, asg(el(a, vr(i), NULL), IR_ASSIGN_MUL, vr(al)));
  seq(body, asg(el(a, vr(i), NULL), IR_ASSIGN_DIV, cst(2, IR_F64)));
  ir_stmt *s1 = loop(i, ci(0), last, 1, body);
  ir_stmt *s2 = loop(i, ci(0), last, 1,
                     asg(el(b, vr(i), NULL), IR_ASSIGN,
                         sel(bin(IR_EX_LT, vr(i), last),
                             el(c, bin(IR_EX_ADD, vr(i), ci(1)), NULL),
                             cst(-1, IR_F64))));
  ir_stmt *s3 = loop(i, ci(0), last, 1,
                     asg(el(c, vr(i), NULL), IR_ASSIGN,
                         sel(bin(IR_EX_AND, bin(IR_EX_GT, el(a, vr(i), NULL), cst(0, IR_F64)),
                                 bin(IR_EX_GT, el(b, vr(i), NULL), cst(0, IR_F64))),
                             cst(1, IR_F64), cst(0, IR_F64))));
  K->body = seq(s1, seq(s2, s3));

  CHECK("env init", setup(5) == 0);
  interp_fill_random(&E, 7);
  double al0 = data(al)[0], a0[5], c0[5];
  memcpy(a0, data(a), sizeof a0);
  memcpy(c0, data(c), sizeof c0);
  CHECK("scalar parameter in 2..5", al0 >= 2 && al0 <= 5 && al0 == floor(al0));
  int r = interp_run(&E, NULL, &ERR);
  CHECKF(r == 0, "ternary evaluates only the taken side (no range error): %s", ERR.msg);
  int ok = 1;
  for (int k = 0; k < 5; k++) ok &= data(a)[k] == (a0[k] + al0 - 1) * al0 / 2;
  CHECK("compound += -= *= /=", ok);
  ok = 1;
  for (int k = 0; k < 5; k++) ok &= data(b)[k] == (k < 4 ? c0[k + 1] : -1);
  CHECK("select picks the right side", ok);
  ok = 1;
  for (int k = 0; k < 5; k++)
    ok &= data(c)[k] == (data(a)[k] > 0 && data(b)[k] > 0 ? 1 : 0);
  CHECK("&& and comparisons", ok);
  CHECK("tolerance: division makes the kernel inexact",
        interp_kernel_tolerance(K) == 1e-12);
  interp_env_free(&E);
}

static void test_f32(void) {
  /* void f(int n, float x[n], float y[n], float z[n]):
   *   for i: z[i] = x[i] * y[i] + z[i] / x[i]; z[i] += sqrtf(y[i]) */
  begin("kernel_f32");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int x = var(IR_VAR_ARRAY, "x", IR_F32, 1, vr(n), NULL);
  int y = var(IR_VAR_ARRAY, "y", IR_F32, 1, vr(n), NULL);
  int z = var(IR_VAR_ARRAY, "z", IR_F32, 1, vr(n), NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  ir_expr *call = ex(IR_EX_CALL, IR_F32, 1, el(y, vr(i), NULL), NULL, NULL);
  call->fn = IR_FN_SQRT;
  ir_stmt *body = asg(el(z, vr(i), NULL), IR_ASSIGN,
                      bin(IR_EX_ADD, bin(IR_EX_MUL, el(x, vr(i), NULL), el(y, vr(i), NULL)),
                          bin(IR_EX_DIV, el(z, vr(i), NULL), el(x, vr(i), NULL))));
  seq(body, asg(el(z, vr(i), NULL), IR_ASSIGN_ADD, call));
  K->body = loop(i, ci(0), bin(IR_EX_SUB, vr(n), ci(1)), 1, body);
  CHECK("env init", setup(4) == 0);
  double xs[4] = {1.0 / 3, 0.1, 7.3, 1e-3}, ys[4] = {3.7, 0.3, 1.0 / 7, 2},
         zs[4] = {0.7, 1e8, 3.3, 1.1};
  CHECK("set values", interp_set_values(&E, x, xs) == 0 &&
                          interp_set_values(&E, y, ys) == 0 &&
                          interp_set_values(&E, z, zs) == 0);
  CHECK("run", interp_run(&E, NULL, &ERR) == 0);
  int ok = 1;
  for (int k = 0; k < 4; k++) {
    volatile float fx = (float)xs[k], fy = (float)ys[k], fz = (float)zs[k];
    float want = fx * fy + fz / fx;
    want += sqrtf(fy);
    ok &= data(z)[k] == (double)want;
    if (data(z)[k] != (double)want)
      fprintf(stderr, "  f32 %d: got %.17g want %.17g\n", k, data(z)[k], (double)want);
  }
  CHECK("f32 rounds after every operation, bit for bit as C", ok);
  CHECK("f32 tolerance", interp_kernel_tolerance(K) == 1e-5);
  interp_env_free(&E);
}

static void test_poison(void) {
  /* void f(int n, double B[n], double C[n], double D[n]) { double tmp[n]; double s;
   *   S0: tmp[0] = 1;
   *   S1: for i: B[i] = tmp[i] + 1;          only B[0] defined
   *   S2: for i: if (tmp[i] > 0) C[i] = 5;   poison condition: C[1..] poison
   *   S3: s = 2;  S4: for i: D[i] = D[i] * s  defined */
  begin("kernel_poison");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int b = var(IR_VAR_ARRAY, "B", IR_F64, 1, vr(n), NULL);
  int c = var(IR_VAR_ARRAY, "C", IR_F64, 1, vr(n), NULL);
  int d = var(IR_VAR_ARRAY, "D", IR_F64, 1, vr(n), NULL);
  int tmp = var(IR_VAR_LOCAL_ARRAY, "tmp", IR_F64, 1, vr(n), NULL);
  int s = var(IR_VAR_LOCAL, "s", IR_F64, 0, NULL, NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  ir_expr *last = bin(IR_EX_SUB, vr(n), ci(1));
  ir_stmt *s0 = asg(el(tmp, ci(0), NULL), IR_ASSIGN, cst(1, IR_F64));
  ir_stmt *s1 = loop(i, ci(0), last, 1,
                     asg(el(b, vr(i), NULL), IR_ASSIGN,
                         bin(IR_EX_ADD, el(tmp, vr(i), NULL), cst(1, IR_F64))));
  ir_stmt *iff = st(IR_ST_IF);
  iff->cond = bin(IR_EX_GT, el(tmp, vr(i), NULL), cst(0, IR_F64));
  iff->then_body = asg(el(c, vr(i), NULL), IR_ASSIGN, cst(5, IR_F64));
  ir_stmt *s2 = loop(i, ci(0), last, 1, iff);
  ir_stmt *s3 = asg(vr(s), IR_ASSIGN, cst(2, IR_F64));
  ir_stmt *s4 = loop(i, ci(0), last, 1,
                     asg(el(d, vr(i), NULL), IR_ASSIGN,
                         bin(IR_EX_MUL, el(d, vr(i), NULL), vr(s))));
  K->body = seq(s0, seq(s1, seq(s2, seq(s3, s4))));
  CHECK("env init", setup(4) == 0);
  CHECK("locals start as poison", interp_poison_count(&E.vals[tmp]) == 4 &&
                                      interp_poison_count(&E.vals[s]) == 1);
  interp_fill_random(&E, 3);
  CHECK("run with poison does not fail", interp_run(&E, NULL, &ERR) == 0);
  CHECK("defined element from a written local", !E.vals[b].poison[0] && data(b)[0] == 2);
  CHECK("poison propagates through arithmetic", interp_poison_count(&E.vals[b]) == 3);
  CHECK("poison condition poisons the writes", interp_poison_count(&E.vals[c]) == 3 &&
                                                    !E.vals[c].poison[0]);
  CHECK("written local scalar is defined", interp_poison_count(&E.vals[d]) == 0);
  unsigned char w[16];
  interp_written_vars(K, NULL, w);
  CHECK("written vars", w[b] && w[c] && w[d] && w[tmp] && w[s] && !w[n]);
  uint64_t h1 = interp_tensor_hash(&E.vals[b]);
  E.vals[b].data[1] = 1234; /* a poison element's value does not matter */
  CHECK("hash ignores values of poison elements", interp_tensor_hash(&E.vals[b]) == h1);
  CHECK("sum skips poison", interp_tensor_sum(&E.vals[b]) == 2);
  interp_env_free(&E);
}

/* One elementwise kernel y[i] = f(x[i]) over integer data: run at the
 * values xs (n of them, set as C converts them) into y. */
static void int_run(ir_elem e, ir_expr *(*f)(int x, int i), const double *xs, int nx, int *y_var) {
  begin("kernel_int");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int x = var(IR_VAR_ARRAY, "x", e, 1, vr(n), NULL);
  int y = var(IR_VAR_ARRAY, "y", e, 1, vr(n), NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  K->body = loop(i, ci(0), bin(IR_EX_SUB, vr(n), ci(1)), 1,
                 asg(el(y, vr(i), NULL), IR_ASSIGN, f(x, i)));
  CHECK("env init", setup(nx) == 0);
  interp_set_values(&E, x, xs);
  CHECK("integer run", interp_run(&E, NULL, &ERR) == 0);
  *y_var = y;
}
static ir_elem int_e;
static ir_expr *plus_1(int x, int i) { return bin(IR_EX_ADD, el(x, vr(i), NULL), cst(1, int_e)); }
static ir_expr *plus_1024(int x, int i) { return bin(IR_EX_ADD, el(x, vr(i), NULL), cst(1024, int_e)); }
static ir_expr *minus_1(int x, int i) { return bin(IR_EX_SUB, el(x, vr(i), NULL), cst(1, int_e)); }
static ir_expr *twice(int x, int i) { return bin(IR_EX_MUL, el(x, vr(i), NULL), cst(2, int_e)); }
static ir_expr *square(int x, int i) { return bin(IR_EX_MUL, el(x, vr(i), NULL), el(x, vr(i), NULL)); }
static ir_expr *by_m1(int x, int i) { return bin(IR_EX_DIV, el(x, vr(i), NULL), cst(-1, int_e)); }
static ir_expr *shl(int x, int i) { return ex(IR_EX_SHL, int_e, 2, cst(1, int_e), el(x, vr(i), NULL), NULL); }

/* Is y[i] the value v, not poison? Poison (no value, or none a double
 * holds) when v is NaN. */
static int int_is(int y, int i, double v) {
  if (v != v) return E.vals[y].poison[i] != 0;
  return !E.vals[y].poison[i] && data(y)[i] == v;
}

static void test_int_exact(void) {
  const double p62 = ldexp(1, 62), p63 = ldexp(1, 63), p53 = ldexp(1, 53);
  int y;
  /* int64_t: y = x + 1 near 2^62 is no double (poison, never the rounded
   * 2^62); x + 1024 there is one, exactly; signed overflow is undefined */
  int_e = IR_I64;
  int_run(IR_I64, plus_1, (double[]){p62, p53 - 2, -p63, 5}, 4, &y);
  CHECK("i64: 2^62 + 1 is no double: poison, not 2^62", int_is(y, 0, NAN));
  CHECK("i64: 2^53 - 2 + 1 exact", int_is(y, 1, p53 - 1));
  CHECK("i64: -2^63 + 1 is no double: poison", int_is(y, 2, NAN));
  CHECK("i64: 5 + 1", int_is(y, 3, 6));
  interp_env_free(&E);
  int_run(IR_I64, plus_1024, (double[]){p62, p63 - 1024, -p63}, 3, &y);
  CHECK("i64: 2^62 + 1024 exact", int_is(y, 0, p62 + 1024));
  CHECK("i64: 2^63 - 1024 + 1024 overflows (undefined in C): poison", int_is(y, 1, NAN));
  CHECK("i64: -2^63 + 1024 exact", int_is(y, 2, -p63 + 1024));
  interp_env_free(&E);
  /* uint64_t wraps: 0 - 1 is 2^64 - 1 (no double: poison), 2^63 * 2 is 0 */
  int_e = IR_U64;
  int_run(IR_U64, minus_1, (double[]){0, 7, p63}, 3, &y);
  CHECK("u64: 0 - 1 = 2^64 - 1 is no double: poison", int_is(y, 0, NAN));
  CHECK("u64: 7 - 1", int_is(y, 1, 6));
  CHECK("u64: 2^63 - 1 is no double: poison", int_is(y, 2, NAN));
  interp_env_free(&E);
  int_run(IR_U64, twice, (double[]){p63, p62 + 2048}, 2, &y);
  CHECK("u64: 2^63 * 2 wraps to 0", int_is(y, 0, 0));
  CHECK("u64: (2^62 + 2048) * 2 exact", int_is(y, 1, p63 + 4096));
  interp_env_free(&E);
  /* uint32_t wraps exactly: (2^32 - 4)^2 is 16 modulo 2^32 */
  int_e = IR_U32;
  int_run(IR_U32, square, (double[]){4294967292.0, 65536}, 2, &y);
  CHECK("u32: (2^32 - 4)^2 wraps to 16", int_is(y, 0, 16));
  CHECK("u32: 65536^2 wraps to 0", int_is(y, 1, 0));
  interp_env_free(&E);
  /* int: signed overflow and INT_MIN / -1 have no value; shifts past the
   * width or into the sign bit are undefined */
  int_e = IR_I32;
  int_run(IR_I32, square, (double[]){46341, 46340, -46340}, 3, &y);
  CHECK("int: 46341^2 overflows (undefined): poison, not the wrapped value", int_is(y, 0, NAN));
  CHECK("int: 46340^2", int_is(y, 1, 2147395600));
  CHECK("int: (-46340)^2", int_is(y, 2, 2147395600));
  interp_env_free(&E);
  int_run(IR_I32, by_m1, (double[]){-2147483648.0, 7}, 2, &y);
  CHECK("int: INT_MIN / -1 overflows: poison", int_is(y, 0, NAN));
  CHECK("int: 7 / -1", int_is(y, 1, -7));
  interp_env_free(&E);
  int_run(IR_I32, shl, (double[]){30, 31, 32, -1}, 4, &y);
  CHECK("int: 1 << 30", int_is(y, 0, 1073741824));
  CHECK("int: 1 << 31 is past INT_MAX: poison", int_is(y, 1, NAN));
  CHECK("int: 1 << 32 and 1 << -1: poison", int_is(y, 2, NAN) && int_is(y, 3, NAN));
  interp_env_free(&E);
}

static void test_range_error(void) {
  /* void f(int n, int m, double A[n][m]): for i < n, j < m: A[i][j+1] = 0 */
  begin("kernel_oob");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int m = var(IR_VAR_SIZE, "m", IR_I32, 0, NULL, NULL);
  int a = var(IR_VAR_ARRAY, "A", IR_F64, 2, vr(n), vr(m));
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  int j = var(IR_VAR_ITER, "j", IR_I32, 0, NULL, NULL);
  ir_stmt *as = asg(el(a, vr(i), bin(IR_EX_ADD, vr(j), ci(1))), IR_ASSIGN,
                    cst(0, IR_F64));
  K->body = loop(i, ci(0), bin(IR_EX_SUB, vr(n), ci(1)), 1,
                 loop(j, ci(0), bin(IR_EX_SUB, vr(m), ci(1)), 1, as));
  long sizes[8] = {0};
  sizes[n] = 3;
  sizes[m] = 5;
  CHECK("env init", interp_env_init(&E, K, sizes, &ERR) == 0);
  int r = interp_run(&E, NULL, &ERR);
  CHECK("out-of-range subscript is an error", r == -1);
  CHECKF(ERR.pos.line == as->pos.line && strcmp(ERR.pos.file, "t.c") == 0,
         "error names the statement position (line %d, want %d)", ERR.pos.line,
         as->pos.line);
  CHECKF(strstr(ERR.msg, "A[0][5]") && strstr(ERR.msg, "[3][5]"),
         "error names the index and the shape: %s", ERR.msg);
  interp_env_free(&E);

  /* negative dims */
  sizes[m] = -2;
  CHECK("negative array size is an error", interp_env_init(&E, K, sizes, &ERR) == -1 &&
                                               strstr(ERR.msg, "negative"));
}

static void test_masks(void) {
  /* void f(int n, double A[n][n], double x[n], double y[n], double z[n]):
   *   S0: for i: y[i] = 0
   *   S1: for i, j: y[i] += A[i][j] * x[j]
   *   S2: for i: z[i] = 2 * y[i] */
  begin("kernel_mask");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int a = var(IR_VAR_ARRAY, "A", IR_F64, 2, vr(n), vr(n));
  int x = var(IR_VAR_ARRAY, "x", IR_F64, 1, vr(n), NULL);
  int y = var(IR_VAR_ARRAY, "y", IR_F64, 1, vr(n), NULL);
  int z = var(IR_VAR_ARRAY, "z", IR_F64, 1, vr(n), NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  int j = var(IR_VAR_ITER, "j", IR_I32, 0, NULL, NULL);
  ir_expr *last = bin(IR_EX_SUB, vr(n), ci(1));
  ir_stmt *s0 = loop(i, ci(0), last, 1, asg(el(y, vr(i), NULL), IR_ASSIGN, cst(0, IR_F64)));
  ir_stmt *s1 = loop(i, ci(0), last, 1,
                     loop(j, ci(0), last, 1,
                          asg(el(y, vr(i), NULL), IR_ASSIGN_ADD,
                              bin(IR_EX_MUL, el(a, vr(i), vr(j)), el(x, vr(j), NULL)))));
  ir_stmt *s2 = loop(i, ci(0), last, 1,
                     asg(el(z, vr(i), NULL), IR_ASSIGN,
                         bin(IR_EX_MUL, cst(2, IR_F64), el(y, vr(i), NULL))));
  K->body = seq(s0, seq(s1, s2));
  CHECK("tolerance: exact kernel", interp_kernel_tolerance(K) == 0);

  interp_env full, part;
  long sizes[8] = {0};
  interp_default_sizes(K, 0, sizes);
  CHECK("default size is 3", sizes[n] == 3);
  interp_default_sizes(K, 1, sizes);
  CHECK("second size assignment differs", sizes[n] == 5);
  CHECK("init full", interp_env_init(&full, K, sizes, &ERR) == 0);
  CHECK("init part", interp_env_init(&part, K, sizes, &ERR) == 0);
  interp_fill_random(&full, 11);
  interp_fill_random(&part, 11);
  double y0[5];
  memcpy(y0, part.vals[y].data, sizeof y0);
  unsigned char t1[3] = {1, 1, 0}, t2[3] = {0, 0, 1}, only2[3] = {0, 0, 1};
  unsigned char w[16];
  interp_written_vars(K, t2, w);
  CHECK("written vars of a mask", w[z] && !w[y]);
  interp_env solo;
  CHECK("init solo", interp_env_init(&solo, K, sizes, &ERR) == 0);
  interp_env_copy(&solo, &part);
  CHECK("mask run", interp_run(&solo, only2, &ERR) == 0);
  int ok = 1;
  for (int k = 0; k < 5; k++) ok &= solo.vals[z].data[k] == 2 * y0[k] && solo.vals[y].data[k] == y0[k];
  CHECK("a mask runs only the selected statement", ok);
  CHECK("full run", interp_run(&full, NULL, &ERR) == 0);
  CHECK("task 1", interp_run(&part, t1, &ERR) == 0);
  CHECK("task 2", interp_run(&part, t2, &ERR) == 0);
  unsigned char all[16];
  interp_written_vars(K, NULL, all);
  interp_mismatch mm;
  long cmp = 0;
  CHECK("tasks in order equal the full run",
        interp_compare(&full, &part, all, 0, &mm, &cmp) == 0 && cmp == 10);
  part.vals[z].data[3] += 1;
  CHECK("compare finds a difference",
        interp_compare(&full, &part, all, 0, &mm, NULL) == 1 && mm.var == z &&
            mm.index[0] == 3);
  interp_env_free(&full);
  interp_env_free(&part);
  interp_env_free(&solo);
}

static void test_rng(void) {
  interp_rng r1, r2, r3;
  interp_rng_seed(&r1, 5);
  interp_rng_seed(&r2, 5);
  interp_rng_seed(&r3, 6);
  int same = 1, differs = 0, inrange = 1;
  for (int i = 0; i < 1000; i++) {
    uint64_t a = interp_rng_next(&r1), b = interp_rng_next(&r2), c = interp_rng_next(&r3);
    same &= a == b;
    differs |= a != c;
    long v = interp_rng_range(&r1, -4, 4);
    interp_rng_next(&r2);
    inrange &= v >= -4 && v <= 4;
  }
  CHECK("same seed, same sequence", same);
  CHECK("different seed, different sequence", differs);
  CHECK("range is respected", inrange);
  interp_rng_seed(&r1, 0);
  CHECK("splitmix64 reference value", interp_rng_next(&r1) == 0xe220a8397b1dcdafULL);
  CHECK("agree: relative", interp_values_agree(1e6, 1e6 + 1e-7, 1e-12) &&
                               !interp_values_agree(1e6, 1e6 + 1e-3, 1e-12));
  CHECK("agree: NaN and inf", interp_values_agree(NAN, NAN, 0) &&
                                  interp_values_agree(INFINITY, INFINITY, 0) &&
                                  !interp_values_agree(INFINITY, -INFINITY, 1));
}

static void test_native(void) {
  char dir[] = "/tmp/uplift-test-XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK("mkdtemp", 0);
    return;
  }
  /* the same kernel as the f32 test, natively */
  begin("kernel_f32n");
  int n = var(IR_VAR_SIZE, "n", IR_I32, 0, NULL, NULL);
  int x = var(IR_VAR_ARRAY, "x", IR_F32, 1, vr(n), NULL);
  int y = var(IR_VAR_ARRAY, "y", IR_F32, 1, vr(n), NULL);
  int z = var(IR_VAR_ARRAY, "z", IR_F32, 1, vr(n), NULL);
  int al = var(IR_VAR_SCALAR, "alpha", IR_F32, 0, NULL, NULL);
  int i = var(IR_VAR_ITER, "i", IR_I32, 0, NULL, NULL);
  K->body = loop(i, ci(0), bin(IR_EX_SUB, vr(n), ci(1)), 1,
                 asg(el(z, vr(i), NULL), IR_ASSIGN,
                     bin(IR_EX_ADD, bin(IR_EX_MUL, el(x, vr(i), NULL), vr(al)),
                         bin(IR_EX_DIV, el(z, vr(i), NULL), el(y, vr(i), NULL)))));
  const char *p = write_file(dir, "good.c",
                             "#include <stdio.h>\n"
                             "static void kernel_f32n(int n, float x[n], float y[n], float z[n], float alpha) {\n"
                             "  for (int i = 0; i < n; i++) z[i] = x[i] * alpha + z[i] / y[i];\n}\n"
                             "int main(void) { printf(\"main\\n\"); return 0; }\n");
  interp_native_result res;
  interp_native *nat = interp_native_compile(K, p, NULL, &res);
  CHECKF(nat != NULL, "native compile: %s", res.msg);
  if (nat) {
    long sizes[8] = {0};
    sizes[n] = 6;
    interp_env ie, ne;
    interp_env_init(&ie, K, sizes, &ERR);
    interp_env_init(&ne, K, sizes, &ERR);
    interp_fill_random(&ie, 9);
    for (int k = 0; k < 6; k++) ie.vals[y].data[k] = k + 3; /* no 0 divisor */
    interp_env_copy(&ne, &ie);
    CHECK("interp run", interp_run(&ie, NULL, &ERR) == 0);
    int r = interp_native_call(nat, &ne, NULL, &res);
    CHECKF(r == 0 && res.status == INTERP_NATIVE_OK, "native call: %s", res.msg);
    unsigned char w[16];
    interp_written_vars(K, NULL, w);
    interp_mismatch mm;
    long cmp;
    CHECK("native f32 agrees bit for bit",
          interp_compare(&ie, &ne, w, 0, &mm, &cmp) == 0 && cmp == 6);
    CHECK("native call can be repeated", interp_native_call(nat, &ne, NULL, &res) == 0);
    CHECK("second call differs (z updated twice)",
          interp_compare(&ie, &ne, w, 0, &mm, &cmp) > 0);
    interp_env_free(&ie);
    interp_env_free(&ne);
    interp_native_free(nat);
  }

  /* a crash, an endless loop, a compile error */
  p = write_file(dir, "crash.c",
                 "void kernel_f32n(int n, float x[n], float y[n], float z[n], float alpha) {\n"
                 "  *(volatile int *)0 = n;\n}\n");
  nat = interp_native_compile(K, p, NULL, &res);
  CHECKF(nat != NULL, "compile crash.c: %s", res.msg);
  if (nat) {
    long sizes[8] = {0};
    sizes[n] = 3;
    interp_env ne;
    interp_env_init(&ne, K, sizes, &ERR);
    int r = interp_native_call(nat, &ne, NULL, &res);
    CHECKF(r == -1 && res.status == INTERP_NATIVE_CRASH && strstr(res.msg, "crashed"),
           "a crash is reported: %s", res.msg);
    interp_env_free(&ne);
    interp_native_free(nat);
  }
  p = write_file(dir, "spin.c",
                 "void kernel_f32n(int n, float x[n], float y[n], float z[n], float alpha) {\n"
                 "  for (volatile int i = 0; ; i++) x[0] += i;\n}\n");
  nat = interp_native_compile(K, p, NULL, &res);
  if (nat) {
    long sizes[8] = {0};
    sizes[n] = 3;
    interp_env ne;
    interp_env_init(&ne, K, sizes, &ERR);
    interp_native_limits lim;
    interp_native_default_limits(&lim);
    lim.cpu_seconds = 1;
    int r = interp_native_call(nat, &ne, &lim, &res);
    CHECKF(r == -1 && res.status == INTERP_NATIVE_TIMEOUT, "a time-out is reported: %s",
           res.msg);
    interp_env_free(&ne);
    interp_native_free(nat);
  }
  p = write_file(dir, "bad.c", "void kernel_f32n(int n { }\n");
  nat = interp_native_compile(K, p, NULL, &res);
  CHECKF(nat == NULL && res.status == INTERP_NATIVE_COMPILE && strstr(res.msg, "bad.c"),
         "a compile error is reported with cc's output: %s", res.msg);
  unlink(write_file(dir, "good.c", ""));
  unlink(write_file(dir, "crash.c", ""));
  unlink(write_file(dir, "spin.c", ""));
  unlink(write_file(dir, "bad.c", ""));
  rmdir(dir);
}

/* int64_t natively: a result no double holds is not compared (it would
 * round to the interpreter's value: a false agreement), the others are,
 * exactly; a wrong native value past 2^53 is a mismatch. */
static void test_native_int64(void) {
  char dir[] = "/tmp/uplift-test-XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK("mkdtemp", 0);
    return;
  }
  const double p62 = ldexp(1, 62);
  int y;
  int_e = IR_I64;
  for (int wrong = 0; wrong < 2; wrong++) {
    int_run(IR_I64, plus_1024, (double[]){p62, p62 + 4096, 3}, 3, &y);
    const char *p = write_file(dir, "i64.c", wrong ? "void kernel_int(int n, long *x, long *y) {\n"
                                                     "  for (int i = 0; i < n; i++) y[i] = x[i] + 1025;\n}\n"
                                                   : "void kernel_int(int n, long *x, long *y) {\n"
                                                     "  for (int i = 0; i < n; i++) y[i] = x[i] + 1024;\n}\n");
    interp_native_result res;
    interp_native *nat = interp_native_compile(K, p, NULL, &res);
    CHECKF(nat != NULL, "native compile: %s", res.msg);
    if (!nat) {
      interp_env_free(&E);
      continue;
    }
    interp_env ne;
    long sizes[8] = {0};
    sizes[0] = 3;
    interp_env_init(&ne, K, sizes, &ERR);
    interp_set_values(&ne, 1, (double[]){p62, p62 + 4096, 3});
    CHECKF(interp_native_call(nat, &ne, NULL, &res) == 0, "native call: %s", res.msg);
    unsigned char w[8] = {0};
    interp_written_vars(K, NULL, w);
    interp_mismatch mm;
    long cmp = 0, bad = interp_compare(&E, &ne, w, 0, &mm, &cmp);
    if (!wrong)
      CHECKF(bad == 0 && cmp == 3, "i64 natively: 2^62 + 1024 agrees exactly (%ld of %ld differ)", bad, cmp);
    else
      CHECKF(bad == 3 && cmp == 3 && mm.index[0] == 0, "i64 natively: one more past 2^62 (no double) is a mismatch, "
             "never a rounded agreement (%ld of %ld differ)", bad, cmp);
    interp_env_free(&ne);
    interp_native_free(nat);
    interp_env_free(&E);
  }
  unlink(write_file(dir, "i64.c", ""));
  rmdir(dir);
}

int main(void) {
  ir_arena_init(&A);
  test_loops();
  test_compound_and_select();
  test_f32();
  test_poison();
  test_int_exact();
  test_range_error();
  test_masks();
  test_rng();
  test_native();
  test_native_int64();
  ir_arena_free(&A);
  CHECKF(ir_mem_live() == 0, "no leaks (%ld blocks live)", ir_mem_live());
  return TEST_REPORT();
}
