/*
 * test_allsizes.c - the proof for every size (poly_all_sizes, issue 12).
 *
 * One table of kernels, tasks and hand-written hlo programs, checked by the
 * normal form alone (no bounded check first, so a wrong program must be
 * told apart by the all-sizes proof itself): right programs of sums of
 * products are proved for all sizes; programs that differ from the source
 * only at some sizes (a mask on a size beyond every bound, a threshold
 * moved by one, an offset, a guard on the sizes, a loop empty at small
 * sizes) are not; and constructs out of reach say which one.
 * Every right program is also tampered as tests/e2e_tamper.sh does (a
 * change under a mask on a size >= 4, 9, 31, on an index >= 4, 30, on a
 * size the output does not use, a doubling, a change at small sizes): no
 * tampered program may be proved for all sizes, while the same program
 * under a mask that changes nothing still is.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"
#include "tests/harness.h"
#include "tests/kernel_text.h"


typedef struct as_test {
  const char *name;
  const char *src;
  int task;
  const char *out;   /* the output variable */
  const char *prog;  /* over the task's inputs */
  int want;          /* 1: proved for all sizes */
  const char *why;   /* want 0: text the reason holds (NULL: any) */
} as_test;

static const char gemm[] =
    "void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,\n"
    "                 double C[ni][nj], double A[ni][nk], double B[nk][nj]) {\n"
    "  for (int i = 0; i < ni; i++) {\n"
    "    for (int j = 0; j < nj; j++) C[i][j] *= beta;\n"
    "    for (int k = 0; k < nk; k++)\n"
    "      for (int j = 0; j < nj; j++) C[i][j] += alpha * A[i][k] * B[k][j];\n"
    "  }\n}\n";

static const char scale[] = "void kernel_s(int n, double A[n], double B[n]) {\n"
                            "  for (int i = 0; i < n; i++) B[i] = 2.0 * A[i];\n}\n";

static const char guard[] = "void kernel_g(int n, double A[n], double B[n]) {\n"
                            "  for (int i = 0; i < n; i++) B[i] = A[i];\n"
                            "  if (n > 2) for (int i = 0; i < n; i++) B[i] = 2.0 * A[i];\n}\n";

static const char thresh[] = "void kernel_t(int n, double A[n], double B[n]) {\n"
                             "  for (int i = 0; i < n; i++) {\n"
                             "    B[i] = A[i];\n"
                             "    if (i >= 30) B[i] = 2.0 * A[i];\n"
                             "  }\n}\n";

static const char offset[] = "void kernel_o(int n, int m, double A[m], double B[m]) {\n"
                             "  for (int i = n + 2; i < m; i++) B[i] = 2.0 * A[i];\n}\n";

static const char redthr[] = "void kernel_r(int n, double A[n][n], double x[n]) {\n"
                             "  for (int i = 0; i < n; i++) {\n"
                             "    x[i] = 0.0;\n"
                             "    for (int k = 30; k < n; k++) x[i] += A[i][k];\n"
                             "  }\n}\n";

static const char tri[] = "void kernel_e(int n, double A[n][n], double y[n]) {\n"
                          "  for (int i = 0; i < n; i++) {\n"
                          "    y[i] = 0.0;\n"
                          "    for (int j = 0; j < i - 3; j++) y[i] += A[i][j];\n"
                          "  }\n}\n";

static const char gram[] = "void kernel_k(int n, int m, double A[n][m], double C[n][n]) {\n"
                           "  for (int i = 0; i < n; i++)\n"
                           "    for (int j = 0; j < n; j++) {\n"
                           "      C[i][j] = 0.0;\n"
                           "      for (int k = 0; k < m; k++) C[i][j] += A[i][k] * A[j][k];\n"
                           "    }\n}\n";

static const char mv[] = "void kernel_mv(int n, double A[n][n], double x[n], double y[n]) {\n"
                         "  for (int i = 0; i < n; i++)\n"
                         "    for (int j = 0; j < n; j++) x[i] += A[i][j] * y[j];\n}\n";

/* the accumulation written out, as upstream Polybench's gemver writes it
 * (x = x + e is x += e in C), e + x, and x - e; x = x + a + b is
 * (x + a) + b, an assignment of a sum that reads x, not an accumulation */
static const char mv_out[] = "void kernel_mv(int n, double A[n][n], double x[n], double y[n]) {\n"
                             "  for (int i = 0; i < n; i++)\n"
                             "    for (int j = 0; j < n; j++) x[i] = x[i] + A[i][j] * y[j];\n}\n";
