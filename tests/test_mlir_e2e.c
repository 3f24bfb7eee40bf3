/* test_mlir_e2e.c - raised programs run as MLIR against the compiled C.
 *
 * For every kernel file found by glob (benchmarks/kernels/ *.c,
 * benchmarks/kernels/c99/ *.c, the int-data kernels
 * tests/kernels/int/ *.c and the aligned-operand kernels
 * tests/kernels/slice/ *.c, and the kernels raised inside a kept
 * loop, benchmarks/kernels/partial/jacobi-*.c, fdtd-2d.c (its
 * body reads the iterator: a slice cut in the loop), trisolv.c and
 * gramschmidt.c (the iterator a size of the body), durbin.c (reversed
 * windows in the iterator) and
 * tests/kernels/kept/ *.c, the nested kept loops of
 * tests/kernels/nested/ *.c, and the scalar items of seidel-2d.c,
 * floyd-warshall.c, nussinov.c and tests/kernels/scalar/ *.c; a first line `// uplift: OPTIONS` gives
 * front-end options) and each of the dialects linalg and tosa (tosa reads
 * Polybench-style files with -D DATA_TYPE_IS_FLOAT: MLIR 16's tosa has no
 * f64), the kernel is raised (no verification; the search is bounded by
 * --max-ops and the memory budget, the time budget is only a hang guard)
 * and must give the result the table `expected` lists for it: every file
 * found must be in the table, every entry must be found, a kernel marked
 * RAISES must raise, one marked REFUSED must be refused with the reason
 * given.  Every raised kernel goes on to the checks below.  Its dynamic-shape function must pass
 * mlir-opt-16 (for hlo, which is not run, that is the only check: it must
 * parse with --allow-unregistered-dialect).  The raised program is emitted, lowered
 * with mlir-opt-16 and run with mlir-cpu-runner-16 (all kernels of a
 * dialect in one module, emit_mlir_run) on seeded random inputs at sizes no
 * example used (interp_default_sizes variant 5), and its results are
 * compared with the natively compiled original run on the same inputs:
 * exactly when the kernel's arithmetic is exact, else within a relative
 * 1e-4 (float) or 1e-9 (double).  linalg and tosa run once more with
 * --shapes dynamic at other sizes (variant 6), and a dynamic run whose
 * inputs give two tied dims different sizes must stop at the cf.assert
 * naming them.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "interp/interp.h"
#include "pipeline/pipeline.h"
#include "tests/harness.h"

#define MAX_CASES 96
#define SEED 4242

/* What raising a kernel file to a dialect must give. */
typedef enum want {
  RAISES,  /* raised: a program comes out and runs the checks below */
  REFUSED, /* not raised, for the reason in `why` (a limit of the dialect) */
  OPEN     /* not raised today (reason in the comment); raising is fine too */
} want;

/* The expected results, by file (from the top of the tree) and
 * dialect (linalg, tosa, hlo).  tosa has no f64, so the C99 kernels written
 * with double are refused there; the Polybench kernels are raised as float. */
