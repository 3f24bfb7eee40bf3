/* test_mlir.c - MLIR emission against upstream MLIR 16.
 *
 * For every op of every shipped dialect, operand types are drawn from a
 * pool of symbolic types (and proposed targets from the same pool), the
 * generator's productions are collected, and a few of them (spread over
 * the list, deterministically) become one-op functions:
 *   - hlo: the module must parse with mlir-opt-16 --allow-unregistered-dialect;
 *   - linalg, tosa: the module must pass mlir-opt-16's verifier, and each
 *     function is run through the lowering pipeline and mlir-cpu-runner-16 on
 *     seeded random integer-valued inputs and compared with our kernel.
 * All functions of a dialect go into one module per tool call. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "interp/interp.h"
#include "grammar/grammar.h"
#include "tests/harness.h"

enum { M = 0, N = 1, K = 2, B = 3, NSYMS = 4 };
static const long sizes[NSYMS] = {3, 4, 5, 2};
#define O IR_DIM_ONE

static const int pool_dims[][5] = {
    /* rank, dims */
    {0}, {1, M}, {1, N}, {1, K}, {1, O},
    {2, M, N}, {2, N, M}, {2, M, K}, {2, K, N}, {2, O, N}, {2, M, O}, {2, N, N},
    {3, B, M, K}, {3, B, K, N}, {3, M, N, K}, {3, O, M, N}};
#define NPOOL (int)(sizeof pool_dims / sizeof pool_dims[0])

static ir_type pool_type(int i, ir_elem e) {
  ir_type t = {e, pool_dims[i][0], {0}};
  for (int k = 0; k < t.rank; k++) t.dims[k] = pool_dims[i][k + 1];
  return t;
}

#define PER_OP 4
#define MAX_FUNCS 1024

typedef struct chosen {
  gram_prod prod;
  ir_type ops[IR_TP_MAX_OPERANDS];
} chosen;

/* Collect the productions of op over the pool; choose up to PER_OP spread
 * over the list.  Returns the number chosen. */
static int choose(const gram_op *op, ir_elem fe, ir_elem te, chosen *out) {
  static chosen all[4096];
  int n = 0;
  ir_elem elems[2] = {fe, IR_I1};
  int combos = 1;
  for (int i = 0; i < op->nops; i++) combos *= NPOOL * 2;
  for (int c = 0; c < combos; c++) {
    ir_type ops[IR_TP_MAX_OPERANDS];
    int x = c;
    for (int i = 0; i < op->nops; i++) {
      ops[i] = pool_type(x % NPOOL, elems[(x / NPOOL) % 2]);
      x /= NPOOL * 2;
    }
    for (int t = 0; t < (gram_op_needs_target(op) ? NPOOL : 1); t++) {
      ir_type target = pool_type(t, te);
      gram_prod ps[64];
      int np = gram_productions(op, ops, gram_op_needs_target(op) ? &target : NULL, ps, 64, NULL);
      if (np > 64) np = 64;
      for (int k = 0; k < np && n < 4096; k++) {
        all[n].prod = ps[k];
        memcpy(all[n].ops, ops, sizeof ops);
        n++;
      }
    }
  }
  if (n == 0) return 0;
  int want = n < PER_OP ? n : PER_OP;
  for (int i = 0; i < want; i++) out[i] = all[(long)i * n / want + (n / want) / 2];
  return want;
}

/* A one-op program over arguments of the chosen operand types. */
static ir_tprog one_op(ir_tp_store *s, const chosen *c) {
  ir_tprog p;
  memset(&p, 0, sizeof p);
  const gram_op *op = c->prod.op;
  const ir_tnode *args[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < op->nops; i++) {
    args[i] = ir_tp_arg(s, i, op->opnames[i], &c->ops[i]);
    p.args[p.nargs++] = args[i];
  }
  p.results[0] = ir_tp_op(s, &op->desc, c->prod.attrs, args, op->nops, &c->prod.result);
  p.nresults = 1;
  return p;
}

/* Seeded random integer-valued inputs: i1 as 0/1, others in -4..4 without 0
 * (so reciprocals and divisions are defined). */
static unsigned long rng = 12345;
static double rnd(ir_elem e) {
  rng = rng * 6364136223846793005ul + 1442695040888963407ul;
  int r = (int)((rng >> 33) % 8);
  if (e == IR_I1) return r & 1;
  return r < 4 ? r - 4 : r - 3;
}

