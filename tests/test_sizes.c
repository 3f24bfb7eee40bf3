/*
 * test_sizes.c - verification is sound at every size (issue 12).
 *
 * Three tables:
 *   - poly_size_cases_build: the representatives of the size cases of a
 *     kernel (and of extra candidate masks) include a point of each case
 *     that a table entry names (an expected size assignment must be one of
 *     the representatives);
 *   - kernels whose behaviour changes at sizes the small examples and the
 *     bounded box never reach (guards on sizes, thresholds, offsets, loops
 *     empty at small sizes): each is raised to hlo with the real verifier at
 *     bound 3; either it is not raised or some output is not proved, or the
 *     raised program agrees with the loop interpreter at every size
 *     assignment of the entry (chosen by hand to expose the difference);
 *     entries marked `must` have to be raised and proved;
 *   - the verifier on hand-written wrong candidates whose error shows only
 *     at some sizes (an unused size in a mask, a threshold beyond the box):
 *     refuted, with a counterexample the concrete runs confirm; or, when
 *     the size case that shows it is too large to check, unknown with the
 *     case named, never proved.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enumerator/enumerator.h"
#include "interp/interp.h"
#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"
#include "tests/harness.h"
#include "tests/kernel_text.h"
#include "verify/verify.h"


static int var_named(const ir_kernel *k, const char *name) {
  for (int v = 0; v < k->nvars; v++)
    if (!strcmp(k->vars[v]->name, name)) return v;
  return -1;
}

/* Parse "n=3 m=5" into sizes (every other size 1).  Returns -1 on an
 * unknown name. */
static int parse_sizes(const ir_kernel *k, const char *text, long *sizes) {
  for (int v = 0; v < k->nvars; v++) sizes[v] = k->vars[v]->kind == IR_VAR_SIZE ? 1 : 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
    char *eq = strchr(tok, '=');
    if (!eq) return -1;
    *eq = 0;
    int v = var_named(k, tok);
    if (v < 0) return -1;
    sizes[v] = atol(eq + 1);
  }
  return 0;
}

/* ------------------------------------------------------------ size cases */

typedef struct case_test {
  const char *src;
  const char *want; /* a size assignment among the representatives */
} case_test;

static const case_test case_tests[] = {
    {"void kernel_g(int n, double A[n], double B[n]) {\n"
     "  if (n > 2) for (int i = 0; i < n; i++) B[i] = A[i];\n}\n",
     "n=3"},
    {"void kernel_g(int n, double A[n], double B[n]) {\n"
     "  if (n > 2) for (int i = 0; i < n; i++) B[i] = A[i];\n}\n",
     "n=0"},
    {"void kernel_t(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = (i >= 30) ? 2.0 * A[i] : A[i];\n}\n",
     "n=31"},
    {"void kernel_k(int n, double A[n][n], double x[n]) {\n"
     "  for (int i = 0; i < n; i++) for (int k = 100; k < n; k++) x[i] += A[i][k];\n}\n",
     "n=101"},
    {"void kernel_o(int n, int m, double A[m], double B[m]) {\n"
     "  for (int i = n + 2; i < m; i++) B[i] = 2.0 * A[i];\n}\n",
     "n=0 m=3"},
    {"void kernel_e(int n, int m, double A[n][m], double x[n]) {\n"
     "  for (int i = 0; i < n; i++) { x[i] = 0.0; for (int j = 0; j < m; j++) x[i] += A[i][j]; }\n}\n",
     "n=1 m=0"},
};