static const struct {
  const char *file;
  want w[3];
} expected[] = {
    {"benchmarks/kernels/2mm.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/3mm.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/atax.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/bicg.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/correlation.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/covariance.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/doitgen.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/gemm.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/gemver.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/gesummv.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/mvt.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/symm.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/syr2k.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/syrk.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/trmm.c", {RAISES, RAISES, RAISES}},
    /* hlo: task 1 (output D) has no program of at most 6 ops (--max-ops) */
    {"benchmarks/kernels/c99/absdiff.c", {RAISES, REFUSED, OPEN}},
    {"benchmarks/kernels/c99/dot_total.c", {RAISES, REFUSED, RAISES}},
    {"benchmarks/kernels/c99/exp_scale.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/c99/gemv_jloop.c", {RAISES, REFUSED, RAISES}},
    {"benchmarks/kernels/c99/matmul_ikj.c", {RAISES, REFUSED, RAISES}},
    {"benchmarks/kernels/c99/relu_bias.c", {RAISES, REFUSED, RAISES}},
    {"benchmarks/kernels/c99/row_norms.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/c99/saxpy_down.c", {RAISES, RAISES, RAISES}},
    /* int data: arith's integer ops (linalg), TOSA's i32 tensors; TOSA's
     * integer matmul takes i8/i16 only, so int_matmul is mul + reduce_sum */
    {"tests/kernels/int/int_colsum.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/int/int_matmul.c", {RAISES, RAISES, RAISES}},
    /* tosa: no max reduction in dialects/tosa (task 2, the row maxima) */
    {"tests/kernels/int/int_relu_diff.c", {RAISES, OPEN, RAISES}},
    /* i64: tosa has no i64 element type */
    {"tests/kernels/int/i64_scale_abs.c", {RAISES, REFUSED, RAISES}},
    /* narrow and unsigned data: tosa.cast (sign extension, truncation),
     * an unsigned widening as tosa.cast and tosa.bitwise_and, i32
     * arithmetic and shifts */
    {"tests/kernels/int/u8_blend.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/int/i16_diff.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/int/u32_hash.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/int/u16_shift.c", {RAISES, RAISES, RAISES}},
    /* a float product stored into uint8_t: arith.uitofp, mulf, fptoui;
     * tosa: tosa.cast from f32 rounds to nearest and saturates where C
     * truncates, so dialects/tosa has no such cast (no program found) */
    {"tests/kernels/int/u8_gain.c", {RAISES, OPEN, RAISES}},
    /* aligned operands (slice ops): a first element, columns, interior
     * stencils whose box is empty below 3 */
    {"tests/kernels/slice/columns.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/first_copy.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/last_col.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/stencil1d.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/stencil2d.c", {RAISES, RAISES, RAISES}},
    /* pointers whose accesses reach a size minus a constant, padded to
     * the size (docs/frontend.md): a forward difference, a weighted
     * 3-tap smoothing, a 5-point Laplacian on a flat image */
    {"tests/kernels/slice/diff_ptr.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/smooth_ptr.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/bias_first.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/row_pivot.c", {RAISES, RAISES, RAISES}},
    /* reversed reads (x[n - 1 - i]): the reverse op */
    {"tests/kernels/slice/mirror_ptr.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/flip_cols.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/slice/laplace_flat.c", {RAISES, RAISES, RAISES}},
    /* Polybench style: one Jacobi time step, two sweeps (two tasks) */
    {"tests/kernels/slice/jacobi2d_sweep.c", {RAISES, RAISES, RAISES}},
    /* a read shifted along a transposed dim: no aligned operand, a pad op
     * (issue 14's shift) found by the search */
    {"tests/kernels/slice/shift_transposed.c", {RAISES, RAISES, RAISES}},
    /* a 3-tap filter with its weights in an array: linalg's conv_1d */
    {"tests/kernels/slice/conv3_weights.c", {RAISES, RAISES, RAISES}},
    /* raised inside a kept time-step loop (issue 14): scf.for (linalg,
     * tosa) or stablehlo.while (hlo) around the raised body */
    {"benchmarks/kernels/partial/jacobi-1d.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/partial/jacobi-2d.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/smooth_steps.c", {RAISES, RAISES, RAISES}},
    /* bodies that read arrays at the iterator: slices cut at each
     * iteration (fict[t]; a row f[s][:] and g[steps - 1 - s]) */
    {"benchmarks/kernels/partial/fdtd-2d.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/forced_steps.c", {RAISES, RAISES, RAISES}},
    /* bodies that read the iterator as a size (a bound, a condition, a
     * write at it: masks in it, the iterator an index argument of the
     * body); back_subst's loop runs downward */
    {"benchmarks/kernels/partial/trisolv.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/partial/gramschmidt.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/bound_steps.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/history_steps.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/back_subst.c", {RAISES, RAISES, RAISES}},
    /* statements and kept loops in sequence: @NAME calls @NAME_partI in
     * order (emit_mlir_seq); lu_solve is f64, which tosa has not */
    {"tests/kernels/kept/lu_solve.c", {RAISES, REFUSED, RAISES}},
    {"tests/kernels/kept/steps_then_scale.c", {RAISES, RAISES, RAISES}},
    /* a local carried from part to part and by the kept loop (an
     * iter_args value of the scf.for, undefined in @NAME until the first
     * part sets it), a reversed read */
    {"tests/kernels/kept/filter_steps.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/window_steps.c", {RAISES, RAISES, RAISES}},
    /* accumulators folded into their elements (poly_fold_locals): Doolittle
     * LU and both solves on a flat matrix, f64 */
    {"tests/kernels/kept/doolittle_flat.c", {RAISES, REFUSED, RAISES}},
    /* reversed windows whose offset moves with the kept iterator
     * (r[k - i - 1], a[k - i]): slice, reverse and slice ops whose extent
     * is the iterator, an index argument of the body (docs/enumerator.md,
     * "Reversed windows") */
    {"benchmarks/kernels/partial/durbin.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/kept/mirror_steps.c", {RAISES, RAISES, RAISES}},
    /* nested kept loops: the loop's function calls @NAME_body, its items'
     * sequence, a kept-loop item a loop function of its own; solve_steps
     * and flat_solve_steps are f64, which tosa has not */
    {"tests/kernels/nested/solve_steps.c", {RAISES, REFUSED, RAISES}},
    {"tests/kernels/nested/flat_solve_steps.c", {RAISES, REFUSED, RAISES}},
    {"tests/kernels/nested/row_sweeps.c", {RAISES, RAISES, RAISES}},
    /* three deep: a repeat loop around a nested step loop, its slice w[q]
     * read two levels down */
    {"tests/kernels/nested/deep_sweeps.c", {RAISES, RAISES, RAISES}},
    /* a row loop distributed and moved inside its kept recurrence: the
     * columns y[:][j - 1], z[:][j] cut at each j */
    {"tests/kernels/nested/row_scans.c", {RAISES, RAISES, RAISES}},
    /* scalar items (issue 14): scf.for over tensor.extract / tensor.insert,
     * the whole kernel (seidel-2d, floyd-warshall: every loop kept), a kept
     * loop around one (nussinov), or one item beside a raised one in a kept
     * loop's body (prefix_scale) */
    {"benchmarks/kernels/partial/seidel-2d.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/partial/floyd-warshall.c", {RAISES, RAISES, RAISES}},
    {"benchmarks/kernels/partial/nussinov.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/scalar/prefix_scale.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/scalar/clip_walk.c", {RAISES, REFUSED, RAISES}},
    {"tests/kernels/scalar/back_sweep.c", {RAISES, RAISES, RAISES}},
    {"tests/kernels/scalar/guarded_walk.c", {RAISES, RAISES, RAISES}},
};
#define NEXPECTED (int)(sizeof expected / sizeof expected[0])
/* The reason a REFUSED kernel gives (tosa: "has no f64 element type (the
 * kernel's data type)", or i64). */