static void concrete(const ir_type *t, ir_tensor *out) {
  memset(out, 0, sizeof *out);
  out->elem = t->elem;
  out->rank = t->rank;
  for (int i = 0; i < t->rank; i++) out->dims[i] = t->dims[i] == O ? 1 : sizes[t->dims[i]];
}

static int close_enough(double a, double b, ir_elem e) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  double tol = e == IR_F32 ? 1e-5 : 1e-12;
  return fabs(a - b) <= tol * (1 + fabs(b));
}

/* Lower and run n programs through mlir-cpu-runner-16 in one batch: 0,
 * or a failed check naming `what`. */
static int run_lowered(const gram_dialect *d, emit_run *runs, int n, const char *what) {
  ir_error err = {0};
  int rc = emit_mlir_run(d, runs, n, &err, NULL);
  CHECKF(rc == 0, "%s: %d %s lower and run: %s", d->name, n, what, err.msg);
  return rc;
}

/* Run every chosen one-op program with mlir-cpu-runner-16 (one module),
 * with static shapes or with `?` dims (dynamic), and compare each result
 * with our kernel on the same inputs. */
static void compare_runs(const gram_dialect *d, const chosen *cs, ir_tprog *progs, int n,
                         int dynamic) {
  emit_run *runs = ir_calloc((size_t)n, sizeof *runs);
  ir_tensor (*ins)[IR_TP_MAX_OPERANDS] = ir_calloc((size_t)n, sizeof *ins);
  for (int r = 0; r < n; r++) {
    const gram_op *op = cs[r].prod.op;
    for (int i = 0; i < op->nops; i++) {
      concrete(&cs[r].ops[i], &ins[r][i]);
      size_t sz = ir_tensor_size(&ins[r][i]);
      ins[r][i].data = ir_malloc(sizeof(double) * (sz ? sz : 1));
      /* integer data in its type's range (-4 in ui8 is 252); a shift's
       * count in range (past the width, arith's shifts are poison) */
      const char *kn = gram_prod_kernel(op, cs[r].prod.attrs);
      const interp_op *ko = kn ? interp_op_find(kn) : NULL;
      int count = i == 1 && ko && (ko->flags & INTERP_OP_INT_ONLY);
      for (size_t k = 0; k < sz; k++) {
        double v = rnd(ins[r][i].elem);
        ins[r][i].data[k] = count ? fabs(v) : ir_elem_wrap(ins[r][i].elem, v);
      }
    }
    runs[r].prog = &progs[r];
    runs[r].sizes = sizes;
    runs[r].nsizes = NSYMS;
    runs[r].inputs = ins[r];
    runs[r].dynamic = dynamic;
  }
  int rc = run_lowered(d, runs, n, dynamic ? "programs with dynamic shapes" : "programs");
  for (int r = 0; r < n && rc == 0; r++) {
    const gram_op *op = cs[r].prod.op;
    ir_tensor want;
    concrete(&cs[r].prod.result, &want);
    char attrs[128], ty[128];
    ir_error kerr = {0};
    gram_attrs_str(op, cs[r].prod.attrs, attrs, sizeof attrs);
    int krc = gram_prod_eval(op, cs[r].prod.attrs, ins[r], &want, &kerr);
    CHECKF(krc == 0, "%s.%s %s: kernel runs: %s", d->name, op->name, attrs, kerr.msg);
    if (krc == 0) {
      size_t sz = ir_tensor_size(&want), bad = sz;
      for (size_t k = 0; k < sz && bad == sz; k++)
        if (!close_enough(runs[r].outputs[0].data[k], want.data[k], want.elem)) bad = k;
      CHECKF(bad == sz, "%s.%s %s on %s: MLIR and our kernel agree (element %zu: mlir %g, kernel %g)",
             d->name, op->name, attrs, ir_type_str(&cs[r].ops[0], NULL, ty, sizeof ty), bad,
             bad < sz ? runs[r].outputs[0].data[bad] : 0, bad < sz ? want.data[bad] : 0);
      ir_free(want.data);
      ir_free(want.poison);
    }
    emit_tensor_free(&runs[r].outputs[0]);
  }
  for (int r = 0; r < n; r++)
    for (int i = 0; i < IR_TP_MAX_OPERANDS; i++) ir_free(ins[r][i].data);
  ir_free(ins);
  ir_free(runs);
}

/* A program that uses a value it does not define (an operand that is not
 * one of its arguments) is refused, never printed. */
