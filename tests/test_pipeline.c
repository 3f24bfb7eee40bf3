/* test_pipeline.c - one run of `uplift run` as pipeline/run.c does it
 * (pipe_run_one): the interpreter alone, the native comparison that agrees,
 * differs, cannot be made (poison) or cannot be compiled, the comparison of
 * a native source with the native original, a runtime error of the kernel
 * and timed native calls; each outcome with what the result carries.  The
 * kernels are the small ones of tests/native/ and benchmarks/kernels/.
 * And pipe_generalize: constant extents become pinned sizes where every
 * access stays inside its array for every size, and only there. */
#include <string.h>

#include "pipeline/pipeline.h"
#include "tests/harness.h"
#include "tests/kernel_text.h"

/* A parsed kernel and the default sizes of size set 0. */
typedef struct parsed {
  ir_arena arena;
  ir_kernel *k;
  long sizes[64];
} parsed;

static int parse(parsed *p, const char *path, const char *function) {
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  fe.function = function;
  ir_arena_init(&p->arena);
  p->k = fe_parse_file(path, &fe, &p->arena);
  CHECKF(p->k != NULL, "%s parses", path);
  if (!p->k) return -1;
  interp_default_sizes(p->k, 0, p->sizes);
  return 0;
}

/* Run path's kernel once with value set s; native: the file itself
 * (source: compile this instead; against: compare it with the file). */
static pipe_run_outcome run(parsed *p, const char *path, int native, const char *source,
                            int against, long time_runs, pipe_natives *nv, pipe_run_result *r) {
  pipe_native_opts no = {path, source, against, NULL, NULL, 10};
  pipe_run_opts o = {PIPE_VALUES_INT, 1, 10, native ? &no : NULL, time_runs};
  return pipe_run_one(p->k, p->sizes, &o, nv, r);
}

static void test_interpreter_alone(void) {
  parsed p;
  if (parse(&p, "benchmarks/kernels/gemm.c", NULL)) return;
  pipe_natives nv;
  memset(&nv, 0, sizeof nv);
  pipe_run_result r;
  int c = ir_kernel_find_var(p.k, "C"), a = ir_kernel_find_var(p.k, "A");
  CHECK("gemm in the interpreter: done", run(&p, "", 0, NULL, 0, 0, &nv, &r) == PIPE_RUN_DONE);
  CHECK("gemm: C is the one output, A is not one",
        r.written && c >= 0 && a >= 0 && r.written[c] && !r.written[a]);
  CHECK("gemm: no poison", r.poisoned == 0 && r.poison[c] == 0);
  CHECK("gemm: C has the default shape 3x5",
        r.have_env && r.env.vals[c].rank == 2 && r.env.vals[c].dims[0] == 3 &&
            r.env.vals[c].dims[1] == 5);
  CHECK("gemm without native code: nothing compiled", !nv.tried && !nv.nat);
  pipe_run_result_free(&r);

  CHECK("gemm natively: agrees",
        run(&p, "benchmarks/kernels/gemm.c", 1, NULL, 0, 0, &nv, &r) == PIPE_RUN_AGREES);
  CHECKF(r.diffs == 0 && r.compared == 15 && r.tol == 0,
         "gemm: 15 elements compared exactly (%ld, %g)", r.compared, r.tol);
  pipe_run_result_free(&r);
  CHECK("gemm: 2 timed native calls",
        run(&p, "benchmarks/kernels/gemm.c", 1, NULL, 0, 2, &nv, &r) == PIPE_RUN_TIMED &&
            r.ntimes == 2 && r.times && r.times[0] >= 0 && r.times[1] >= 0);
  CHECK("gemm: timing runs no interpreter", r.written == NULL);
  pipe_run_result_free(&r);
  pipe_natives_free(&nv);
  ir_arena_free(&p.arena);
}

