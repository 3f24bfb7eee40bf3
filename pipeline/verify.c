/*
 * verify.c - the bridge between the enumerator's view of a task
 * (enum_query: a candidate node over the task's input leaves) and the
 * verifier's (verify_task + a candidate as callbacks), shared by
 * `uplift raise` (the CEGIS callback), `uplift verify` (re-checking a saved
 * report) and the tests, so that all check a program the same way; and
 * the task set-up (statement mask, input leaves) the enumerator uses.
 */
#include <math.h>
#include <string.h>

#include "pipeline/pipeline.h"

#define MAX_CEX_INPUTS 64

int pipe_cand_eval_sym(void *user, const long *sizes, const interp_sym_tensor *inputs, int nin,
                       interp_sym_tensor *outs, int nout, const interp_sym_algebra *alg,
                       interp_err *err) {
  const pipe_cand *c = user;
  (void)nout;
  return enum_eval_node_sym(c->node, c->in_vars, inputs, nin, sizes, alg, &outs[0], err);
}

int pipe_cand_eval(void *user, const long *sizes, const ir_tensor *inputs, int nin,
                   ir_tensor *outs, int nout, interp_err *err) {
  const pipe_cand *c = user;
  (void)nout;
  /* arguments are numbered by var id */
  ir_tensor *args = ir_calloc((size_t)c->nvars, sizeof(ir_tensor));
  for (int i = 0; i < nin; i++) args[c->in_vars[i]] = inputs[i];
  int r = enum_eval_node(c->node, args, c->nvars, sizes, &outs[0], err);
  ir_free(args);
  return r;
}

int pipe_verify_state_open(pipe_verify_state *vs, const verify_options *vo) {
  memset(vs, 0, sizeof *vs);
  if (vo->mode == VERIFY_NONE) return 0;
  vs->v = verify_new(vo);
  return vs->v ? 0 : -1;
}

void pipe_verify_state_close(pipe_verify_state *vs) {
  if (vs->v) verify_free(vs->v);
  vs->v = NULL;
}

void pipe_verify_state_free(pipe_verify_state *vs) {
  if (vs->last) {
    verify_result_free(vs->last);
    ir_free(vs->last);
  }
  if (vs->shown) {
    verify_result_free(vs->shown);
    ir_free(vs->shown);
  }
  vs->shown = NULL;
  ir_free(vs->cex_inputs);
  vs->last = NULL;
  vs->cex_inputs = NULL;
}

int pipe_tnode_masks(const ir_tnode *n, const ir_tnode **out, int nout, int cap) {
  if (!n) return nout;
  if (n->kind == IR_TN_MASK) {
    for (int i = 0; i < nout; i++)
      if (out[i] == n) return nout;
    if (nout < cap) out[nout++] = n;
    return nout;
  }
  for (int i = 0; i < n->nops; i++) nout = pipe_tnode_masks(n->ops[i], out, nout, cap);
  return nout;
}

#define MAX_MASKS 32

/* Mark in refs[var id] the size variables n's types and masks refer to. */
static void tnode_sizes(const ir_tnode *n, unsigned char *refs) {
  if (!n) return;
  for (int d = 0; d < n->type.rank; d++)
    if (n->type.dims[d] >= 0) refs[n->type.dims[d]] = 1;
  if (n->kind == IR_TN_MASK && n->mask)
    for (int c = 0; c < n->mask->ncons; c++)
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
        if (n->mask->cons[c].pcoef[p]) refs[n->mask->cons[c].sym[p]] = 1;
  for (int i = 0; i < n->nops; i++) tnode_sizes(n->ops[i], refs);
}

/* Thresholds that a comparison of the candidate may draw on an index, as
 * masks: a comparison (an op with an i1 result) whose operands hold a
 * constant c (iota compared with 30) distinguishes the indices below c,
 * at c and past c, which no mask leaf shows.  For each such constant
 * (rounded up, absolute value, 2 or more) and each size dim of the
 * comparison's type, two constraints i_d - c >= 0 and i_d - c - 1 >= 0, so
 * that the size cases reach a size with an index at c and one past it.
 * Fills syn[] / mk[] (ns so far, cap) and returns the new count. */
