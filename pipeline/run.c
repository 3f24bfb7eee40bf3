/*
 * run.c - what `uplift run` does beyond its options and its report: the
 * input value sets of --values (docs/run.md, "Inputs"), the tolerance of a
 * comparison on each, the memory an interpreter run needs, the native
 * compilation of a kernel with extra cc arguments (once per command), the
 * outputs a run reports, the comparison of a native run with its
 * reference, the median of timed runs, and pipe_run_one, which does one
 * whole run (inputs, interpreter, native calls, comparison) and returns
 * what happened for cli/cmd_run.c to print.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "pipeline/pipeline.h"

const char *pipe_values_name(pipe_values s) {
  static const char *const names[PIPE_VALUES_COUNT] = {"int", "real", "special", "huge"};
  return s >= 0 && s < PIPE_VALUES_COUNT ? names[s] : "?";
}

/* One value of set s (not PIPE_VALUES_INT) for an element of type elem.
 * A quarter (REAL) or a third (SPECIAL, HUGE) of the draws come from the
 * set's pool of telling values, the rest are non-integers in -4..4. */
static double draw_value(interp_rng *r, pipe_values s, ir_elem elem) {
  static const double real_pool[] = {0.1, -0.1, 0.5, -2.5, 3.75, -0.0, 0.0, 1, -1};
  static const double special_pool[] = {NAN, INFINITY, -INFINITY, -0.0, NAN, 0.1};
  static const double huge_pool[] = {1e300,  -1e300,   3.5e38,    -3.5e38,
                                     1e-310, 1e-40,    16777217.0, -16777219.0,
                                     0.1,    1e-320};
  /* int data: no NaN in an int; values that change when rounded to float
   * (2^24 + 1) and near the int product limit (46340^2 fits, 46341^2 does
   * not: products of two pool values may overflow, undefined in C) */
  static const double int_pool[] = {0, 1, -1, 7, -46341, 46340, 16777217, -16777219};
#define POOL(p) (p)[interp_rng_range(r, 0, (long)(sizeof(p) / sizeof(p)[0]) - 1)]
  if (elem == IR_I32 || elem == IR_I64)
    return interp_rng_range(r, 0, 2) ? (double)interp_rng_range(r, -9, 9) : POOL(int_pool);
  if (elem == IR_I1) return (double)interp_rng_range(r, 0, 1);
  switch (s) {
  case PIPE_VALUES_SPECIAL:
    if (!interp_rng_range(r, 0, 2)) return POOL(special_pool);
    break;
  case PIPE_VALUES_HUGE:
    if (!interp_rng_range(r, 0, 2)) return POOL(huge_pool);
    break;
  default: break;
  }
  if (!interp_rng_range(r, 0, 3)) return POOL(real_pool);
  return (double)interp_rng_range(r, -4000, 4000) / 1000.0;
#undef POOL
}

/* Fill every scalar and array parameter of env from value set s, seeded,
 * in signature order, row-major (values converted to the element type as
 * C converts them). */
static double draw_var(interp_rng *r, const ir_var *var, void *user) {
  return draw_value(r, *(const pipe_values *)user, var->elem);
}

void pipe_fill_values(interp_env *env, pipe_values s, uint64_t seed) {
  if (s == PIPE_VALUES_INT) interp_fill_random(env, seed);
  else interp_fill_params(env, seed, draw_var, &s);
}

/* The bytes the interpreter's env needs at these sizes (values and poison
 * masks of every array and scalar: 9 bytes an element); a negative dim
 * counts 0 (interp_env_init reports it). */
double pipe_env_bytes(const ir_kernel *k, const long *sizes) {
  long n = ir_kernel_elements(k, sizes, LONG_MAX / 16);
  return n < 0 ? 0 : (double)n * (sizeof(double) + 1);
}

/* The tolerance of a comparison: the kernel's (interp_kernel_tolerance)
 * on integer inputs; on the other value sets, whose rounding depends on the
 * order of operations, 1e-9 (double) or 1e-4 (float data) relative. */