static const char mv_rev[] = "void kernel_mv(int n, double A[n][n], double x[n], double y[n]) {\n"
                             "  for (int i = 0; i < n; i++)\n"
                             "    for (int j = 0; j < n; j++) x[i] = A[i][j] * y[j] + x[i];\n}\n";
static const char mv_sub[] = "void kernel_mv(int n, double A[n][n], double x[n], double y[n]) {\n"
                             "  for (int i = 0; i < n; i++)\n"
                             "    for (int j = 0; j < n; j++) x[i] = x[i] - A[i][j] * y[j];\n}\n";
static const char mv_two[] = "void kernel_mv(int n, double A[n][n], double x[n], double y[n]) {\n"
                             "  for (int i = 0; i < n; i++)\n"
                             "    for (int j = 0; j < n; j++) x[i] = x[i] + A[i][j] + y[j];\n}\n";

static const char carried[] = "void kernel_c(int n, double A[n], double B[n]) {\n"
                              "  double s = 0.0;\n"
                              "  for (int i = 0; i < n; i++) {\n"
                              "    if (A[i] > -100.0) s = A[i];\n"
                              "    B[i] = s;\n"
                              "  }\n}\n";

static const char cancel[] = "void kernel_x(int n, double A[n], double B[n]) {\n"
                             "  for (int i = 0; i < n; i++) B[i] = A[i] - A[i];\n}\n";

static const as_test tests[] = {
    {"gemm task 0", gemm, 0, "C", "multiply(C, beta)", 1, NULL},
    {"gemm task 0, a mask on the unused nk", gemm, 0, "C",
     "select(mask[nk - 2 >= 0]:i1[ni,nj], C, multiply(C, beta))", 0, "differ"},
    {"gemm task 1", gemm, 1, "C",
     "add(C, multiply(dot_general[batch=(), contract=(1,0)](A, B), alpha))", 1, NULL},
    {"gemm task 1, different only at ni >= 31", gemm, 1, "C",
     "select(mask[ni - 31 >= 0]:i1[ni,nj], C, "
     "add(C, multiply(dot_general[batch=(), contract=(1,0)](A, B), alpha)))",
     0, "differ"},
    {"gemm task 1, A transposed", gemm, 1, "C",
     "add(C, multiply(dot_general[batch=(), contract=(0,0)](transpose[perm=(1,0)](A), B), alpha))",
     1, NULL},
    {"scale", scale, 0, "B", "multiply(A, 2:f64[n])", 1, NULL},
    {"scale, different at n >= 50", scale, 0, "B",
     "select(mask[n - 50 >= 0]:i1[n], A, multiply(A, 2:f64[n]))", 0, "differ"},
    {"scale as a product over a dim of 1", scale, 0, "B",
     "reduce[dims=(0), body=mul](broadcast_in_dim[dims=(1)](A):f64[1,n], 2)", 1, NULL},
    {"scale as A + A (a literal is an atom)", scale, 0, "B", "add(A, A)", 0, "differ"},
    {"guard on n", guard, 1, "B", "select(mask[n - 3 >= 0]:i1[n], multiply(A, 2:f64[n]), B)", 1,
     NULL},
    {"guard on n ignored", guard, 1, "B", "multiply(A, 2:f64[n])", 0, "differ"},
    {"guard on n off by one", guard, 1, "B",
     "select(mask[n - 4 >= 0]:i1[n], multiply(A, 2:f64[n]), B)", 0, "differ"},
    {"threshold: the copy", thresh, 0, "B", "A", 1, NULL},
    {"threshold i >= 30", thresh, 1, "B",
     "select(mask[i0 - 30 >= 0]:i1[n], multiply(A, 2:f64[n]), B)", 1, NULL},
    {"threshold ignored", thresh, 1, "B", "B", 0, "differ"},
    {"threshold at 31", thresh, 1, "B",
     "select(mask[i0 - 31 >= 0]:i1[n], multiply(A, 2:f64[n]), B)", 0, "differ"},
    {"threshold as iota == 30", thresh, 1, "B",
     "select(mask[i0 - 30 == 0]:i1[n], multiply(A, 2:f64[n]), B)", 0, "differ"},
    {"offset n + 2", offset, 0, "B",
     "select(mask[i0 - n - 2 >= 0]:i1[m], multiply(A, 2:f64[m]), B)", 1, NULL},
    {"offset dropped", offset, 0, "B", "multiply(A, 2:f64[m])", 0, "differ"},
    {"offset n + 1", offset, 0, "B",
     "select(mask[i0 - n - 1 >= 0]:i1[m], multiply(A, 2:f64[m]), B)", 0, "differ"},
    {"reduction from k = 30", redthr, 1, "x",
     "add(x, reduce[dims=(1), body=add](select(mask[i1 - 30 >= 0]:i1[n,n], A, 0:f64[n,n]), 0))",
     1, NULL},
    {"reduction from k = 0", redthr, 1, "x", "add(x, reduce[dims=(1), body=add](A, 0))", 0,
     "differ"},
    {"loop empty for i < 4", tri, 1, "y",
     "add(y, reduce[dims=(1), body=add](select(mask[i0 - i1 - 4 >= 0]:i1[n,n], A, 0:f64[n,n]), "
     "0))",
     1, NULL},
    {"loop empty for i < 4, mask off by one", tri, 1, "y",
     "add(y, reduce[dims=(1), body=add](select(mask[i0 - i1 - 3 >= 0]:i1[n,n], A, 0:f64[n,n]), "
     "0))",
     0, "differ"},
    {"two reads of one array (A A^T)", gram, 1, "C",
     "add(C, dot_general[batch=(), contract=(1,1)](A, A))", 1, NULL},
    {"two reads of one array, through a transpose", gram, 1, "C",
     "add(C, dot_general[batch=(), contract=(1,0)](A, transpose[perm=(1,0)](A)))", 1, NULL},
    {"two reads of one array, the old C dropped", gram, 1, "C",
     "dot_general[batch=(), contract=(1,0)](A, transpose[perm=(1,0)](A))", 0, "differ"},
    {"matrix-vector", mv, 0, "x", "add(x, dot_general[batch=(), contract=(1,0)](A, y))", 1, NULL},
    {"matrix-vector, A transposed", mv, 0, "x",
     "add(x, dot_general[batch=(), contract=(0,0)](A, y))", 0, "differ"},
    {"matrix-vector, the old x dropped", mv, 0, "x", "dot_general[batch=(), contract=(1,0)](A, y)",
     0, "differ"},
    {"matrix-vector written out, x = x + e", mv_out, 0, "x",
     "add(x, dot_general[batch=(), contract=(1,0)](A, y))", 1, NULL},
    {"matrix-vector written out, x = e + x", mv_rev, 0, "x",
     "add(x, dot_general[batch=(), contract=(1,0)](A, y))", 1, NULL},
    {"matrix-vector written out, x = x - e", mv_sub, 0, "x",
     "subtract(x, dot_general[batch=(), contract=(1,0)](A, y))", 1, NULL},
    {"matrix-vector written out, the old x dropped", mv_out, 0, "x",
     "dot_general[batch=(), contract=(1,0)](A, y)", 0, "differ"},
    {"x = x + a + b is not an accumulation of a + b", mv_two, 0, "x",
     "add(x, reduce[dims=(1), body=add](add(A, broadcast_in_dim[dims=(1)](y):f64[n,n]), 0))", 0,
     "more than once"},
    {"a carried scalar", carried, 1, "B", "A", 0, NULL},
    {"x - x is not 0 (no cancellation)", cancel, 0, "B", "0:f64[n]", 0, "differ"},
    {"sqrt is out of reach", scale, 0, "B", "sqrt(A)", 0, "sqrt"},
};