static const char *const refused_why = "element type (the kernel's data type)";

/* The table entry of path, or -1. */
static int expected_index(const char *path) {
  for (int i = 0; i < NEXPECTED; i++)
    if (!strcmp(path, expected[i].file)) return i;
  return -1;
}

/* One kernel raised to one dialect, with its inputs and native outputs. */
typedef struct kcase {
  char path[256];
  ir_arena arena;
  ir_tp_store store;
  fe_options fe;
  ir_kernel *k;
  enum_result res;     /* a sequence: res.prog is its signature */
  const ir_tprog **seq; /* a sequence (pipe_split): its parts' programs */
  int nseq;
  long *sizes;
  ir_tensor *inputs;   /* one per program argument */
  ir_tensor *expected; /* one per program result (native) */
  double rtol;
} kcase;

/* Front-end options from a first line `// uplift: --function F -D X ...`. */
static void file_options(const char *path, fe_options *fe, ir_arena *arena) {
  FILE *f = fopen(path, "r");
  char line[512] = "";
  if (!f) return;
  if (!fgets(line, sizeof line, f)) line[0] = 0;
  fclose(f);
  const char *tag = "// uplift:";
  if (strncmp(line, tag, strlen(tag))) return;
  char *save = NULL;
  for (char *t = strtok_r(line + strlen(tag), " \t\n", &save); t;
       t = strtok_r(NULL, " \t\n", &save)) {
    /* the option values must outlive the line: copied into the arena */
    int opt = 0;
    const char *val = NULL;
    if (!strcmp(t, "--function")) opt = 'f', val = strtok_r(NULL, " \t\n", &save);
    else if (!strcmp(t, "-D") || !strcmp(t, "-I")) opt = t[1], val = strtok_r(NULL, " \t\n", &save);
    else if (t[0] == '-' && (t[1] == 'D' || t[1] == 'I')) opt = t[1], val = t + 2;
    if (!opt || !val) continue;
    val = ir_arena_strdup(arena, val);
    if (opt == 'f') fe->function = val;
    else if (opt == 'D') pipe_fe_add_define(fe, val);
    else pipe_fe_add_include(fe, val);
  }
}

