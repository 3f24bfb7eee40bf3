/*
 * pair.c - checking a rewrite rule: two tensor programs (as candidate
 * callbacks) over the same fresh symbolic inputs, at every size assignment
 * 1..bound.  The formula is the refinement of verify_task_check with the
 * left-hand side in the source's place: some element where lhs is defined
 * and rhs is undefined or differs.  Real mode simplifies both sides to sums
 * of monomials first; fp mode sizes its bit-vectors from the term count.
 */
#include <string.h>
#include <time.h>

#include "verify/internal.h"

typedef enum pres { P_UNSAT, P_SAT, P_UNKNOWN, P_ERROR } pres;

typedef struct pq {
  vx x;
  interp_sym_tensor ins[16];
  interp_sym_tensor out[2];
} pq;

static void pq_free(pq *q, int nin) {
  for (int i = 0; i < nin; i++) ir_free(q->ins[i].data);
  for (int j = 0; j < 2; j++) interp_sym_tensor_free(&q->out[j]);
  vx_free(&q->x);
}

/* Build both sides of a pair query over fresh inputs.  Returns 0, or -1
 * with err filled (a side failed to evaluate, or the shapes differ). */
static int pq_build(pq *q, Z3_context z, vx_kind kind, unsigned width, const ir_kernel *k,
                    int nin, const int *in_vars, const long *sizes,
                    const verify_candidate *const c[2], ir_error *err) {
  memset(q, 0, sizeof *q);
  vx_init(&q->x, kind, z, width);
  q->x.cand = 1; /* both sides are tensor programs (IEEE identities) */
  /* and a product with a literal 0 is IEEE's (NaN at an infinite or NaN
   * factor, -0 at a negative one): in a rule it is no masked-out element
   * of a search's select, so the structural zero of a_mul would prove
   * `multiply(0, x) -> 0`, which MLIR does not keep at x = NaN */
  q->x.ieee_zero = 1;
  for (int i = 0; i < nin; i++) {
    const ir_var *v = k->vars[in_vars[i]];
    interp_sym_tensor *t = &q->ins[i];
    t->elem = v->elem;
    t->rank = v->rank;
    long n = 1;
    for (int d = 0; d < v->rank; d++) {
      t->dims[d] = ir_expr_eval_int(v->dims[d], sizes);
      n *= t->dims[d];
    }
    t->data = ir_malloc(sizeof(interp_term) * (size_t)(n + 1));
    for (long j = 0; j < n; j++) t->data[j] = vx_fresh(&q->x, v->name);
  }
  for (int j = 0; j < 2; j++) {
    ir_error e = {0};
    q->x.in_lhs = j == 0;
    int bad = c[j]->eval_sym(c[j]->user, sizes, q->ins, nin, &q->out[j], 1, &q->x.alg, &e);
    q->x.in_lhs = 0;
    if (bad)
      return ir_error_set(err, e.pos, e.code, "%s: %s", j ? "rhs" : "lhs", e.msg);
  }
  int ok = q->out[0].rank == q->out[1].rank;
  for (int d = 0; ok && d < q->out[0].rank; d++) ok = q->out[0].dims[d] == q->out[1].dims[d];
  if (!ok) {
    const ir_pos nowhere = {0};
    return ir_error_set(err, nowhere, IR_ERR_SHAPE, "lhs and rhs have different shapes");
  }
  return 0;
}

static Z3_ast pq_formula(pq *q, Z3_params som) {
  vx *x = &q->x;
  Z3_context z = x->z;
  long n = 1;
  for (int d = 0; d < q->out[0].rank; d++) n *= q->out[0].dims[d];
  Z3_ast *dis = ir_malloc(sizeof(Z3_ast) * (size_t)(n + 1));
  long nd = 0;
  for (long i = 0; i < n; i++) {
    interp_term av = q->out[0].data[i], bv = q->out[1].data[i];
    interp_term ap = q->out[0].poison ? q->out[0].poison[i] : INTERP_TERM_NONE;
    interp_term bp = q->out[1].poison ? q->out[1].poison[i] : INTERP_TERM_NONE;
    Z3_ast f = vx_mismatch(x, av, ap, bv, bp, som);
    if (!f) continue;
    dis[nd++] = f;
  }
  /* the left side meets a maxnum whose value is open: MLIR 16 gives one
   * of the values there, which the rule need not keep */
  if (x->open_lhs) dis[nd++] = x->open_lhs;
  Z3_ast r = nd ? vx_keep(x, Z3_mk_or(z, (unsigned)nd, dis)) : NULL;
  ir_free(dis);
  return r;
}