/* The tampered versions of program p (text prog, output type ty) of
 * kernel k, as e2e_tamper.sh makes them; nochange: a version that is not
 * a change.  Returns the count written to out (each ir_malloc'd). */
static int tampered(const ir_kernel *k, const char *prog, const ir_type *ty, char **out,
                    char **nochange) {
  char dims[128] = "", s[64] = "", u[64] = "";
  for (int d = 0; d < ty->rank; d++) {
    const char *nm = ty->dims[d] == IR_DIM_ONE ? "1" : k->vars[ty->dims[d]]->name;
    snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%s", d ? "," : "", nm);
    if (!s[0] && ty->dims[d] != IR_DIM_ONE) snprintf(s, sizeof s, "%s", nm);
  }
  for (int v = 0; v < k->nvars && !u[0]; v++) {
    int used = 0;
    for (int d = 0; d < ty->rank; d++) used |= ty->dims[d] == v;
    if (k->vars[v]->kind == IR_VAR_SIZE && !used) snprintf(u, sizeof u, "%s", k->vars[v]->name);
  }
  const char *et = ty->elem == IR_F32 ? "f32" : "f64";
  ir_buf ch = {0};
  ir_buf_printf(&ch, "add(%s, 1:%s[%s])", prog, et, dims);
  const char *c = ir_buf_str(&ch);
  int n = 0;
  ir_buf b = {0};
#define TAMPER(...)                 \
  do {                              \
    ir_buf_printf(&b, __VA_ARGS__); \
    out[n++] = ir_buf_take(&b);     \
  } while (0)
  static const int sizes[] = {4, 9, 31}, idx[] = {4, 30};
  for (int i = 0; s[0] && i < 3; i++)
    TAMPER("select(mask[%s - %d >= 0]:i1[%s], %s, %s)", s, sizes[i], dims, c, prog);
  for (int i = 0; ty->rank && ty->dims[0] != IR_DIM_ONE && i < 2; i++)
    TAMPER("select(mask[i0 - %d >= 0]:i1[%s], %s, %s)", idx[i], dims, c, prog);
  if (u[0]) TAMPER("select(mask[%s - 2 >= 0]:i1[%s], %s, %s)", u, dims, c, prog);
  if (s[0]) {
    TAMPER("select(mask[%s - 9 >= 0]:i1[%s], multiply(%s, 2:%s[%s]), %s)", s, dims, prog, et,
           dims, prog);
    TAMPER("select(mask[%s - 4 >= 0]:i1[%s], %s, %s)", s, dims, prog, c);
    ir_buf_printf(&b, "select(mask[%s - 4 >= 0]:i1[%s], %s, %s)", s, dims, prog, prog);
    *nochange = ir_buf_take(&b);
  }
#undef TAMPER
  ir_buf_free(&ch);
  return n;
}