static void test_case_tables(void) {
  for (size_t i = 0; i < sizeof case_tests / sizeof case_tests[0]; i++) {
    ir_arena arena;
    ir_arena_init(&arena);
    ir_kernel *k = test_kernel_from_text(case_tests[i].src, &arena);
    CHECKF(k != NULL, "size cases %zu: parses", i);
    if (!k) {
      ir_arena_free(&arena);
      continue;
    }
    long *want = ir_calloc((size_t)k->nvars + 1, sizeof(long));
    CHECKF(!parse_sizes(k, case_tests[i].want, want), "size cases %zu: names", i);
    poly_size_cases sc;
    int r = poly_size_cases_build(k, NULL, 0, NULL, 64, &sc);
    CHECKF(r == 0 && sc.left_out == 0, "size cases %zu: built, none left out", i);
    int found = 0;
    for (int c = 0; c < sc.ncases && !found; c++) {
      int same = 1;
      for (int v = 0; v < k->nvars; v++)
        if (k->vars[v]->kind == IR_VAR_SIZE && sc.cases[(long)c * k->nvars + v] != want[v])
          same = 0;
      found = same;
    }
    CHECKF(found, "size cases %zu: %s is a representative (%d cases)", i, case_tests[i].want,
           sc.ncases);
    poly_size_cases_free(&sc);
    ir_free(want);
    ir_arena_free(&arena);
  }
}

/* ----------------------------------------------------------- raising */

typedef struct raise_test {
  const char *name;
  const char *src;
  const char *sizes[4]; /* size assignments that expose a wrong program */
  int must;             /* must be raised and proved */
} raise_test;

static const raise_test raise_tests[] = {
    {"guard n > 2",
     "void kernel_guard(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = A[i];\n"
     "  if (n > 2)\n"
     "    for (int i = 0; i < n; i++) B[i] = 2.0 * A[i];\n}\n",
     {"n=1", "n=2", "n=3", "n=0"}, 1},
    {"guarded scalar",
     "void kernel_gscalar(int n, double A[n], double B[n]) {\n"
     "  double c = 1.0;\n"
     "  if (n > 2) c = 2.0;\n"
     "  for (int i = 0; i < n; i++) B[i] = c * A[i];\n}\n",
     {"n=1", "n=2", "n=3", NULL}, 1},
    {"guard n > 30",
     "void kernel_guard30(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = A[i];\n"
     "  if (n > 30)\n"
     "    for (int i = 0; i < n; i++) B[i] = 2.0 * A[i];\n}\n",
     {"n=2", "n=31", "n=40", NULL}, 1},
    {"guard n >= 100 on a 1-d array",
     "void kernel_guard100(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = A[i] + 1.0;\n"
     "  if (n >= 100)\n"
     "    for (int i = 0; i < n; i++) B[i] = A[i] - 1.0;\n}\n",
     {"n=99", "n=100", NULL, NULL}, 0},
    {"threshold i >= 30",
     "void kernel_thr(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = (i >= 30) ? 2.0 * A[i] : A[i];\n}\n",
     {"n=31", "n=33", NULL, NULL}, 0},
    {"reduction from k = 30",
     "void kernel_thrk(int n, double A[n][n], double x[n]) {\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    x[i] = 0.0;\n"
     "    for (int k = 30; k < n; k++) x[i] += A[i][k];\n  }\n}\n",
     {"n=31", "n=32", "n=3", NULL}, 0},
    {"offset n + 2 .. m",
     "void kernel_off(int n, int m, double A[m], double B[m]) {\n"
     "  for (int i = 0; i < m; i++) B[i] = A[i];\n"
     "  for (int i = n + 2; i < m; i++) B[i] = 2.0 * A[i];\n}\n",
     {"n=1 m=2", "n=1 m=4", "n=3 m=2", "n=0 m=5"}, 1},
    {"inner loop empty at small sizes",
     "void kernel_empty(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    B[i] = 1.0;\n"
     "    for (int j = 2; j < n; j++) B[i] = B[i] + A[j];\n  }\n}\n",
     {"n=1", "n=2", "n=3", "n=5"}, 0},
};

/* Run the whole raised program at sizes against the loop interpreter on
 * seeded random inputs.  Returns 1 when every output agrees. */