static int has_polybench(const char *path) {
  FILE *f = fopen(path, "r");
  char line[512];
  int yes = 0;
  while (f && !yes && fgets(line, sizeof line, f)) yes = strstr(line, "POLYBENCH") != NULL;
  if (f) fclose(f);
  return yes;
}

static void tensor_copy(ir_tensor *dst, const ir_tensor *src) {
  *dst = *src;
  size_t n = ir_tensor_size(src);
  dst->data = ir_malloc((n ? n : 1) * sizeof(double));
  memcpy(dst->data, src->data, n * sizeof(double));
  dst->poison = NULL;
}

static void case_free(kcase *c) {
  if (c->inputs)
    for (int i = 0; i < c->res.prog.nargs; i++) emit_tensor_free(&c->inputs[i]);
  if (c->expected)
    for (int i = 0; i < c->res.prog.nresults; i++) emit_tensor_free(&c->expected[i]);
  ir_free(c->inputs);
  ir_free(c->expected);
  ir_free(c->sizes);
  ir_tp_store_free(&c->store);
  ir_arena_free(&c->arena);
  pipe_fe_options_free(&c->fe);
}

/* Run the native original at size variant `variant` on seeded random
 * inputs; keep the inputs of the program's arguments and the native
 * results.  Returns 0, or -1 (reported as a failure). */
static int case_native(kcase *c, int variant) {
  const ir_kernel *k = c->k;
  interp_native_result nres;
  interp_native *nat = interp_native_compile(k, c->path, &c->fe, &nres);
  if (!nat) {
    fprintf(stderr, "%s: native compile: %s\n", c->path, nres.msg);
    return -1;
  }
  c->sizes = ir_calloc((size_t)k->nvars, sizeof(long));
  interp_default_sizes(k, variant, c->sizes);
  /* the user's code has its fixed extents (a pinned size: last_col's 4) */
  ir_kernel_pin_constants(k, c->sizes);
  interp_env env;
  interp_error err;
  if (interp_env_init(&env, k, c->sizes, &err)) {
    fprintf(stderr, "%s: %s\n", c->path, err.msg);
    interp_native_free(nat);
    return -1;
  }
  interp_fill_random(&env, SEED + (uint64_t)variant);
  const ir_tprog *p = &c->res.prog;
  c->inputs = ir_calloc((size_t)p->nargs, sizeof(ir_tensor));
  for (int a = 0; a < p->nargs; a++) /* a kept loop's slices (vars after k's) are cut inside */
    if (p->args[a]->arg < k->nvars) tensor_copy(&c->inputs[a], &env.vals[p->args[a]->arg]);
  int rc = interp_native_call(nat, &env, NULL, &nres);
  if (rc) fprintf(stderr, "%s: native run: %s\n", c->path, nres.msg);
  c->expected = ir_calloc((size_t)p->nresults, sizeof(ir_tensor));
  for (int i = 0; i < p->nresults && !rc; i++) tensor_copy(&c->expected[i], &env.vals[c->res.result_vars[i]]);
  interp_env_free(&env);
  interp_native_free(nat);
  return rc ? -1 : 0;
}

/* Raise path to dialect d (table column di); 1 if raised (c filled), else
 * 0.  Checks the table's expectation. */