static void test_undefined(const gram_dialect *d, ir_tp_store *s, const chosen *c) {
  ir_tprog p = one_op(s, c);
  p.nargs--; /* the op's last operand is no longer an argument */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  emit_opts o = {"undefined", sizes, NSYMS, 0, 0, 0};
  int rc = emit_mlir_func(d, &p, &o, f);
  fclose(f);
  CHECKF(rc != 0 && len == 0, "%s.%s: a use of an undefined value is an internal error",
         d->name, c->prod.op->name);
  free(text);
}

/* A reduction over an empty dim gives the kernel's start value: every
 * production of a reduce kernel over a vector [M] of each element type the
 * op takes, run with M = 0 through mlir-cpu-runner-16 and compared with our
 * kernel (the float start, -FLT_MAX in tosa, and the integer one, INT_MIN:
 * the pool's sizes never empty a dim).  The ops whose start is an operand
 * (linalg's, hlo's) have none: returns the number of productions run. */
static int test_empty_reductions(const gram_dialect *d, ir_tp_store *s) {
  static const long empty[NSYMS] = {0, 4, 5, 2};
  static const ir_elem elems[] = {IR_F64, IR_F32, IR_I32, IR_U32, IR_I64};
  static chosen cs[64];
  static ir_tprog progs[64];
  int n = 0;
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->nops != 1) continue;
    for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
      ir_type x = pool_type(1, elems[e]); /* [M] */
      gram_prod ps[8];
      int np = gram_productions(op, &x, NULL, ps, 8, NULL);
      for (int k = 0; k < np && k < 8 && n < 64; k++) {
        const char *kn = gram_prod_kernel(op, ps[k].attrs);
        if (!kn || strcmp(kn, "reduce")) continue;
        cs[n].prod = ps[k];
        cs[n].ops[0] = x;
        progs[n] = one_op(s, &cs[n]);
        n++;
      }
    }
  }
  if (n == 0) return 0;
  emit_run runs[64];
  ir_tensor ins[64];
  memset(runs, 0, sizeof runs);
  memset(ins, 0, sizeof ins);
  static double none[1];
  for (int r = 0; r < n; r++) {
    ins[r].elem = cs[r].ops[0].elem;
    ins[r].rank = 1;
    ins[r].data = none;
    runs[r].prog = &progs[r];
    runs[r].sizes = empty;
    runs[r].nsizes = NSYMS;
    runs[r].inputs = &ins[r];
  }
  int rc = run_lowered(d, runs, n, "reductions over an empty vector");
  for (int r = 0; r < n && rc == 0; r++) {
    const gram_op *op = cs[r].prod.op;
    ir_tensor want = {0};
    want.elem = cs[r].prod.result.elem;
    want.rank = cs[r].prod.result.rank;
    for (int i = 0; i < want.rank; i++) want.dims[i] = cs[r].prod.result.dims[i] == O ? 1 : 0;
    ir_error kerr = {0};
    int krc = gram_prod_eval(op, cs[r].prod.attrs, &ins[r], &want, &kerr);
    const ir_tensor *got = &runs[r].outputs[0];
    size_t sz = krc ? 0 : ir_tensor_size(&want);
    CHECKF(krc == 0 && sz == ir_tensor_size(got) && (sz == 0 || got->data[0] == want.data[0]),
           "%s.%s over an empty %s vector: MLIR and our kernel start from one value (mlir %.17g, "
           "kernel %.17g) %s",
           d->name, op->name, ir_elem_mlir_name(ins[r].elem), sz ? got->data[0] : 0,
           sz ? want.data[0] : 0, kerr.msg);
    ir_free(want.data);
    ir_free(want.poison);
    emit_tensor_free(&runs[r].outputs[0]);
  }
  return n;
}

/* C's running maximum or minimum as written: acc = (x OP acc) ? x : acc
 * in order, in type e (float arithmetic for f32), the reference. */
static double c_update(interp_cmp dir, double init, const double *x, long n, ir_elem e) {
  double acc = init;
  for (long i = 0; i < n; i++) {
    double v = x[i];
    int take = 0;
    if (e == IR_F32) {
      float fv = (float)v, fa = (float)acc;
      take = dir == INTERP_CMP_GT ? fv > fa : dir == INTERP_CMP_GE ? fv >= fa
           : dir == INTERP_CMP_LT ? fv < fa : fv <= fa;
    } else {
      take = dir == INTERP_CMP_GT ? v > acc : dir == INTERP_CMP_GE ? v >= acc
           : dir == INTERP_CMP_LT ? v < acc : v <= acc;
    }
    if (take) acc = v;
  }
  return acc;
}

/* The same value bit for bit, but for a NaN's payload: NaN with NaN, a
 * zero with a zero of its sign. */