static int agrees_at(const ir_kernel *k, const enum_result *res, const long *sizes) {
  interp_env env;
  interp_error err;
  if (interp_env_init(&env, k, sizes, &err)) return 0;
  interp_fill_random(&env, 7);
  ir_tensor *args = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
  for (int v = 0; v < k->nvars; v++) {
    if (!env.vals[v].data) continue;
    args[v] = env.vals[v];
    size_t n = ir_tensor_size(&env.vals[v]);
    args[v].data = ir_malloc((n ? n : 1) * sizeof(double));
    memcpy(args[v].data, env.vals[v].data, n * sizeof(double));
    args[v].poison = NULL;
  }
  int ok = !interp_run(&env, NULL, &err);
  for (int i = 0; ok && i < res->prog.nresults; i++) {
    ir_tensor got;
    interp_err ierr;
    int v = res->result_vars[i];
    if (enum_eval_node(res->prog.results[i], args, k->nvars, sizes, &got, &ierr)) {
      ok = 0;
      break;
    }
    size_t n = ir_tensor_size(&got);
    ok = n == ir_tensor_size(&env.vals[v]);
    for (size_t j = 0; ok && j < n; j++)
      ok = !(got.poison && got.poison[j]) &&
           interp_values_agree(env.vals[v].data[j], got.data[j], 1e-9);
    interp_tensor_free(&got);
  }
  for (int v = 0; v < k->nvars; v++) ir_free(args[v].data);
  ir_free(args);
  interp_env_free(&env);
  return ok;
}

static void test_raise_table(const gram_dialect *d) {
  for (size_t i = 0; i < sizeof raise_tests / sizeof raise_tests[0]; i++) {
    const raise_test *rt = &raise_tests[i];
    ir_arena arena;
    ir_arena_init(&arena);
    ir_tp_store store;
    ir_tp_store_init(&store, &arena);
    ir_kernel *k = test_kernel_from_text(rt->src, &arena);
    CHECKF(k != NULL, "%s: parses", rt->name);
    poly_analysis *a = k ? poly_analyze(k, &arena) : NULL;
    if (!a || a->error || !a->raisable) {
      CHECKF(!rt->must, "%s: raisable", rt->name);
      goto next;
    }
    verify_options vo;
    verify_options_default(&vo);
    pipe_verify_state vs;
    memset(&vs, 0, sizeof vs);
    vs.v = verify_new(&vo);
    enum_options eo;
    enum_default_options(&eo);
    eo.timeout = rt->must ? 60 : 4; /* the outcome of the others may be either */
    eo.threads = 1;
    enum_result res;
    int r = pipe_raise_analysed(a, d, &eo, &vs, &store, &arena, &res);
    int proved = r == 0 && res.raised;
    long cases = 0;
    for (int t = 0; proved && t < res.ntasks; t++)
      for (int o = 0; o < res.tasks[t].noutputs; o++) {
        proved &= res.tasks[t].outputs[o].verify.verdict == ENUM_PROVED;
        cases += res.tasks[t].outputs[o].verify.size_cases;
      }
    printf("  %s: %s\n", rt->name, proved ? "raised and proved" : "not raised or not proved");
    CHECKF(proved || !rt->must, "%s: raised and proved", rt->name);
    if (proved) {
      CHECKF(cases > 0, "%s: size cases counted", rt->name);
      long *sizes = ir_calloc((size_t)a->kernel->nvars + 1, sizeof(long));
      for (int s = 0; s < 4 && rt->sizes[s]; s++) {
        CHECKF(!parse_sizes(a->kernel, rt->sizes[s], sizes), "%s: sizes", rt->name);
        CHECKF(agrees_at(a->kernel, &res, sizes), "%s: proved program agrees at %s", rt->name,
               rt->sizes[s]);
      }
      ir_free(sizes);
    }
    pipe_verify_state_free(&vs);
    verify_free(vs.v);
  next:
    ir_tp_store_free(&store);
    ir_arena_free(&arena);
  }
}

/* ------------------------------------------------- wrong candidates */

typedef struct cand_test {
  const char *name;
  const char *src;
  int task;
  const char *prog;     /* over the task's inputs */
  const char *where;    /* text the reason names ("nk=2") */
  verify_verdict want;  /* refuted, or unknown (a case left out) */
} cand_test;

static const char gemm_src[] =
    "void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,\n"
    "                 double C[ni][nj], double A[ni][nk], double B[nk][nj]) {\n"
    "  for (int i = 0; i < ni; i++) {\n"
    "    for (int j = 0; j < nj; j++) C[i][j] *= beta;\n"
    "    for (int k = 0; k < nk; k++)\n"
    "      for (int j = 0; j < nj; j++) C[i][j] += alpha * A[i][k] * B[k][j];\n"
    "  }\n}\n";