/* poly_all_sizes of program text prog for row t over analysis a: 1, 0, or
 * -1 when the text does not parse. */
static int prove(const as_test *t, const poly_analysis *a, const pipe_task_setup *ts,
                 ir_tp_store *store, const ir_tp_syntax *syn, const char *prog,
                 const ir_tnode **node, char *why, size_t n) {
  ir_error err;
  const ir_tnode *p = ir_tp_parse(store, prog, a->kernel, ts->in_args, ts->nin, syn, &err);
  if (node) *node = p;
  if (!p) {
    snprintf(why, n, "%.190s", err.msg);
    return -1;
  }
  int out = ir_kernel_find_var(a->kernel, t->out);
  poly_all_sizes_task at = {a, ts->mask, ts->nin, ts->in_vars, out, p, pipe_all_sizes_bind, NULL};
  return poly_all_sizes(&at, why, n);
}

static void run_table(const gram_dialect *d) {
  ir_tp_syntax syn;
  gram_term_syntax(d, &syn);
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    const as_test *t = &tests[i];
    ir_arena arena;
    ir_arena_init(&arena);
    ir_tp_store store;
    ir_tp_store_init(&store, &arena);
    ir_kernel *k = test_kernel_from_text(t->src, &arena);
    poly_analysis *a = k ? poly_analyze(k, &arena) : NULL;
    int ok = a && !a->error && a->ntasks > t->task;
    CHECKF(ok, "%s: analysed", t->name);
    if (!ok) goto next;
    pipe_task_setup ts;
    CHECKF(!pipe_task_setup_make(a, t->task, &store, &arena, &ts), "%s: setup", t->name);
    char why[200];
    const ir_tnode *prog;
    int got = prove(t, a, &ts, &store, &syn, t->prog, &prog, why, sizeof why);
    CHECKF(got >= 0, "%s: program parses (%s)", t->name, got >= 0 ? "" : why);
    if (got < 0) goto next;
    CHECKF(got == t->want, "%s: %s for all sizes (%s)", t->name, t->want ? "proved" : "not proved",
           got ? "proved" : why);
    if (!t->want && t->why)
      CHECKF(strstr(why, t->why) != NULL, "%s: the reason says %s (%s)", t->name, t->why, why);
    if (t->want) {
      char *tp[16], *same = NULL;
      int nt = tampered(a->kernel, t->prog, &prog->type, tp, &same);
      for (int j = 0; j < nt; j++) {
        int r = prove(t, a, &ts, &store, &syn, tp[j], NULL, why, sizeof why);
        CHECKF(r == 0, "%s: tampered %s is not proved for all sizes (%s)", t->name, tp[j],
               r ? (r > 0 ? "proved" : why) : why);
        ir_free(tp[j]);
      }
      if (same) {
        int r = prove(t, a, &ts, &store, &syn, same, NULL, why, sizeof why);
        CHECKF(r == 1, "%s: %s is the same program (%s)", t->name, same, r == 1 ? "" : why);
        ir_free(same);
      }
    }
  next:
    ir_tp_store_free(&store);
    ir_arena_free(&arena);
  }
}

int main(void) {
  ir_arena darena;
  ir_arena_init(&darena);
  gram_dialect *d = gram_load("hlo", &darena);
  CHECK("hlo loads", d != NULL);
  if (d) run_table(d);
  ir_arena_free(&darena);
  return TEST_REPORT();
}