double pipe_run_tolerance(const ir_kernel *k, pipe_values s) {
  double tol = interp_kernel_tolerance(k);
  if (s == PIPE_VALUES_INT) return tol;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->elem == IR_F32) return 1e-4;
  return 1e-9;
}

interp_native *pipe_native_compile(const ir_kernel *k, const char *path, const fe_options *fe,
                                   const char *cflags, interp_native_result *res) {
  char *words = ir_strdup(cflags ? cflags : "");
  /* every word is kept: at most one word per two characters */
  const char **extra = ir_calloc(strlen(words) / 2 + 2, sizeof *extra);
  int nx = 0;
  for (char *w = strtok(words, " \t\n"); w; w = strtok(NULL, " \t\n")) extra[nx++] = w;
  extra[nx] = NULL;
  interp_native *nat = interp_native_compile_with(k, path, fe, extra, res);
  ir_free(extra);
  ir_free(words);
  return nat;
}

int pipe_natives_get(pipe_natives *nv, const ir_kernel *k, const pipe_native_opts *o,
                     interp_native_result *res) {
  if (!nv->tried) {
    nv->tried = 1;
    nv->nat = pipe_native_compile(k, o->source ? o->source : o->file, o->fe, o->cflags, res);
    if (nv->nat && o->against) nv->orig = pipe_native_compile(k, o->file, o->fe, o->cflags, res);
    interp_native_default_limits(&nv->lim);
    nv->lim.cpu_seconds = o->cpu_seconds;
    nv->lim.wall_seconds = 2 * nv->lim.cpu_seconds + 5;
    if (!nv->nat || (o->against && !nv->orig)) return -1;
  }
  if (!nv->nat || (o->against && !nv->orig)) {
    snprintf(res->msg, sizeof res->msg, "the native code did not compile (see above)");
    return -1;
  }
  return 0;
}

void pipe_natives_free(pipe_natives *nv) {
  interp_native_free(nv->nat);
  interp_native_free(nv->orig);
  memset(nv, 0, sizeof *nv);
}

int pipe_native_time(pipe_natives *nv, const interp_env *env, interp_env *nenv, long runs,
                     double *t, interp_native_result *res) {
  for (long i = 0; i < runs; i++) {
    interp_env_copy(nenv, env);
    if (interp_native_call(nv->nat, nenv, &nv->lim, res)) return -1;
    t[i] = res->seconds;
  }
  res->status = INTERP_NATIVE_OK;
  return 0;
}