#define MAX_THRESH_MASKS 32
static int threshold_masks(const ir_tnode *n, const ir_tnode *cmp, ir_tnode *syn,
                           ir_mask *mk, int ns, int cap) {
  if (!n) return ns;
  if (n->kind == IR_TN_OP && n->type.elem == IR_I1 && n->type.rank > 0) cmp = n;
  if (cmp && n->kind == IR_TN_CONST && isfinite(n->value) && fabs(n->value) < 1e6) {
    long c = (long)ceil(fabs(n->value));
    for (int d = 0; c >= 2 && d < cmp->type.rank; d++) {
      if (cmp->type.dims[d] < 0) continue; /* a dim of 1 */
      for (int off = 0; off < 2 && ns < cap; off++) {
        int dup = 0;
        for (int j = 0; j < ns && !dup; j++)
          dup = ir_type_equal(&syn[j].type, &cmp->type) && mk[j].cons[0].coef[d] == 1 &&
                mk[j].cons[0].c == -(int)(c + off);
        if (dup) continue;
        memset(&mk[ns], 0, sizeof mk[ns]);
        mk[ns].ncons = 1;
        mk[ns].cons[0].coef[d] = 1;
        mk[ns].cons[0].c = -(int)(c + off);
        memset(&syn[ns], 0, sizeof syn[ns]);
        syn[ns].kind = IR_TN_MASK;
        syn[ns].type = cmp->type;
        syn[ns].type.elem = IR_I1;
        syn[ns].mask = &mk[ns];
        ns++;
      }
    }
  }
  for (int i = 0; i < n->nops; i++) ns = threshold_masks(n->ops[i], cmp, syn, mk, ns, cap);
  return ns;
}

void pipe_size_cases(const ir_kernel *k, const unsigned char *mask, const ir_tnode *cand,
                    poly_size_cases *sc) {
  const ir_tnode *masks[MAX_MASKS + MAX_THRESH_MASKS];
  ir_tnode syn[MAX_THRESH_MASKS];
  ir_mask mk[MAX_THRESH_MASKS];
  int nm = pipe_tnode_masks(cand, masks, 0, MAX_MASKS);
  int ns = threshold_masks(cand, NULL, syn, mk, 0, MAX_THRESH_MASKS);
  for (int i = 0; i < ns; i++) masks[nm++] = &syn[i];
  if (poly_size_cases_build(k, mask, nm, masks, PIPE_SIZE_CASES, sc)) {
    memset(sc, 0, sizeof *sc);
    sc->left_out = 1; /* the cases are unknown: nothing may be proved */
  }
}

int pipe_all_sizes_bind(void *user, const ir_tnode *n, poly_binding *out) {
  (void)user;
  gram_binding b;
  if (n->kind != IR_TN_OP || gram_bind(n->op->owner, n->attrs, &b, NULL)) return -1;
  memset(out, 0, sizeof *out);
  out->kernel = b.kernel->name;
  memcpy(out->attrs, b.attrs, sizeof out->attrs);
  out->nargs = b.nargs;
  memcpy(out->args, b.args, sizeof out->args);
  for (int i = 0; i < b.nargs; i++) out->kconst[i] = gram_binding_kconst(&b, i, n->type.elem);
  return 0;
}

/* After a proved verdict, the proof for every size (real mode only: fp
 * mode's promise is about rounding, which the normal form does not see).
 * Fills vr->all_sizes and vr->all_sizes_reason. */