static int same_value(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}

/* The conditional-update reductions (reduce bodies upd_gt, upd_ge,
 * upd_lt, upd_le) run through mlir-cpu-runner-16 on the inputs where no
 * max op is exact: a NaN first, in the middle and last, -0 before +0 and
 * the reverse, all -inf, one element and none, from starts that are the
 * body's identity, +0, -0 and NaN.  MLIR 16 must compute the left fold in
 * iteration order, as C does (the reference c_update), and so must our
 * kernel (the verifier's semantics), bit for bit.  Returns the number of
 * runs compared. */
static int test_update_reductions(const gram_dialect *d, ir_tp_store *s) {
  static const double nan_ = NAN, inf = INFINITY;
  static const struct { long n; double x[4]; } vecs[] = {
      {3, {NAN, 1, 2}}, {3, {1, NAN, 2}}, {3, {2, 1, NAN}}, {2, {-0.0, 0.0}},
      {2, {0.0, -0.0}}, {3, {-INFINITY, -INFINITY, -INFINITY}}, {1, {-0.0}},
      {0, {0}}, {4, {0.0, NAN, -0.0, 1}}};
  const int nv = (int)(sizeof vecs / sizeof vecs[0]);
  static const ir_elem elems[] = {IR_F64, IR_F32};
  enum { CAP = 512 };
  static chosen cs[CAP];
  static ir_tprog progs[CAP];
  static emit_run runs[CAP];
  static ir_tensor ins[CAP][2];
  static long rsizes[CAP][NSYMS];
  static double inits[CAP];
  static int vec_of[CAP];
  static interp_cmp dir_of[CAP];
  int n = 0;
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->nops != 2) continue;
    for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
      ir_type ops[2] = {pool_type(1, elems[e]), pool_type(0, elems[e])}; /* [M], [] */
      gram_prod ps[16];
      int np = gram_productions(op, ops, NULL, ps, 16, NULL);
      for (int k = 0; k < np && k < 16; k++) {
        gram_binding b;
        if (gram_bind(op, ps[k].attrs, &b, NULL) || strcmp(b.kernel->name, "reduce") ||
            ps[k].result.rank != 0)
          continue;
        int dir = interp_body_update_dir((interp_body)b.attrs[1].v[0]);
        if (dir < 0) continue;
        double starts[4] = {dir >= INTERP_CMP_GT ? -inf : inf, 0.0, -0.0, nan_};
        for (int v = 0; v < nv; v++)
          for (int st = 0; st < 4 && n < CAP; st++) {
            cs[n].prod = ps[k];
            memcpy(cs[n].ops, ops, sizeof ops);
            progs[n] = one_op(s, &cs[n]);
            memcpy(rsizes[n], sizes, sizeof sizes);
            rsizes[n][M] = vecs[v].n;
            inits[n] = starts[st];
            vec_of[n] = v;
            dir_of[n] = (interp_cmp)dir;
            ins[n][0] = (ir_tensor){.elem = elems[e], .rank = 1, .dims = {vecs[v].n},
                                    .data = (double *)vecs[v].x};
            ins[n][1] = (ir_tensor){.elem = elems[e], .rank = 0, .data = &inits[n]};
            runs[n] = (emit_run){.prog = &progs[n], .sizes = rsizes[n], .nsizes = NSYMS,
                                 .inputs = ins[n]};
            n++;
          }
      }
    }
  }
  if (n == 0) return 0;
  int rc = run_lowered(d, runs, n, "conditional-update reductions");
  int bad = 0;
  for (int r = 0; r < n && rc == 0; r++) {
    const gram_op *op = cs[r].prod.op;
    ir_tensor want = {.elem = cs[r].prod.result.elem};
    ir_error kerr = {0};
    int krc = gram_prod_eval(op, cs[r].prod.attrs, ins[r], &want, &kerr);
    double ref = c_update(dir_of[r], inits[r], vecs[vec_of[r]].x, vecs[vec_of[r]].n,
                          ins[r][0].elem);
    double got = runs[r].outputs[0].data[0];
    if (krc || !same_value(got, ref) || !same_value(want.data[0], ref)) {
      if (bad++ < 5)
        CHECKF(0, "%s.%s %s %s over vector %d from %g: C %g, MLIR %g, kernel %g %s", d->name,
               op->name, interp_cmp_name(dir_of[r]), ir_elem_mlir_name(ins[r][0].elem),
               vec_of[r], inits[r], ref, got, krc ? 0 : want.data[0], kerr.msg);
    }
    ir_free(want.data);
    ir_free(want.poison);
    emit_tensor_free(&runs[r].outputs[0]);
  }
  CHECKF(rc == 0 && bad == 0,
         "%s: %d conditional-update reductions on NaN, -0, -inf, 1 and 0 elements: MLIR, "
         "our kernel and C agree bit for bit (%d differ)", d->name, n, bad);
  return n;
}