static pres check_one_run(verify_ctx *v, Z3_solver s, const ir_kernel *k, int nin,
                          const int *in_vars, const long *sizes,
                          const verify_candidate *const c[2], verify_result *res) {
  Z3_context z = vx_ctx_z3(v);
  const verify_options *o = verify_get_options(v);
  vx_kind kind = o->mode == VERIFY_FP ? VX_FP : VX_REAL;
  unsigned width = 0;
  pq q;
  ir_error err = {0};
  if (kind == VX_FP) {
    if (pq_build(&q, z, VX_FP, 64, k, nin, in_vars, sizes, c, &err)) {
      snprintf(res->reason, sizeof res->reason, "%s", err.msg);
      pq_free(&q, nin);
      return P_ERROR;
    }
    width = vx_fp_width(&q.x);
    pq_free(&q, nin);
    if (width > (unsigned)res->fp_width) res->fp_width = (int)width;
  }
  if (pq_build(&q, z, kind, width, k, nin, in_vars, sizes, c, &err)) {
    snprintf(res->reason, sizeof res->reason, "%s", err.msg);
    pq_free(&q, nin);
    return P_ERROR;
  }
  Z3_params som = kind == VX_REAL ? vx_som_params(z) : NULL;
  Z3_ast f = pq_formula(&q, som);
  if (som) Z3_params_dec_ref(z, som);
  pres out = P_UNSAT;
  if (vx_z3_error()) {
    snprintf(res->reason, sizeof res->reason, "Z3 error while building the query");
    out = P_ERROR;
  } else if (f) {
    Z3_solver_push(z, s);
    Z3_solver_assert(z, s, f);
    Z3_ast side = vx_side(&q.x);
    if (side) Z3_solver_assert(z, s, side);
    if (kind == VX_FP && q.x.nlits > 1)
      Z3_solver_assert(z, s, vx_keep(&q.x, Z3_mk_distinct(z, (unsigned)q.x.nlits, q.x.litast)));
    Z3_lbool r = vx_check(v, s, res);
    out = r == Z3_L_FALSE ? P_UNSAT : r == Z3_L_TRUE ? P_SAT : P_UNKNOWN;
    Z3_solver_pop(z, s, 1);
    if (vx_z3_error() && out != P_SAT) out = P_ERROR;
  }
  pq_free(&q, nin);
  return out;
}

/* check_one_run under the verifier's watch (watch.c): past the budget,
 * or when building the query ran past the time limit, unknown. */
static pres check_one(verify_ctx *v, Z3_solver s, const ir_kernel *k, int nin,
                      const int *in_vars, const long *sizes,
                      const verify_candidate *const c[2], verify_result *res) {
  vx_watch *w = vx_ctx_watch(v);
  if (vx_watch_expired(w)) {
    snprintf(res->reason, sizeof res->reason, "the time budget (--timeout) ran out");
    return P_UNKNOWN;
  }
  vx_watch_begin(w);
  pres r = check_one_run(v, s, k, nin, in_vars, sizes, c, res);
  vx_watch_end(w);
  if (r == P_ERROR && vx_watch_interrupted(w)) {
    snprintf(res->reason, sizeof res->reason,
             "building the query took longer than its wall-clock limit of %g s "
             "(--smt-timeout)", verify_get_options(v)->timeout);
    r = P_UNKNOWN;
  }
  return r;
}

int verify_rule_check(verify_ctx *v, const ir_kernel *k, int nin, const int *in_vars,
                      const verify_candidate *lhs, const verify_candidate *rhs,
                      verify_result *res) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const verify_options *o = verify_get_options(v);
  memset(res, 0, sizeof *res);
  res->mode = o->mode;
  res->bound = o->bound;
  res->steps = o->steps;
  if (o->mode == VERIFY_NONE) {
    res->verdict = VERIFY_SKIPPED;
    return 0;
  }
  if (nin > 16) {
    res->verdict = VERIFY_ERROR;
    snprintf(res->reason, sizeof res->reason, "more than 16 inputs");
    return -1;
  }
  Z3_context z = vx_ctx_z3(v);
  Z3_solver s = vx_solver_new(v);
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  for (int i = 0; i < k->nvars; i++) sizes[i] = k->vars[i]->kind == IR_VAR_SIZE ? 1 : 0;
  ir_kernel_pin_extents(k, sizes);
  const verify_candidate *c[2] = {lhs, rhs};
  res->verdict = VERIFY_PROVED;
  int unknown = 0;
  for (;;) {
    res->queries++;
    pres r = check_one(v, s, k, nin, in_vars, sizes, c, res);
    if (r == P_SAT || r == P_ERROR) {
      char msg[200];
      snprintf(msg, sizeof msg, "%.190s", r == P_SAT ? "the solver found inputs where they differ (its model is not run here: the IEEE run that follows checks it)" : res->reason);
      size_t off = (size_t)snprintf(res->reason, sizeof res->reason, "%s at", msg);
      for (int i = 0; i < k->nvars && off < sizeof res->reason; i++)
        if (k->vars[i]->kind == IR_VAR_SIZE)
          off += (size_t)snprintf(res->reason + off, sizeof res->reason - off, " %s=%ld",
                                  k->vars[i]->name, sizes[i]);
      res->verdict = r == P_SAT ? VERIFY_REFUTED : VERIFY_ERROR;
      break;
    }
    if (r == P_UNKNOWN) unknown = 1;
    int i;
    for (i = 0; i < k->nvars; i++) {
      if (k->vars[i]->kind != IR_VAR_SIZE) continue;
      if (sizes[i] < o->bound) {
        sizes[i]++;
        break;
      }
      sizes[i] = 1;
    }
    if (i == k->nvars) break;
  }
  if (res->verdict == VERIFY_PROVED && unknown) res->verdict = VERIFY_UNKNOWN;
  if (res->verdict == VERIFY_PROVED) res->reason[0] = 0;
  Z3_solver_dec_ref(z, s);
  ir_free(sizes);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  res->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  return res->verdict == VERIFY_ERROR ? -1 : 0;
}