static void all_sizes(const enum_query *q, verify_result *vr) {
  vr->all_sizes = 0;
  snprintf(vr->all_sizes_reason, sizeof vr->all_sizes_reason, "%s", VERIFY_ALL_SIZES_REASON);
  if (vr->verdict != VERIFY_PROVED) return;
  size_t n = strlen(vr->all_sizes_reason);
  char *why = vr->all_sizes_reason + n;
  size_t room = sizeof vr->all_sizes_reason - n;
  if (vr->mode != VERIFY_REAL) {
    snprintf(why, room, "; the proof for every size covers real mode only");
    return;
  }
  poly_all_sizes_task t = {q->analysis, q->mask, q->nin, q->in_vars, q->out_var, q->cand,
                           pipe_all_sizes_bind, NULL};
  char buf[200];
  if (poly_all_sizes(&t, buf, sizeof buf)) {
    vr->all_sizes = 1;
    vr->all_sizes_reason[0] = 0;
  } else {
    snprintf(why, room, "; not within reach of the proof for every size: %s", buf);
  }
}

/* A kernel whose constant extents were made size symbols (pipe_generalize:
 * the pinned sizes) is proved for the sizes the verifier tries, but the
 * user's code has them at one value each, which those need not include.
 * A proof for every size covers it; otherwise t is checked again with the
 * pinned sizes at their values (the other sizes as before), and a verdict
 * there that is not proved becomes vr's.  When every assignment with the
 * pinned values is past the element limit, none can be checked: the
 * pinned sizes are then covered as the verifier covers every size (the
 * box and a representative of each size case, docs/verify.md), and
 * vr->all_sizes_reason says so. */
static void pinned_check(pipe_verify_state *vs, verify_task t, const verify_candidate *cand,
                         verify_result *vr) {
  int any = 0;
  for (int v = 0; v < t.k->nvars; v++) any |= t.k->vars[v]->pinned;
  if (!any || vr->verdict != VERIFY_PROVED || vr->all_sizes) return;
  verify_result at;
  t.pinned = 1;
  /* when the proof at the sizes the verifier tries already relies on the
   * sign of a zero, asking it again at the constant extents (the largest
   * query of the check: correlation's 32 x 28 division by a sqrt) would
   * only be thrown away; otherwise it is asked there too, since the signs
   * of zeros at the user's sizes need not behave as at the small ones */
  t.zero_signs_known = (vr->assumes & VERIFY_ASSUMES_ZERO_SIGN) != 0;
  verify_task_check(vs->v, &t, cand, &at);
  vr->seconds += at.seconds;
  if (at.verdict == VERIFY_PROVED ||
      (at.verdict == VERIFY_UNKNOWN && at.size_cases == 0 && at.cases_left_out > 0)) {
    if (at.verdict == VERIFY_PROVED) {
      vr->size_cases += at.size_cases;
      vr->assumes |= at.assumes; /* what the proof at the user's sizes relied on */
    }
    else {
      size_t n = strlen(vr->all_sizes_reason);
      snprintf(vr->all_sizes_reason + n, sizeof vr->all_sizes_reason - n,
               "; the constant extents were checked as sizes, not at their values "
               "(%ld elements or more)", VERIFY_MAX_ELEMS);
    }
    verify_result_free(&at);
    return;
  }
  char why[sizeof vr->reason + 64];
  snprintf(why, sizeof why, "at the constant extents the code is written with: %s", at.reason);
  memcpy(at.reason, why, sizeof at.reason - 1); /* cut to fit */
  at.reason[sizeof at.reason - 1] = 0;
  at.seconds = vr->seconds;
  at.size_cases += vr->size_cases;
  snprintf(at.all_sizes_reason, sizeof at.all_sizes_reason, "%s", vr->all_sizes_reason);
  verify_result_free(vr);
  *vr = at;
}

/* Hand out vr's confirmed counterexample over q's inputs in r (has_cex),
 * through vs->cex_inputs; valid while vr is. */