/* IEEE maximum and minimum as our kernels max and min define them (NaN
 * propagates, -0 below +0; arith.maxf's documented semantics). */
static double ieee_maxmin(double a, double b, int is_max) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return (signbit(a) != 0) == is_max ? b : a;
  return (is_max ? a > b : a < b) ? a : b;
}

/* C's fmax and fmin as elementwise ops (mode 0: kernels fmax, fmin: a NaN
 * operand gives the other, equal operands the first, interp_c_fmaxmin),
 * the IEEE max and min (1: kernels max, min; in linalg's map, whose
 * arith.maxf MLIR 16 lowers to a NaN-skipping maxnum, so emit/mlir.c
 * writes it as compares and selects), or maxnum and minnum (2: tosa's
 * maximum and minimum, which MLIR 16 lowers to that maxnum: poison at a
 * NaN operand and at zeros of opposite signs, the IEEE value elsewhere),
 * through mlir-cpu-runner-16 on the pairs where they differ: NaN on either
 * side and both, zeros of both signs in both orders, and ordinary ones;
 * MLIR, our kernel and the reference must agree bit for bit where the
 * kernel is defined, and maxnum's kernel must be poison exactly at the
 * NaN and opposite-zero pairs.  Returns the number of runs. */
static int test_binary_maxmin(const gram_dialect *d, ir_tp_store *s, int mode) {
  static const char *const names[3][2] = {{"fmax", "fmin"}, {"max", "min"}, {"maxnum", "minnum"}};
  const char *kmax = names[mode][0], *kmin = names[mode][1];
  int ieee = mode > 0;
  static const double xa[] = {NAN, 1, NAN, -0.0, 0.0, 1, 2, -INFINITY, -0.0, 3};
  static const double xb[] = {1, NAN, NAN, 0.0, -0.0, 2, 1, INFINITY, -0.0, 3};
  enum { LEN = sizeof xa / sizeof xa[0], CAP = 16 };
  static const ir_elem elems[] = {IR_F64, IR_F32};
  static chosen cs[CAP];
  static ir_tprog progs[CAP];
  static emit_run runs[CAP];
  static ir_tensor ins[CAP][2];
  static long rsizes[NSYMS];
  static int is_max[CAP];
  memcpy(rsizes, sizes, sizeof rsizes);
  rsizes[M] = LEN;
  int n = 0;
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->nops != 2) continue;
    for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
      ir_type ops[2] = {pool_type(1, elems[e]), pool_type(1, elems[e])}; /* [M], [M] */
      gram_prod ps[16];
      int np = gram_productions(op, ops, NULL, ps, 16, NULL);
      for (int k = 0; k < np && k < 16 && n < CAP; k++) {
        const char *kn = gram_prod_kernel(op, ps[k].attrs);
        if (!kn || (strcmp(kn, kmax) && strcmp(kn, kmin))) continue;
        cs[n].prod = ps[k];
        memcpy(cs[n].ops, ops, sizeof ops);
        progs[n] = one_op(s, &cs[n]);
        is_max[n] = !strcmp(kn, kmax);
        for (int a = 0; a < 2; a++)
          ins[n][a] = (ir_tensor){.elem = elems[e], .rank = 1, .dims = {LEN},
                                  .data = (double *)(a ? xb : xa)};
        runs[n] = (emit_run){.prog = &progs[n], .sizes = rsizes, .nsizes = NSYMS,
                             .inputs = ins[n]};
        n++;
      }
    }
  }
  if (n == 0) return 0;
  char what[64];
  snprintf(what, sizeof what, "%s/%s maps", kmax, kmin);
  int rc = run_lowered(d, runs, n, what);
  int bad = 0;
  for (int r = 0; r < n && rc == 0; r++) {
    ir_tensor want = {.elem = cs[r].prod.result.elem, .rank = 1, .dims = {LEN}};
    ir_error kerr = {0};
    int krc = gram_prod_eval(cs[r].prod.op, cs[r].prod.attrs, ins[r], &want, &kerr);
    for (int j = 0; j < LEN; j++) {
      double ref = ieee ? ieee_maxmin(xa[j], xb[j], is_max[r])
                        : interp_c_fmaxmin(xa[j], xb[j], is_max[r]);
      double got = runs[r].outputs[0].data[j];
      int open = isnan(xa[j]) || isnan(xb[j]) ||
                 (xa[j] == 0 && xb[j] == 0 && !signbit(xa[j]) != !signbit(xb[j]));
      int poison = !krc && want.poison && want.poison[j];
      if (mode == 2 && !krc && poison == open && open) continue;
      if (krc || poison || (mode == 2 && open) || !same_value(got, ref) ||
          !same_value(want.data[j], ref)) {
        if (bad++ < 5)
          CHECKF(0, "%s.%s %s(%g, %g): C %g, MLIR %g, kernel %g%s %s", d->name,
                 cs[r].prod.op->name, is_max[r] ? kmax : kmin, xa[j], xb[j], ref, got,
                 krc ? 0 : want.data[j], poison ? " (poison)" : "", kerr.msg);
      }
    }
    ir_free(want.data);
    ir_free(want.poison);
    emit_tensor_free(&runs[r].outputs[0]);
  }
  CHECKF(rc == 0 && bad == 0, "%s: %d %s/%s maps on NaN and signed zeros agree with the reference bit for bit",
         d->name, n, kmax, kmin);
  return n;
}