static int case_raise(kcase *c, const char *path, const gram_dialect *d, int di) {
  int tosa = di == 1;
  memset(c, 0, sizeof *c);
  snprintf(c->path, sizeof c->path, "%s", path);
  ir_arena_init(&c->arena);
  ir_tp_store_init(&c->store, &c->arena);
  file_options(path, &c->fe, &c->arena);
  if (tosa && has_polybench(path)) pipe_fe_add_define(&c->fe, "DATA_TYPE_IS_FLOAT");
  /* verified as uplift raise does: a search that meets no example where a
   * kept body's window holds a point (window_steps) would otherwise take
   * the first candidate that agrees on its examples (select(mask, x, x)),
   * where the verifier's counterexample makes it search on */
  pipe_raise_opts po = {.fe = &c->fe, .d = d};
  verify_options_default(&po.verify);
  enum_default_options(&po.search);
  po.search.timeout = 600; /* a hang guard: --max-ops and the memory decide */
  pipe_raised pr;
  pipe_error pe = pipe_raise_file(path, &po, &c->arena, &c->store, &pr, NULL);
  c->k = pr.k;
  c->res = pr.res;
  if (pe == PIPE_OK && pr.res.raised && pr.nparts) { /* run as emit_mlir_seq writes it */
    c->seq = IR_NEW_N(&c->arena, const ir_tprog *, pr.nparts);
    for (int i = 0; i < pr.nparts; i++) c->seq[i] = &pr.parts[i].res.prog;
    c->nseq = pr.nparts;
    CHECKF(!emit_mlir_seq_signature(c->seq, c->nseq, &c->res.prog), "%s: a signature", path);
    for (int i = 0; i < c->res.prog.nresults; i++)
      c->res.result_vars[i] = ir_kernel_find_var(c->k, c->res.prog.result_names[i]);
  }
  CHECKF(pe != PIPE_ERR_SOURCE, "%s parses", path);
  if (pe == PIPE_ERR_SOURCE) return 0;
  /* a dialect without the kernel's element type refuses it before the analysis */
  CHECKF(pr.a != NULL || pe == PIPE_ERR_ELEM, "%s: analysis", path);
  CHECKF(pe == PIPE_OK || pe == PIPE_ERR_ELEM, "%s: %s: no internal error", path, d->name);
  int raised = pe == PIPE_OK && c->res.raised;
  int e = expected_index(path);
  CHECKF(e >= 0, "%s is in the table of expected results", path);
  const char *why = c->res.reason ? c->res.reason : "not raised";
  if (e >= 0 && expected[e].w[di] == RAISES)
    CHECKF(raised, "%s (%s) raises (%s)", path, d->name, raised ? "" : why);
  if (e >= 0 && expected[e].w[di] == REFUSED)
    CHECKF(!raised && strstr(why, refused_why), "%s (%s) is refused: %s (got: %s)", path,
           d->name, refused_why, raised ? "raised" : why);
  if (!raised) printf("not raised: %s (%s): %s\n", path, d->name, why);
  return raised;
}

/* Compare every run's outputs with the native results. */
static void compare(kcase *cs, emit_run *runs, int n, const char *what) {
  for (int i = 0; i < n; i++) {
    kcase *c = &cs[i];
    for (int o = 0; o < c->res.prog.nresults; o++) {
      const ir_tensor *e = &c->expected[o], *g = &runs[i].outputs[o];
      size_t ne = ir_tensor_size(e), ng = ir_tensor_size(g);
      size_t bad = ne == ng && g->data ? ne : 0;
      for (size_t j = 0; j < ne && g->data && ne == ng; j++)
        if (!interp_values_agree(e->data[j], g->data[j], c->rtol)) {
          bad = j;
          break;
        }
      CHECKF(ne == ng && g->data && bad == ne,
             "%s %s: output %s agrees with the compiled original (element %zu: native %.17g, mlir %.17g)",
             what, c->path, c->k->vars[c->res.result_vars[o]]->name, bad,
             bad < ne ? e->data[bad] : 0.0, g->data && bad < ng ? g->data[bad] : 0.0);
    }
  }
}

/* The dynamic-shape function of every case passes mlir-opt-16 (hlo: parses
 * with --allow-unregistered-dialect). */
