/* test_rmax.c - running maxima and minima as C writes them, end to end.
 *
 * `if (x[i] > m) m = x[i]` skips a NaN element and keeps the earlier of two
 * equal zeros; no max op does either (docs/verify.md, "Conditional
 * updates").  For corpus kernels written so (a 1-D maximum by `?:`, a 1-D
 * minimum returned, a 2-D row maximum started at -INFINITY, the same with
 * the row's first element and the loop from 1, a CMSIS-style `while`, and
 * a clamp `fminf(fmaxf(x, lo), hi)`), each is raised to linalg with
 * verification: every task must be proved outright (no assumption on the
 * inputs).  The raised program then runs as MLIR
 * (mlir-opt-16, mlir-cpu-runner-16) and as the emitted C (--emit c,
 * compiled in place of the original) on inputs where a max op is wrong: a
 * NaN first, in the middle, last and everywhere, -0 before +0 and the
 * reverse, all -inf, one element and none; each result must agree with
 * the natively compiled original element by element, NaN with NaN and a
 * zero with a zero of its sign (values through exp within 1e-4).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "interp/interp.h"
#include "pipeline/pipeline.h"
#include "tests/harness.h"

static const char *const files[] = {
    "tests/realc/inf_max_select.c", "tests/realc/vec_min_ret.c",
    "tests/realc/inf_softmax_rows.c", "tests/realc/inf_softmax_first.c",
    "tests/realc/dsp_max_f32.c", "tests/realc/dsp_clip_f32.c"};
#define NFILES (int)(sizeof files / sizeof files[0])

/* Rows of three: a NaN first, in the middle, last, everywhere; -0 before
 * +0 and the reverse; all -inf; a NaN between zeros of both signs. */
static const double pool[] = {NAN, 1, 2,  1, NAN, 2,  2, 1, NAN,  NAN, NAN, NAN,
                              -0.0, 0.0, -1,  0.0, -0.0, -1,  -INFINITY, -INFINITY, -INFINITY,
                              0.0, NAN, -0.0};
#define NPOOL (int)(sizeof pool / sizeof pool[0])

/* One run: every size of the kernel (in signature order) the first or the
 * second extent, the first floating array's elements from pool[off]. */
typedef struct rcase {
  long ext[2];
  int off;
} rcase;
static const rcase cases[] = {
    {{3, 3}, 0}, {{3, 3}, 3}, {{3, 3}, 6}, {{3, 3}, 9}, {{3, 3}, 12}, {{3, 3}, 15},
    {{3, 3}, 18}, {{3, 3}, 21}, {{8, 3}, 0}, {{1, 1}, 12}, {{1, 1}, 0}, {{0, 0}, 0},
    {{2, 0}, 0}, {{2, 2}, 12}, {{2, 2}, 14}};
#define NCASES (int)(sizeof cases / sizeof cases[0])

typedef struct fill {
  int first;  /* the var filled from the pool */
  int off;
  long at;    /* the next element of it */
} fill;

/* The first floating array from the pool (cyclically from off), every
 * other floating parameter (a clamp's bounds, a start) 0.5, -0.5, ... */
static double draw(interp_rng *r, const ir_var *v, void *user) {
  (void)r;
  fill *f = user;
  if (v->id == f->first) return pool[(f->off + f->at++) % NPOOL];
  return (f->at++ % 2) ? -0.5 : 0.5;
}

/* NaN with NaN; a zero with a zero of its sign; else within rtol. */
static int agrees(double want, double got, double rtol) {
  if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
  if (want == 0 && got == 0) return signbit(want) == signbit(got);
  return interp_values_agree(want, got, rtol);
}

typedef struct fcase {
  ir_arena arena;
  ir_tp_store store;
  fe_options fe;
  pipe_raised pr;
  int raised;
  char cpath[64]; /* the emitted C */
} fcase;