double pipe_median(double *t, long n) {
  for (long a = 1; a < n; a++) /* insertion sort: a few values */
    for (long b = a; b > 0 && t[b - 1] > t[b]; b--) {
      double x = t[b];
      t[b] = t[b - 1];
      t[b - 1] = x;
    }
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

void pipe_run_outputs(const ir_kernel *k, unsigned char *written) {
  interp_written_vars(k, NULL, written);
  for (int v = 0; v < k->nvars; v++) /* outputs: array parameters only */
    if (k->vars[v]->kind != IR_VAR_ARRAY) written[v] = 0;
}

long pipe_native_diff(const ir_kernel *k, const interp_env *env, interp_env *oenv,
                      const interp_env *nenv, const unsigned char *written, double tol,
                      interp_mismatch *first, long *compared) {
  if (oenv) /* the interpreter's poison: not compared */
    for (int v = 0; v < k->nvars; v++)
      if (written[v] && env->vals[v].poison && oenv->vals[v].poison)
        memcpy(oenv->vals[v].poison, env->vals[v].poison,
               ir_tensor_size(&env->vals[v]) ? ir_tensor_size(&env->vals[v]) : 1);
  return interp_compare(oenv ? oenv : env, nenv, written, tol, first, compared);
}

double pipe_run_mb(const ir_kernel *k, const long *sizes, int native, int against) {
  return pipe_env_bytes(k, sizes) * (native ? 2 : 1) * (against ? 1.5 : 1) / (1024.0 * 1024.0);
}

/* ------------------------------------------------------------- one run */

/* The native side of a run: compile (first call), call the code on nenv
 * (and the original on oenv) and compare with the reference. */
static void run_native(const ir_kernel *k, const pipe_run_opts *o, pipe_natives *nv,
                       interp_env *nenv, interp_env *oenv, pipe_run_result *r) {
  int against = o->no && o->no->against;
  if (pipe_natives_get(nv, k, o->no, &r->nres) ||
      interp_native_call(nv->nat, nenv, &nv->lim, &r->nres) ||
      (against && interp_native_call(nv->orig, oenv, &nv->lim, &r->nres))) {
    r->outcome = PIPE_RUN_NATIVE_FAILED;
    return;
  }
  r->tol = pipe_run_tolerance(k, o->values);
  r->diffs = pipe_native_diff(k, &r->env, against ? oenv : NULL, nenv, r->written, r->tol,
                              &r->first, &r->compared);
  r->outcome = r->diffs ? PIPE_RUN_DIFFERS : PIPE_RUN_AGREES;
}

/* Time o->time_runs calls of the native code on fresh copies of r->env's
 * inputs. */
static void run_timed(const ir_kernel *k, const pipe_run_opts *o, pipe_natives *nv,
                      interp_env *nenv, pipe_run_result *r) {
  r->times = ir_calloc((size_t)o->time_runs, sizeof *r->times);
  if (pipe_natives_get(nv, k, o->no, &r->nres) ||
      pipe_native_time(nv, &r->env, nenv, o->time_runs, r->times, &r->nres)) {
    r->outcome = PIPE_RUN_NATIVE_FAILED;
    return;
  }
  r->ntimes = o->time_runs;
  r->outcome = PIPE_RUN_TIMED;
}

pipe_run_outcome pipe_run_one(const ir_kernel *k, const long *sizes, const pipe_run_opts *o,
                              pipe_natives *nv, pipe_run_result *r) {
  memset(r, 0, sizeof *r);
  int native = o->no != NULL, against = native && o->no->against;
  interp_env nenv, oenv;
  if (interp_env_init(&r->env, k, sizes, &r->err)) return r->outcome = PIPE_RUN_ERROR;
  r->have_env = 1;
  pipe_fill_values(&r->env, o->values, o->seed);
  /* the native copies start from the same inputs */
  if (native && interp_env_init(&nenv, k, sizes, &r->err)) UNREACHABLE();
  if (native) interp_env_copy(&nenv, &r->env);
  if (against && interp_env_init(&oenv, k, sizes, &r->err)) UNREACHABLE();
  if (against) interp_env_copy(&oenv, &r->env);
  if (native && o->time_runs > 0) {
    run_timed(k, o, nv, &nenv, r);
    goto done;
  }
  r->env.time_limit = o->timeout;
  if (interp_run(&r->env, NULL, &r->err)) {
    r->outcome = PIPE_RUN_ERROR;
    goto done;
  }
  r->written = ir_calloc((size_t)k->nvars + 1, 1);
  r->poison = ir_calloc((size_t)k->nvars + 1, sizeof *r->poison);
  r->undef = ir_calloc((size_t)k->nvars + 1, sizeof *r->undef);
  pipe_run_outputs(k, r->written);
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (!r->written[v]) continue;
    r->poisoned += r->poison[v] = interp_poison_count(&r->env.vals[v]);
    r->undefined += r->undef[v] = interp_undef_count(&r->env.vals[v]);
  }
  r->outcome = PIPE_RUN_DONE;
  /* elements that depend on uninitialized values are undefined in C (any
   * value refines them): against the native original they are left out of
   * the comparison, against the interpreter nothing can be compared; those
   * with no value in C (a signed overflow) or none a double holds are left
   * out of either (the interpreter knows where they are) */
  if (native && r->poisoned > r->undefined && !against) r->outcome = PIPE_RUN_POISONED;
  else if (native) run_native(k, o, nv, &nenv, &oenv, r);
done:
  if (native) interp_env_free(&nenv);
  if (against) interp_env_free(&oenv);
  return r->outcome;
}

void pipe_run_result_free(pipe_run_result *r) {
  if (r->have_env) interp_env_free(&r->env);
  ir_free(r->written);
  ir_free(r->poison);
  ir_free(r->undef);
  ir_free(r->times);
  memset(r, 0, sizeof *r);
}