static const cand_test cand_tests[] = {
    {"mask on an unused size (nk)", gemm_src, 0,
     "select(mask[nk - 2 >= 0]:i1[ni,nj], C, multiply(C, beta))", "nk=2", VERIFY_REFUTED},
    {"mask on an unused size beyond the box", gemm_src, 0,
     "select(mask[nk - 40 >= 0]:i1[ni,nj], C, multiply(C, beta))", "nk=40", VERIFY_REFUTED},
    {"mask on a used size beyond the box",
     "void kernel_s(int n, double A[n], double B[n]) {\n"
     "  for (int i = 0; i < n; i++) B[i] = 2.0 * A[i];\n}\n",
     0, "select(mask[n - 50 >= 0]:i1[n], A, multiply(A, 2:f64[n]))", "n=50", VERIFY_REFUTED},
    {"a threshold whose case is too large to check",
     "void kernel_big(int n, double A[n][n], double B[n][n]) {\n"
     "  for (int i = 0; i < n; i++)\n"
     "    for (int j = 0; j < n; j++) B[i][j] = (i >= 200) ? 2.0 * A[i][j] : A[i][j];\n}\n",
     0, "A", "n=201", VERIFY_UNKNOWN},
};

static void test_cand_table(const gram_dialect *d) {
  ir_tp_syntax syn;
  gram_term_syntax(d, &syn);
  for (size_t i = 0; i < sizeof cand_tests / sizeof cand_tests[0]; i++) {
    const cand_test *ct = &cand_tests[i];
    ir_arena arena;
    ir_arena_init(&arena);
    ir_tp_store store;
    ir_tp_store_init(&store, &arena);
    ir_kernel *k = test_kernel_from_text(ct->src, &arena);
    poly_analysis *a = k ? poly_analyze(k, &arena) : NULL;
    CHECKF(a && !a->error && a->ntasks > ct->task, "%s: analysed", ct->name);
    if (!a || a->error || a->ntasks <= ct->task) goto next;
    pipe_task_setup ts;
    CHECKF(!pipe_task_setup_make(a, ct->task, &store, &arena, &ts), "%s: setup", ct->name);
    ir_error err;
    const ir_tnode *prog = ir_tp_parse(&store, ct->prog, a->kernel, ts.in_args, ts.nin, &syn,
                                       &err);
    CHECKF(prog != NULL, "%s: program parses (%s)", ct->name, prog ? "" : err.msg);
    if (!prog) goto next;
    verify_options vo;
    verify_options_default(&vo);
    pipe_verify_state vs;
    memset(&vs, 0, sizeof vs);
    vs.v = verify_new(&vo);
    enum_query q = {a->kernel, a, ct->task, ts.mask, ts.nin, ts.in_vars, ts.in_args,
                    a->tasks[ct->task].outputs[0].var, prog, d, 0};
    enum_verify_result r;
    pipe_verify_cb(&vs, &q, &r);
    CHECKF(vs.last->verdict == ct->want, "%s: %s (%s: %s)", ct->name,
           verify_verdict_name(ct->want), verify_verdict_name(vs.last->verdict),
           vs.last->reason);
    if (ct->want == VERIFY_REFUTED)
      CHECKF(r.verdict == ENUM_REFUTED && vs.last->cex && vs.last->cex->confirmed,
             "%s: confirmed by the interpreter", ct->name);
    else
      CHECKF(r.verdict != ENUM_PROVED && vs.last->cases_left_out > 0,
             "%s: a case left out, not proved", ct->name);
    CHECKF(strstr(vs.last->reason, ct->where) != NULL, "%s: at %s (%s)", ct->name, ct->where,
           vs.last->reason);
    pipe_verify_state_free(&vs);
    verify_free(vs.v);
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
  test_case_tables();
  if (d) {
    test_raise_table(d);
    test_cand_table(d);
  }
  ir_arena_free(&darena);
  return TEST_REPORT();
}