/* Raise path to linalg with verification; every task proved outright. */
static void raise_one(fcase *c, const char *path, const gram_dialect *d) {
  memset(c, 0, sizeof *c);
  ir_arena_init(&c->arena);
  ir_tp_store_init(&c->store, &c->arena);
  pipe_raise_opts po = {.fe = &c->fe, .d = d};
  enum_default_options(&po.search);
  po.search.timeout = 600; /* a hang guard: the work budget decides */
  po.search.work = 300;
  verify_options_default(&po.verify);
  ir_error err = {0};
  pipe_error pe = pipe_raise_file(path, &po, &c->arena, &c->store, &c->pr, &err);
  c->raised = pe == PIPE_OK && c->pr.res.raised;
  CHECKF(c->raised, "%s raises to linalg (%s)", path, c->raised ? "" : err.msg);
  if (!c->raised) return;
  int ntasks = 0, outright = 0;
  for (int t = 0; t < c->pr.res.ntasks; t++)
    for (int o = 0; o < c->pr.res.tasks[t].noutputs; o++) {
      const enum_verify_result *v = &c->pr.res.tasks[t].outputs[o].verify;
      ntasks++;
      /* no assumption on the inputs (a zero's sign in a reassociated sum
       * is another matter: the softmax's sums) */
      outright += v->verdict == ENUM_PROVED &&
                  !(v->assumes & (VERIFY_ASSUMES_ORDINARY | VERIFY_ASSUMES_FINITE));
    }
  CHECKF(ntasks > 0 && outright == ntasks, "%s: %d of %d task outputs proved outright in linalg",
         path, outright, ntasks);
  /* the C replacement of the kernel */
  snprintf(c->cpath, sizeof c->cpath, "/tmp/uplift_rmax_%d.c", (int)getpid());
  FILE *f = fopen(c->cpath, "w");
  int rc = f ? pipe_emit(&c->pr, PIPE_EMIT_C, NULL, f, &err) : -1;
  if (f) fclose(f);
  CHECKF(rc == 0, "%s: --emit c writes the program (%s)", path, rc ? err.msg : "");
}

static void case_free(fcase *c) {
  if (c->cpath[0]) remove(c->cpath);
  ir_tp_store_free(&c->store);
  ir_arena_free(&c->arena);
  pipe_fe_options_free(&c->fe);
}

/* Fill env for case rc: the sizes, the parameters. */
static int case_env(const ir_kernel *k, const rcase *rc, interp_env *env) {
  long *sizes = ir_calloc((size_t)k->nvars, sizeof(long));
  int ns = 0;
  fill f = {-1, rc->off, 0};
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *x = k->vars[v];
    if (x->kind == IR_VAR_SIZE) sizes[v] = rc->ext[ns++ > 0];
    if (f.first < 0 && x->kind == IR_VAR_ARRAY && x->rank > 0 && ir_elem_is_float(x->elem))
      f.first = v;
  }
  interp_error err;
  int r = interp_env_init(env, k, sizes, &err);
  ir_free(sizes);
  if (r) return -1;
  interp_fill_params(env, 1, draw, &f);
  return 0;
}