static void hand_out_cex(pipe_verify_state *vs, const enum_query *q, const verify_result *vr,
                         enum_verify_result *r) {
  r->has_cex = 0;
  if (!vr->cex || !vr->cex->confirmed || q->nin > MAX_CEX_INPUTS) return;
  ir_tensor *cex_inputs = vs->cex_inputs;
  r->has_cex = 1;
  r->cex.sizes = vr->cex->sizes;
  r->cex.inputs = cex_inputs;
  r->cex.zero_sign = vr->cex->expected == 0 && vr->cex->got == 0;
  for (int i = 0; i < q->nin; i++) {
    memset(&cex_inputs[i], 0, sizeof cex_inputs[i]);
    for (int j = 0; j < vr->cex->nvars; j++)
      if (vr->cex->vars[j] == q->in_vars[i]) cex_inputs[i] = vr->cex->values[j];
    if (!cex_inputs[i].data) r->has_cex = 0;
  }
}

/* The check of t's candidate again without the masked-zero assumption
 * into vs->shown: its counterexample, if confirmed, is an input where the
 * assumption matters (handed out in r). */
static void show_masked_zero(pipe_verify_state *vs, const enum_query *q, verify_task t,
                             const verify_candidate *cand, enum_verify_result *r) {
  if (vs->shown) verify_result_free(vs->shown);
  else vs->shown = ir_calloc(1, sizeof *vs->shown);
  memset(vs->shown, 0, sizeof *vs->shown);
  t.ieee_masked_zero = 1;
  verify_task_check(vs->v, &t, cand, vs->shown);
  if (vs->shown->verdict == VERIFY_REFUTED) hand_out_cex(vs, q, vs->shown, r);
  if (r->has_cex && r->cex.zero_sign) {
    /* not the assumption's difference (the solver's model may differ in a
     * zero's sign only): once more for inputs without NaN and -0, where
     * an infinity meeting a masked zero is what can differ */
    r->has_cex = 0;
    verify_result_free(vs->shown);
    memset(vs->shown, 0, sizeof *vs->shown);
    t.ordinary_inputs = 1;
    verify_task_check(vs->v, &t, cand, vs->shown);
    if (vs->shown->verdict == VERIFY_REFUTED) hand_out_cex(vs, q, vs->shown, r);
  }
  if (r->cex.zero_sign) r->has_cex = 0; /* not the assumption's difference */
  if (r->has_cex) snprintf(r->differs, sizeof r->differs, "%s", vs->shown->reason);
}

#define PIPE_ALT_ORDINARY_OPS 3

/* Has c among its floating input values a NaN or a -0 (what 1), or an
 * infinity (what 2)? */
static int cex_special(const ir_kernel *k, const verify_cex *c, int what) {
  for (int i = 0; i < c->nvars; i++) {
    if (!ir_elem_is_float(k->vars[c->vars[i]]->elem)) continue;
    const ir_tensor *tv = &c->values[i];
    for (size_t j = 0; j < ir_tensor_size(tv); j++) {
      double d = tv->data[j];
      if (what == 1 ? isnan(d) || (d == 0 && signbit(d)) : isinf(d)) return 1;
    }
  }
  return 0;
}

/* A real-mode refutation in vs->last whose counterexample needs a NaN or
 * a -0 among its inputs, of a task that compares: t is checked again for
 * inputs without them
 * (verify_task.ordinary_inputs 1), and if that is refuted with an infinity
 * among the inputs, for finite inputs without -0 (2; TOSA's reduce_max
 * starts from -FLT_MAX); a first refutation with an infinity (and no NaN
 * or -0) among its inputs goes to 2 at once.  A proof there becomes vs->last, with
 * VERIFY_ASSUMES_ORDINARY (and VERIFY_ASSUMES_FINITE), and the first
 * refutation moves to vs->shown, whose counterexample is the input where
 * the assumption matters.  Returns 1 if so. */