static void check_dynamic_text(const gram_dialect *d, kcase *cs, int n, int unregistered) {
  for (int i = 0; i < n; i++) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    emit_opts o = {cs[i].k->name, NULL, 0, 1, 0, 0};
    int rc = cs[i].nseq ? emit_mlir_seq(d, cs[i].seq, cs[i].nseq, &o, f)
                        : emit_mlir_func(d, &cs[i].res.prog, &o, f);
    fclose(f);
    ir_error err = {0};
    CHECKF(rc == 0, "%s %s: dynamic-shape MLIR is emitted", d->name, cs[i].path);
    if (rc == 0)
      CHECKF(emit_mlir_check(text, unregistered, &err) == 0,
             "%s %s: dynamic-shape MLIR passes mlir-opt-16 (%.300s)", d->name, cs[i].path, err.msg);
    free(text);
  }
}

static void run_batch(const gram_dialect *d, kcase *cs, int n, int dynamic) {
  if (!n) return;
  emit_run *runs = ir_calloc((size_t)n, sizeof *runs);
  for (int i = 0; i < n; i++) {
    runs[i].prog = &cs[i].res.prog;
    runs[i].sizes = cs[i].sizes;
    runs[i].nsizes = cs[i].k->nvars;
    runs[i].inputs = cs[i].inputs;
    runs[i].dynamic = dynamic;
    runs[i].seq = cs[i].seq;
    runs[i].nseq = cs[i].nseq;
  }
  ir_error err = {0};
  char what[64];
  snprintf(what, sizeof what, "%s%s", d->name, dynamic ? " (dynamic shapes)" : "");
  int rc = emit_mlir_run(d, runs, n, &err, NULL);
  CHECKF(rc == 0, "%s: %d raised kernels lower and run (%s)", what, n, rc ? err.msg : "");
  if (rc == 0) compare(cs, runs, n, what);
  for (int i = 0; i < n; i++)
    for (int o = 0; o < cs[i].res.prog.nresults; o++) emit_tensor_free(&runs[i].outputs[o]);
  ir_free(runs);
}

/* A dynamic run of c whose inputs give two dims tied to one size different
 * sizes must fail the entry cf.assert, whose message names the size. */
static int mismatch_run(const gram_dialect *d, kcase *c) {
  const ir_tprog *p = &c->res.prog;
  int fa = -1, fd = -1, sym = -1;
  for (int a = 0; a < p->nargs && fa < 0; a++)
    for (int i = 0; i < p->args[a]->type.rank && fa < 0; i++) {
      int s = p->args[a]->type.dims[i];
      if (s == IR_DIM_ONE || ir_tloop_slice(p->loop, p->args[a]->arg)) continue;
      for (int b = 0; b < a && fa < 0; b++)
        for (int j = 0; j < p->args[b]->type.rank && !ir_tloop_slice(p->loop, p->args[b]->arg); j++)
          if (p->args[b]->type.dims[j] == s) {
            fa = a;
            fd = i;
            sym = s;
            break;
          }
    }
  if (fa < 0) return 0;
  ir_tensor *in = ir_calloc((size_t)p->nargs, sizeof(ir_tensor));
  for (int a = 0; a < p->nargs; a++) tensor_copy(&in[a], &c->inputs[a]);
  in[fa].dims[fd] += 1; /* one more row/column than its size says */
  size_t n = ir_tensor_size(&in[fa]);
  ir_free(in[fa].data);
  in[fa].data = ir_calloc(n ? n : 1, sizeof(double));
  emit_run run;
  memset(&run, 0, sizeof run);
  run.prog = p;
  run.sizes = c->sizes;
  run.nsizes = c->k->nvars;
  run.inputs = in;
  run.dynamic = 1;
  run.seq = c->seq;
  run.nseq = c->nseq;
  ir_error err = {0};
  char want[128];
  int rc = emit_mlir_run(d, &run, 1, &err, NULL);
  snprintf(want, sizeof want, "size %s:", c->k->vars[sym]->name);
  CHECKF(rc != 0, "%s: a dynamic run with disagreeing dims of size %s fails", c->path,
         c->k->vars[sym]->name);
  CHECKF(strstr(err.msg, want) && strstr(err.msg, "differ"),
         "%s: the failure is the cf.assert naming size %s (got: %.300s)", c->path,
         c->k->vars[sym]->name, err.msg);
  for (int a = 0; a < p->nargs; a++) emit_tensor_free(&in[a]);
  ir_free(in);
  for (int o = 0; o < p->nresults; o++) emit_tensor_free(&run.outputs[o]);
  return 1;
}