/* The natively compiled original, the emitted C and the MLIR on every case. */
static void run_cases(fcase *c, const char *path, const gram_dialect *d) {
  const ir_kernel *k = c->pr.k;
  const ir_tprog *p = &c->pr.res.prog;
  interp_native_result nres;
  interp_native *orig = interp_native_compile(k, path, &c->fe, &nres);
  CHECKF(orig != NULL, "%s compiles natively (%s)", path, orig ? "" : nres.msg);
  char blas[256] = "";
  FILE *pc = popen("pkg-config --cflags --libs openblas", "r");
  if (pc && !fgets(blas, sizeof blas, pc)) blas[0] = 0;
  if (pc) pclose(pc);
  blas[strcspn(blas, "\n")] = 0;
  const char *extra[8] = {NULL};
  int ne = 0;
  for (char *save = NULL, *t = strtok_r(blas, " ", &save); t && ne < 7; t = strtok_r(NULL, " ", &save))
    extra[ne++] = t;
  interp_native *emitted = interp_native_compile_with(k, c->cpath, &c->fe, extra, &nres);
  CHECKF(emitted != NULL, "%s: the emitted C compiles (%s)", path, emitted ? "" : nres.msg);
  if (!orig || !emitted) {
    if (orig) interp_native_free(orig);
    if (emitted) interp_native_free(emitted);
    return;
  }
  emit_run runs[NCASES];
  interp_env want[NCASES];
  long sizes[NCASES][64];
  memset(runs, 0, sizeof runs);
  int n = 0, cbad = 0;
  for (int i = 0; i < NCASES; i++) {
    interp_env ce;
    if (k->nvars > 64 || case_env(k, &cases[i], &want[n])) continue;
    case_env(k, &cases[i], &ce);
    runs[n].inputs = ir_calloc((size_t)p->nargs, sizeof(ir_tensor));
    for (int a = 0; a < p->nargs; a++) {
      ir_tensor *in = (ir_tensor *)&runs[n].inputs[a];
      *in = want[n].vals[p->args[a]->arg];
      size_t sz = ir_tensor_size(in);
      in->data = ir_malloc((sz ? sz : 1) * sizeof(double));
      memcpy(in->data, want[n].vals[p->args[a]->arg].data, sz * sizeof(double));
      in->poison = NULL;
    }
    for (int v = 0; v < k->nvars; v++) sizes[n][v] = want[n].sizes[v];
    runs[n].prog = p;
    runs[n].sizes = sizes[n];
    runs[n].nsizes = k->nvars;
    int r1 = interp_native_call(orig, &want[n], NULL, &nres);
    int r2 = r1 ? -1 : interp_native_call(emitted, &ce, NULL, &nres);
    CHECKF(!r1 && !r2, "%s case %d: native runs (%s)", path, i, nres.msg);
    for (int o = 0; o < p->nresults && !r1 && !r2; o++) {
      int v = c->pr.res.result_vars[o];
      size_t sz = ir_tensor_size(&want[n].vals[v]);
      for (size_t j = 0; j < sz; j++)
        if (!agrees(want[n].vals[v].data[j], ce.vals[v].data[j], 1e-4) && cbad++ < 3)
          CHECKF(0, "%s case %d: emitted C: %s[%zu] is %g, the original's %g", path, i,
                 k->vars[v]->name, j, ce.vals[v].data[j], want[n].vals[v].data[j]);
    }
    interp_env_free(&ce);
    n++;
  }
  CHECKF(n == NCASES && cbad == 0, "%s: the emitted C agrees with the original on %d cases (%d differ)",
         path, n, cbad);
  ir_error err = {0};
  int rc = emit_mlir_run(d, runs, n, &err, NULL);
  CHECKF(rc == 0, "%s: the linalg MLIR lowers and runs (%.300s)", path, rc ? err.msg : "");
  int mbad = 0;
  for (int i = 0; i < n; i++) {
    for (int o = 0; o < p->nresults && rc == 0; o++) {
      int v = c->pr.res.result_vars[o];
      const ir_tensor *g = &runs[i].outputs[o];
      size_t sz = ir_tensor_size(&want[i].vals[v]);
      for (size_t j = 0; j < sz && g->data && sz == ir_tensor_size(g); j++)
        if (!agrees(want[i].vals[v].data[j], g->data[j], 1e-4) && mbad++ < 3)
          CHECKF(0, "%s run %d: MLIR: %s[%zu] is %g, the original's %g", path, i,
                 k->vars[v]->name, j, g->data[j], want[i].vals[v].data[j]);
      emit_tensor_free(&runs[i].outputs[o]);
    }
    for (int a = 0; a < p->nargs; a++) emit_tensor_free((ir_tensor *)&runs[i].inputs[a]);
    ir_free((void *)runs[i].inputs);
    interp_env_free(&want[i]);
  }
  CHECKF(rc == 0 && mbad == 0, "%s: the MLIR agrees with the original on %d cases (%d differ)",
         path, n, mbad);
  interp_native_free(orig);
  interp_native_free(emitted);
}

int main(void) {
  CHECK("mlir-opt-16, mlir-cpu-runner-16 and the runner libraries are installed (mk/deps.sh)",
        emit_mlir_tools_available());
  if (!emit_mlir_tools_available()) return TEST_REPORT();
  ir_arena da;
  ir_arena_init(&da);
  gram_dialect *d = gram_load("linalg", &da);
  CHECK("linalg loads", d != NULL);
  for (int i = 0; d && i < NFILES; i++) {
    fcase c;
    raise_one(&c, files[i], d);
    if (c.raised && c.cpath[0]) run_cases(&c, files[i], d);
    case_free(&c);
  }
  ir_arena_free(&da);
  CHECK("no leaks", ir_mem_live() == 0);
  return TEST_REPORT();
}