/* reduce_num (tosa's reduce_max and reduce_min, which MLIR 16 folds with
 * maxnum and minnum): through mlir-cpu-runner-16 on vectors with a NaN,
 * zeros of both signs with and without a larger element, and ordinary
 * ones.  The kernel must be poison exactly where the result is open (a
 * NaN, or a zero result with an element of the other sign) and agree with
 * MLIR and the IEEE fold bit for bit elsewhere.  Returns the runs. */
static int test_num_reductions(const gram_dialect *d, ir_tp_store *s) {
  static const double vx[][3] = {{1, NAN, 2}, {-0.0, 0.0, -1}, {0.0, -0.0, 5}, {-0.0, -0.0, -3},
                                 {-2, 0.0, 0.0}, {3, 1, 2}, {-1, -0.0, 0.0}};
  enum { NV = sizeof vx / sizeof vx[0], CAP = 32 };
  static chosen cs[CAP];
  static ir_tprog progs[CAP];
  static emit_run runs[CAP];
  static ir_tensor ins[CAP][1];
  static long rsizes[NSYMS];
  static int vec_of[CAP], max_of[CAP];
  memcpy(rsizes, sizes, sizeof rsizes);
  rsizes[M] = 3;
  int n = 0;
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->nops != 1) continue;
    ir_type ops[1] = {pool_type(1, IR_F32)};
    gram_prod ps[16];
    int np = gram_productions(op, ops, NULL, ps, 16, NULL);
    for (int k = 0; k < np && k < 16; k++) {
      gram_binding b;
      if (gram_bind(op, ps[k].attrs, &b, NULL) || strcmp(b.kernel->name, "reduce_num")) continue;
      for (int v = 0; v < NV && n < CAP; v++) {
        cs[n].prod = ps[k];
        memcpy(cs[n].ops, ops, sizeof ops);
        progs[n] = one_op(s, &cs[n]);
        vec_of[n] = v;
        max_of[n] = b.attrs[1].v[0] == INTERP_BODY_MAX;
        ins[n][0] = (ir_tensor){.elem = IR_F32, .rank = 1, .dims = {3}, .data = (double *)vx[v]};
        runs[n] = (emit_run){.prog = &progs[n], .sizes = rsizes, .nsizes = NSYMS,
                             .inputs = ins[n]};
        n++;
      }
    }
  }
  if (n == 0) return 0;
  int rc = run_lowered(d, runs, n, "maxnum reductions");
  int bad = 0;
  for (int r = 0; r < n && rc == 0; r++) {
    const double *x = vx[vec_of[r]];
    double ref = max_of[r] ? -FLT_MAX : FLT_MAX;
    for (int j = 0; j < 3; j++) ref = ieee_maxmin(ref, x[j], max_of[r]);
    int open = isnan(ref);
    for (int j = 0; j < 3; j++)
      open |= ref == 0 && x[j] == 0 && !signbit(ref) != !signbit(x[j]);
    ir_tensor want = {.elem = IR_F32};
    ir_error kerr = {0};
    int krc = gram_prod_eval(cs[r].prod.op, cs[r].prod.attrs, ins[r], &want, &kerr);
    int poison = !krc && want.poison && want.poison[0];
    double got = runs[r].outputs[0].data[0];
    if (krc || poison != open || (!open && (!same_value(got, ref) || !same_value(want.data[0], ref)))) {
      if (bad++ < 5)
        CHECKF(0, "%s.%s over {%g, %g, %g}: IEEE %g%s, MLIR %g, kernel %g%s %s", d->name,
               cs[r].prod.op->name, x[0], x[1], x[2], ref, open ? " (open)" : "", got,
               krc ? 0 : want.data[0], poison ? " (poison)" : "", kerr.msg);
    }
    ir_free(want.data);
    ir_free(want.poison);
    emit_tensor_free(&runs[r].outputs[0]);
  }
  CHECKF(rc == 0 && bad == 0,
         "%s: %d maxnum reductions: poison exactly where the result is open, else MLIR, "
         "kernel and IEEE agree bit for bit", d->name, n);
  return n;
}