int main(void) {
  CHECK("mlir-opt-16, mlir-cpu-runner-16 and the runner libraries are installed (mk/deps.sh)",
        emit_mlir_tools_available());
  if (!emit_mlir_tools_available()) return TEST_REPORT();
  glob_t g;
  memset(&g, 0, sizeof g);
  glob("benchmarks/kernels/*.c", 0, NULL, &g);
  glob("benchmarks/kernels/c99/*.c", GLOB_APPEND, NULL, &g);
  glob("tests/kernels/int/*.c", GLOB_APPEND, NULL, &g);
  glob("tests/kernels/slice/*.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/jacobi-*.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/fdtd-2d.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/trisolv.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/gramschmidt.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/durbin.c", GLOB_APPEND, NULL, &g);
  glob("tests/kernels/kept/*.c", GLOB_APPEND, NULL, &g);
  glob("tests/kernels/nested/*.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/seidel-2d.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/floyd-warshall.c", GLOB_APPEND, NULL, &g);
  glob("benchmarks/kernels/partial/nussinov.c", GLOB_APPEND, NULL, &g);
  glob("tests/kernels/scalar/*.c", GLOB_APPEND, NULL, &g);
  CHECK("kernel files found", g.gl_pathc > 0);
  for (int i = 0; i < NEXPECTED; i++) {
    int found = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) found |= expected_index(g.gl_pathv[f]) == i;
    CHECKF(found, "%s (in the table) is found", expected[i].file);
  }
  static const char *const dialects[] = {"linalg", "tosa", "hlo"};
  for (int di = 0; di < 3; di++) {
    ir_arena darena;
    ir_arena_init(&darena);
    gram_dialect *d = gram_load(dialects[di], &darena);
    CHECKF(d != NULL, "dialect %s loads", dialects[di]);
    if (!d) {
      ir_arena_free(&darena);
      continue;
    }
    kcase *cs = ir_calloc(MAX_CASES, sizeof *cs);
    int n = 0, nraised = 0;
    for (size_t f = 0; f < g.gl_pathc && n < MAX_CASES; f++) {
      kcase *c = &cs[n];
      if (!case_raise(c, g.gl_pathv[f], d, di)) {
        case_free(c);
        continue;
      }
      nraised++;
      if (di == 2) { /* hlo: no lowering in MLIR 16; its text is checked */
        n++;
        continue;
      }
      c->rtol = interp_kernel_tolerance(c->k) == 0 ? 0 : c->k->data_type == IR_F32 ? 1e-4 : 1e-9;
      int ok = case_native(c, 5) == 0;
      CHECKF(ok, "%s: the original compiles and runs", c->path);
      if (!ok) {
        case_free(c);
        continue;
      }
      n++;
    }
    CHECKF(nraised > 0, "%s: some kernels raise", d->name);
    printf("%s: %d kernels raised\n", d->name, n);
    check_dynamic_text(d, cs, n, di == 2);
    if (di < 2) run_batch(d, cs, n, 0);
    if (di < 2) {
      /* linalg and tosa once more with dynamic shapes, at other sizes */
      for (int i = 0; i < n; i++) {
        kcase *c = &cs[i];
        for (int a = 0; a < c->res.prog.nargs; a++) emit_tensor_free(&c->inputs[a]);
        for (int o = 0; o < c->res.prog.nresults; o++) emit_tensor_free(&c->expected[o]);
        ir_free(c->inputs);
        ir_free(c->expected);
        ir_free(c->sizes);
        c->inputs = c->expected = NULL;
        c->sizes = NULL;
        CHECKF(case_native(c, 6) == 0, "%s: the original runs at sizes variant 6", c->path);
      }
      run_batch(d, cs, n, 1);
      int tested = 0;
      for (int i = 0; i < n && !tested; i++) tested = mismatch_run(d, &cs[i]);
      CHECK("some raised kernel has two argument dims tied to one size", tested);
    }
    for (int i = 0; i < n; i++) case_free(&cs[i]);
    ir_free(cs);
    ir_arena_free(&darena);
  }
  globfree(&g);
  return TEST_REPORT();
}