static int ordinary_check(pipe_verify_state *vs, const enum_query *q, verify_task t,
                          const verify_candidate *cand) {
  verify_result *vr = vs->last;
  /* only where the C code compares (a comparison, a select, fmax, fmin or
   * a max or min reduction): other arithmetic has an exact program */
  const unsigned cmp = POLY_OP_CMP | POLY_OP_SELECT | POLY_OP_MAX | POLY_OP_MIN |
                       POLY_OP_RED_MAX | POLY_OP_RED_MIN;
  if (!(q->analysis->tasks[q->task].ops & cmp)) return 0;
  if (vr->verdict != VERIFY_REFUTED || vr->mode != VERIFY_REAL || !vr->cex ||
      !vr->cex->confirmed)
    return 0;
  /* a counterexample with an infinity and no NaN or -0 goes straight to
   * finite inputs */
  int first = cex_special(t.k, vr->cex, 1) ? 1 : cex_special(t.k, vr->cex, 2) ? 2 : 0;
  if (!first) return 0;
  verify_result *at = NULL;
  for (int level = first; level <= 2; level++) {
    if (at) { /* refuted for inputs without NaN or -0: with an infinity, try finite ones */
      int inf = at->verdict == VERIFY_REFUTED && at->cex && cex_special(t.k, at->cex, 2);
      if (!inf) break; /* that refutation is the answer (below) */
      verify_result_free(at);
      ir_free(at);
      at = NULL;
    }
    at = ir_calloc(1, sizeof *at);
    t.ordinary_inputs = level;
    verify_task_check(vs->v, &t, cand, at);
    all_sizes(q, at);
    pinned_check(vs, t, cand, at);
    vr->seconds += at->seconds;
    if (at->verdict == VERIFY_PROVED) break;
  }
  if (at && at->verdict == VERIFY_REFUTED && at->cex && at->cex->confirmed) {
    /* wrong for those inputs too: that refutation is the one handed to
     * the search, so that its examples stay within the assumption (an
     * example with an infinity rules out every program that holds only
     * for finite inputs, as tosa's reduce_max from -FLT_MAX against C's
     * running maximum, and the search would end without one) */
    at->seconds = vr->seconds;
    verify_result_free(vr);
    ir_free(vr);
    vs->last = at;
    return 0;
  }
  if (!at || at->verdict != VERIFY_PROVED) {
    if (at) verify_result_free(at);
    ir_free(at);
    return 0;
  }
  at->seconds = vr->seconds;
  at->assumes |= VERIFY_ASSUMES_ORDINARY | (t.ordinary_inputs == 2 ? VERIFY_ASSUMES_FINITE : 0);
  if (vs->shown) {
    verify_result_free(vs->shown);
    ir_free(vs->shown);
  }
  vs->shown = vr;
  vs->last = at;
  return 1;
}