/* ---- pad and conv (issue 14) ----
 * The stencil ops, those with a shift attribute (pad) or of kernel conv,
 * with dynamic shapes too: each chosen production emitted with `?` dims
 * passes mlir-opt-16 (hlo: parses) and, in an upstream dialect, runs and
 * agrees with our kernel.  Returns how many were run or parsed. */
static int test_stencil_dynamic(const gram_dialect *d, const chosen *all, ir_tprog *progs,
                                int nfuncs, int registered) {
  static chosen cs[MAX_FUNCS];
  static ir_tprog ps[MAX_FUNCS];
  int n = 0;
  for (int i = 0; i < nfuncs; i++) {
    const gram_op *op = all[i].prod.op;
    int stencil = op->kernel && !strcmp(op->kernel, "conv");
    for (int a = 0; a < op->nattrs; a++) stencil |= op->attrs[a].dom == GRAM_DOM_SHIFT;
    if (!stencil) continue;
    cs[n] = all[i];
    ps[n++] = progs[i];
  }
  if (n == 0) return 0;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < n; i++) {
    char fname[64];
    snprintf(fname, sizeof fname, "%s_dyn_%d", cs[i].prod.op->name, i);
    emit_opts o = {.func_name = fname, .sizes = sizes, .nsizes = NSYMS, .dynamic = 1};
    CHECKF(emit_mlir_func(d, &ps[i], &o, f) == 0, "%s: emits with dynamic shapes", fname);
  }
  fclose(f);
  ir_error err = {0};
  int rc = emit_mlir_check(text, !registered, &err);
  CHECKF(rc == 0, "%s: %d stencil ops with dynamic shapes pass mlir-opt-16: %s", d->name, n,
         err.msg);
  free(text);
  if (registered && rc == 0) compare_runs(d, cs, ps, n, 1);
  return n;
}
static int nstencil; /* pad and conv productions run with dynamic shapes */
/* ---- end pad ---- */

static int nupdate; /* conditional-update reductions run, all dialects */
static int nempty; /* reductions run over an empty vector, all dialects */

/* Is every dim of c's result 1 or a dim of one of its operands? */
static int sized_by_operands(const chosen *c) {
  for (int k = 0; k < c->prod.result.rank; k++) {
    long dim = c->prod.result.dims[k];
    int found = dim == O;
    for (int i = 0; i < c->prod.op->nops && !found; i++)
      for (int j = 0; j < c->ops[i].rank && !found; j++) found = c->ops[i].dims[j] == dim;
    if (!found) return 0;
  }
  return 1;
}