static void test_native_outcomes(void) {
  parsed p;
  pipe_natives nv;
  pipe_run_result r;
  if (!parse(&p, "tests/native/differs.c", NULL)) {
    memset(&nv, 0, sizeof nv);
    int a = ir_kernel_find_var(p.k, "A");
    CHECK("differs.c: differs",
          run(&p, "tests/native/differs.c", 1, NULL, 0, 0, &nv, &r) == PIPE_RUN_DIFFERS);
    CHECKF(r.diffs == 1 && r.compared == 9 && r.first.var == a && r.first.index[0] == 2 &&
               r.first.index[1] == 1 && r.first.expected == 0 && r.first.got == 1,
           "differs.c: 1 of 9 elements, first A[2][1] (%ld of %ld, A[%ld][%ld])", r.diffs,
           r.compared, r.first.index[0], r.first.index[1]);
    pipe_run_result_free(&r);
    pipe_natives_free(&nv);
    ir_arena_free(&p.arena);
  }
  if (!parse(&p, "tests/native/uninit.c", NULL)) {
    memset(&nv, 0, sizeof nv);
    int a = ir_kernel_find_var(p.k, "A");
    CHECK("uninit.c: poison, not compared",
          run(&p, "tests/native/uninit.c", 1, NULL, 0, 0, &nv, &r) == PIPE_RUN_POISONED);
    CHECK("uninit.c: 3 poison elements of A", r.poisoned == 3 && r.poison[a] == 3);
    CHECK("uninit.c: nothing compiled for a comparison that cannot be made", !nv.tried);
    pipe_run_result_free(&r);
    /* against the native original the poison elements are left out */
    CHECK("uninit.c against itself: agrees",
          run(&p, "tests/native/uninit.c", 1, "tests/native/uninit.c", 1, 0, &nv, &r) ==
              PIPE_RUN_AGREES);
    CHECKF(r.poisoned == 3 && r.compared == 0, "uninit.c: no element compared (%ld)",
           r.compared);
    pipe_run_result_free(&r);
    pipe_natives_free(&nv);
    ir_arena_free(&p.arena);
  }
  if (!parse(&p, "tests/native/nocompile.c", NULL)) {
    memset(&nv, 0, sizeof nv);
    CHECK("nocompile.c: the native code fails",
          run(&p, "tests/native/nocompile.c", 1, NULL, 0, 0, &nv, &r) ==
              PIPE_RUN_NATIVE_FAILED);
    CHECKF(r.nres.status == INTERP_NATIVE_COMPILE && strstr(r.nres.msg, "nocompile.c"),
           "nocompile.c: the compiler's message (%s)", r.nres.msg);
    CHECK("nocompile.c: the interpreter still ran", r.written != NULL);
    pipe_run_result_free(&r);
    CHECK("nocompile.c, second run: not compiled again",
          run(&p, "tests/native/nocompile.c", 1, NULL, 0, 0, &nv, &r) ==
                  PIPE_RUN_NATIVE_FAILED &&
              strstr(r.nres.msg, "did not compile"));
    pipe_run_result_free(&r);
    pipe_natives_free(&nv);
    ir_arena_free(&p.arena);
  }
  if (!parse(&p, "tests/native/oob.c", NULL)) {
    memset(&nv, 0, sizeof nv);
    CHECK("oob.c: a runtime error",
          run(&p, "tests/native/oob.c", 1, NULL, 0, 0, &nv, &r) == PIPE_RUN_ERROR);
    CHECKF(r.err.code == IR_ERR_RANGE && r.err.pos.line == 6 &&
               strstr(r.err.msg, "out-of-range subscript"),
           "oob.c: the subscript at line 6 (%d: %s)", r.err.pos.line, r.err.msg);
    CHECK("oob.c: no native call after the error", !nv.tried);
    pipe_run_result_free(&r);
    pipe_natives_free(&nv);
    ir_arena_free(&p.arena);
  }
}

/* The generalized kernel of src: how many sizes were made (-1: does not
 * parse), the pinned variable named `name` (its kind, value), and whether
 * the loop bounds now read it. */
typedef struct gen_case {
  const char *what, *src;
  int nsizes;        /* pipe_generalize's answer */
  const char *name;  /* a constant extent's symbol, or NULL */
  long value;
} gen_case;

static int reads_var(const ir_expr *e, int v) {
  if (!e) return 0;
  if (e->kind == IR_EX_VAR && e->var == v) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (reads_var(e->args[i], v)) return 1;
  return 0;
}

static int loops_read(const ir_stmt *s, int v) {
  for (; s; s = s->next)
    if ((s->kind == IR_ST_FOR && (reads_var(s->hi, v) || loops_read(s->body, v))) ||
        (s->kind == IR_ST_IF && (loops_read(s->then_body, v) || loops_read(s->else_body, v))))
      return 1;
  return 0;
}