void pipe_verify_cb(void *user, const enum_query *q, enum_verify_result *r) {
  pipe_verify_state *vs = user;
  const char *was = ir_budget_phase_name();
  ir_budget_phase("verification");
  if (vs->last) verify_result_free(vs->last);
  else vs->last = ir_calloc(1, sizeof *vs->last);
  if (!vs->cex_inputs) vs->cex_inputs = ir_calloc(MAX_CEX_INPUTS, sizeof(ir_tensor));
  poly_size_cases sc;
  pipe_size_cases(q->kernel, q->mask, q->cand, &sc);
  int nvars = q->kernel->nvars;
  unsigned char *refs = ir_calloc((size_t)nvars + 1, 1);
  int *cand_sizes = ir_calloc((size_t)nvars + 1, sizeof(int)), ncs = 0;
  tnode_sizes(q->cand, refs);
  for (int v = 0; v < nvars; v++)
    if (refs[v] && q->kernel->vars[v]->kind == IR_VAR_SIZE) cand_sizes[ncs++] = v;
  verify_task t = {q->kernel, q->mask, q->nin, q->in_vars, 1, &q->out_var,
                   sc.ncases, sc.cases, sc.left_out, ncs, cand_sizes, 0, 0, 0, 0};
  pipe_cand c = {q->cand, q->in_vars, nvars};
  verify_candidate cand = {pipe_cand_eval_sym, pipe_cand_eval, &c};
  memset(r, 0, sizeof *r);
  memset(vs->last, 0, sizeof *vs->last);
  verify_task_check(vs->v, &t, &cand, vs->last);
  all_sizes(q, vs->last);
  pinned_check(vs, t, &cand, vs->last);
  int ordinary = ordinary_check(vs, q, t, &cand);
  const verify_result *vr = vs->last;
  r->mode = verify_mode_name(vr->mode);
  r->bound = vr->bound;
  r->seconds = vr->seconds;
  r->steps = vr->steps;
  r->steps_used = vr->steps_used;
  r->size_cases = vr->size_cases;
  r->cases_left_out = vr->cases_left_out;
  r->assumes = vr->verdict == VERIFY_PROVED ? vr->assumes : 0;
  /* how many ops more an exact program may take: one for a masked zero
   * (the mask moves past a product), PIPE_ALT_ORDINARY_OPS for C's
   * comparisons (an exact max compares and selects) */
  r->avoidable = (r->assumes & VERIFY_ASSUMES_ORDINARY)       ? PIPE_ALT_ORDINARY_OPS
                 : (r->assumes & VERIFY_ASSUMES_CONDITIONAL) ? 1
                                                             : 0;
  r->all_sizes = vr->all_sizes;
  snprintf(r->all_sizes_reason, sizeof r->all_sizes_reason, "%s", vr->all_sizes_reason);
  switch (vr->verdict) {
  case VERIFY_PROVED: r->verdict = ENUM_PROVED; break;
  case VERIFY_REFUTED: r->verdict = ENUM_REFUTED; break;
  case VERIFY_SKIPPED: r->verdict = ENUM_SKIPPED; break;
  default: r->verdict = ENUM_UNKNOWN; break;
  }
  snprintf(r->reason, sizeof r->reason, "%s", r->verdict == ENUM_PROVED ? "" : vr->reason);
  if (vr->verdict == VERIFY_REFUTED) hand_out_cex(vs, q, vr, r);
  if (ordinary && q->show_avoidable) {
    hand_out_cex(vs, q, vs->shown, r);
    if (r->has_cex) snprintf(r->differs, sizeof r->differs, "%s", vs->shown->reason);
  } else if (r->verdict == ENUM_PROVED && (r->assumes & VERIFY_ASSUMES_MASKED_ZERO) &&
             q->show_avoidable) {
    show_masked_zero(vs, q, t, &cand, r);
  }
  poly_size_cases_free(&sc);
  ir_free(refs);
  ir_free(cand_sizes);
  ir_budget_phase(was);
}

int pipe_task_setup_make(const poly_analysis *a, int task, ir_tp_store *store, ir_arena *arena,
                        pipe_task_setup *out) {
  const ir_kernel *k = a->kernel;
  const poly_task *pt = &a->tasks[task];
  memset(out, 0, sizeof *out);
  out->mask = IR_NEW_N(arena, unsigned char, k->nassign + 1);
  for (int i = 0; i < a->nprelude; i++) out->mask[a->prelude[i]] = 1;
  for (int i = 0; i < pt->nstmts; i++) out->mask[pt->stmts[i]] = 1;
  out->nin = pt->ninputs;
  out->in_vars = IR_NEW_N(arena, int, pt->ninputs + 1);
  out->in_args = IR_NEW_N(arena, const ir_tnode *, pt->ninputs + 1);
  for (int i = 0; i < pt->ninputs; i++) {
    const poly_input *pi = &pt->inputs[i];
    ir_type ty;
    out->in_vars[i] = pi->var;
    if (enum_var_type(k, pi->var, &ty)) return -1;
    if ((pi->flags & POLY_IN_CONST) && pi->has_value)
      out->in_args[i] = ir_tp_const(store, pi->value, &ty);
    else
      out->in_args[i] = ir_tp_arg(store, pi->var, k->vars[pi->var]->name, &ty);
  }
  return 0;
}

void pipe_verify_program(pipe_verify_state *vs, const poly_analysis *a, const gram_dialect *d,
                         const pipe_task_setup *ts, int task, int var, const ir_tnode *prog,
                         enum_verify_result *r) {
  enum_query q = {a->kernel, a, task, ts->mask, ts->nin, ts->in_vars, ts->in_args,
                  var, prog, d, 0};
  pipe_verify_cb(vs, &q, r);
}