static void test_dialect(const char *name, ir_elem fe, int registered, ir_arena *a) {
  gram_dialect *d = gram_load(name, a);
  CHECKF(d != NULL, "%s loads", name);
  if (!d) return;
  ir_tp_store s;
  ir_tp_store_init(&s, a);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int nfuncs = 0;
  static chosen all[MAX_FUNCS];
  static ir_tprog progs[MAX_FUNCS];
  for (int i = 0; i < d->nops; i++) {
    chosen cs[7 * PER_OP]; /* the float choice and the integer ones below */
    /* a window attribute is the caller's (the enumerator's aligned
     * operands), never enumerated: slice runs end to end through
     * tests/kernels/slice in test_mlir_e2e */
    int given = 0;
    for (int a = 0; a < d->ops[i]->nattrs; a++) given |= d->ops[i]->attrs[a].dom == GRAM_DOM_WINDOW;
    if (given) continue;
    int n = choose(d->ops[i], fe, fe, cs);
    /* and on integer data where the op takes it: i32 operands (shifts,
     * arithmetic); conversions from ui8 to i32 (a zero extension), from
     * i16 to i32 (by sign) and from i32 to ui8 (a truncation), and ui32
     * operands, whose values here (-4 is 4294967292) make products past
     * 2^53: the concrete kernels compute integer sums and products exactly
     * on 64-bit integers (a dot product of ui32 too) */
    static const ir_elem ints[][2] = {
        {IR_I32, IR_I32}, {IR_U8, IR_I32}, {IR_I16, IR_I32}, {IR_I32, IR_U8}, {IR_U32, IR_U32}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
      n += choose(d->ops[i], ints[k][0], ints[k][1], cs + n);
    CHECKF(n > 0, "%s.%s: the pool yields productions", name, d->ops[i]->name);
    for (int k = 0; k < n && nfuncs < MAX_FUNCS; k++) {
      ir_tprog p = one_op(&s, &cs[k]);
      all[nfuncs] = cs[k];
      progs[nfuncs] = p;
      char fname[64];
      snprintf(fname, sizeof fname, "%s_%d", d->ops[i]->name, k);
      emit_opts o = {fname, sizes, NSYMS, 0, 0, 0};
      CHECKF(emit_mlir_func(d, &p, &o, f) == 0, "%s: emits", fname);
      nfuncs++;
    }
  }
  fclose(f);
  for (int i = 0; i < nfuncs; i++)
    if (all[i].prod.op->nops > 0) {
      test_undefined(d, &s, &all[i]);
      break;
    }
  ir_error err = {0};
  int rc = emit_mlir_check(text, !registered, &err);
  CHECKF(rc == 0, "%s: %d one-op functions pass mlir-opt-16%s:\n%s", name, nfuncs,
         registered ? "" : " --allow-unregistered-dialect", err.msg);
  if (rc) fprintf(stderr, "%s\n", text);
  free(text);
  nstencil += test_stencil_dynamic(d, all, progs, nfuncs, registered);
  if (registered && rc == 0) {
    CHECKF(emit_mlir_tools_available(), "%s: mlir-cpu-runner-16 and its libraries are installed (mk/deps.sh)", name);
    if (emit_mlir_tools_available()) {
      compare_runs(d, all, progs, nfuncs, 0);
      /* and with `?` dims those whose result dims are dims of operands
       * (a result sized by nothing else has no value then: iota, fill) */
      static chosen dall[MAX_FUNCS];
      static ir_tprog dprogs[MAX_FUNCS];
      int nd = 0;
      for (int i = 0; i < nfuncs; i++)
        if (sized_by_operands(&all[i])) dall[nd] = all[i], dprogs[nd++] = progs[i];
      CHECKF(nd > 0, "%s: %d one-op programs sized by their operands", name, nd);
      compare_runs(d, dall, dprogs, nd, 1);
      nempty += test_empty_reductions(d, &s);
      nupdate += test_update_reductions(d, &s);
      nupdate += test_binary_maxmin(d, &s, 0);
      /* linalg's IEEE max and min are written exactly; tosa.maximum and
       * minimum, which MLIR 16's tosa-to-linalg lowers to the NaN-skipping
       * maxnum whatever the spelling, are maxnum and minnum: poison where
       * maxnum's value is open (docs/verify.md) */
      if (!strcmp(name, "linalg") || !strcmp(name, "tosa")) {
        int m = test_binary_maxmin(d, &s, name[0] == 'l' ? 1 : 2);
        CHECKF(m > 0, "%s: IEEE max/min maps run (%d)", name, m);
      }
      if (!strcmp(name, "tosa")) {
        int m = test_num_reductions(d, &s);
        CHECKF(m > 0, "tosa: maxnum reductions run (%d)", m);
      }
    }
  }
  ir_tp_store_free(&s);
}

int main(void) {
  CHECK("mlir-opt-16 is installed (mk/deps.sh)", emit_mlir_tools_available());
  if (!emit_mlir_tools_available()) return TEST_REPORT();
  ir_arena a;
  ir_arena_init(&a);
  test_dialect("hlo", IR_F64, 0, &a);
  test_dialect("linalg", IR_F64, 1, &a);
  test_dialect("tosa", IR_F32, 1, &a);
  CHECKF(nempty > 0, "%d reductions start from a kernel constant (tosa's)", nempty);
  CHECKF(nstencil >= 3, "%d pads and convs run with dynamic shapes (every dialect has a pad)",
         nstencil);
  CHECKF(nupdate > 0, "%d conditional-update reductions and C fmax/fmin maps run (linalg's)", nupdate);
  ir_arena_free(&a);
  CHECK("no leaks", ir_mem_live() == 0);
  return TEST_REPORT();
}