static void test_generalize(void) {
  static const gen_case cases[] = {
      {"a fixed-length loop over arrays of that length",
       "#define N 1000\nvoid f(const double x[N], double y[N]) {\n"
       "  for (int i = 0; i < N; i++) y[i] = 2.0 * x[i];\n}\n",
       1, "1000", 1000},
      {"a triangular loop nest under constant bounds (k < i < N)",
       "#define N 40\nvoid f(double A[N][N], double s[N]) {\n"
       "  for (int i = 0; i < N; i++)\n    for (int k = 0; k < i; k++) s[i] += A[i][k];\n}\n",
       1, "40", 40},
      {"a region of constant extent in size-parameter storage (SCALAR_LB)",
       "void f(int m, double x[m], double y[m]) {\n"
       "  for (int i = 0; i < 24; i++) y[i] = x[i];\n}\n",
       1, "24", 24},
      {"constant subscripts into a constant dim (rgb[i][2]) stay pinned",
       "void f(int n, const float rgb[n][3], float g[n]) {\n"
       "  for (int i = 0; i < n; i++) g[i] = rgb[i][0] + rgb[i][1] + rgb[i][2];\n}\n",
       0, "3", 3},
      {"a loop to 4 over x[8] needs 4 <= 8: both stay pinned",
       "void f(const float x[8], float y[8]) {\n"
       "  for (int i = 0; i < 4; i++) y[i] = x[i];\n}\n",
       0, "8", 8},
      {"a stencil's interior loop (1 <= i < N - 1): counted from the end",
       "#define N 64\nvoid f(const double a[N], double b[N]) {\n"
       "  for (int i = 1; i < N - 1; i++) b[i] = a[i - 1] + a[i + 1];\n}\n",
       1, "64", 64},
      {"a last element written by a constant subscript (c[N-1][N-1] = 1)",
       "#define N 50\nvoid f(double c[N][N]) {\n"
       "  for (int i = 0; i < N - 1; i++) c[i][i] = 1.0;\n  c[N - 1][N - 1] = 1.0;\n}\n",
       1, "50", 50},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const gen_case *g = &cases[c];
    ir_arena arena;
    ir_arena_init(&arena);
    ir_kernel *k = test_kernel_from_text(g->src, &arena);
    CHECKF(k != NULL, "generalize: %s: parses", g->what);
    if (!k) {
      ir_arena_free(&arena);
      continue;
    }
    int n = pipe_generalize(k, &arena);
    CHECKF(n == g->nsizes, "generalize: %s: %d sizes made (want %d)", g->what, n, g->nsizes);
    int v = ir_kernel_find_var(k, g->name);
    CHECKF(v >= 0, "generalize: %s: the symbol %s exists", g->what, g->name);
    if (v >= 0) {
      const ir_var *x = k->vars[v];
      CHECKF(x->value == g->value, "generalize: %s: %s has value %ld", g->what, g->name,
             x->value);
      if (g->nsizes) {
        CHECKF(x->kind == IR_VAR_SIZE && x->pinned && x->param_index < 0,
               "generalize: %s: %s is a pinned size, not a C parameter", g->what, g->name);
        CHECKF(loops_read(k->body, v), "generalize: %s: a loop bound reads %s", g->what,
               g->name);
        CHECKF(poly_accesses_in_range(k), "generalize: %s: every access is in range", g->what);
        long sizes[64] = {0};
        ir_kernel_pin_constants(k, sizes);
        CHECKF(sizes[v] == g->value, "generalize: %s: pinning gives %s its value", g->what,
               g->name);
      } else {
        CHECKF(x->kind == IR_VAR_EXTENT && !x->pinned && !loops_read(k->body, v),
               "generalize: %s: the kernel is as written (%s a constant extent)", g->what,
               g->name);
      }
    }
    ir_arena_free(&arena);
  }
}

int main(void) {
  test_generalize();
  test_interpreter_alone();
  test_native_outcomes();
  CHECKF(ir_mem_live() == 0, "no leaks (%ld blocks live)", ir_mem_live());
  return TEST_REPORT();
}
