/*
 * rewrites.c - rule mining (rewrites.h): the term matcher and normalizer,
 * the miner over enum_explore's equal candidates, and the Z3 check of each
 * rule with verify_rule_check.
 *
 * Argument leaves are pattern variables; a variable matches any term of
 * its element type and rank, renaming the size symbols consistently.
 * Hash-consed nodes make "the same term" pointer equality.  A rule whose
 * left-hand side has a subterm that is not finite on positive inputs (a
 * division by zero) holds only vacuously and is not proposed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rewrites/rewrites.h"

/* ------------------------------------------------------------ matching */

#define MAXSYM 64

typedef struct subst {
  const ir_tnode *var[MAXSYM]; /* by arg number (var id) */
  int dim[MAXSYM];             /* size symbol map, -2: unset */
} subst;

static void subst_init(subst *s) {
  memset(s->var, 0, sizeof s->var);
  for (int i = 0; i < MAXSYM; i++) s->dim[i] = -2;
}

static int match_type(subst *s, const ir_type *p, const ir_type *t) {
  if (p->elem != t->elem || p->rank != t->rank) return 0;
  for (int d = 0; d < p->rank; d++) {
    int a = p->dims[d], b = t->dims[d];
    if (a == IR_DIM_ONE || b == IR_DIM_ONE) {
      if (a != b) return 0;
      continue;
    }
    if (a < 0 || a >= MAXSYM) return 0;
    if (s->dim[a] == -2) s->dim[a] = b;
    else if (s->dim[a] != b) return 0;
  }
  return 1;
}

static int match(subst *s, const ir_tnode *p, const ir_tnode *t) {
  if (!match_type(s, &p->type, &t->type)) return 0;
  switch (p->kind) {
  case IR_TN_ARG:
    if (p->arg < 0 || p->arg >= MAXSYM) return 0;
    if (s->var[p->arg]) return s->var[p->arg] == t;
    s->var[p->arg] = t;
    return 1;
  case IR_TN_CONST: return t->kind == IR_TN_CONST && t->value == p->value;
  case IR_TN_MASK: return p == t;
  case IR_TN_OP: break;
  }
  if (t->kind != IR_TN_OP || t->op != p->op || t->nops != p->nops ||
      memcmp(t->attrs, p->attrs, sizeof t->attrs))
    return 0;
  for (int i = 0; i < p->nops; i++)
    if (!match(s, p->ops[i], t->ops[i])) return 0;
  return 1;
}

static ir_type map_type(const subst *s, const ir_type *t) {
  ir_type r = *t;
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] >= 0 && t->dims[d] < MAXSYM && s->dim[t->dims[d]] != -2)
      r.dims[d] = s->dim[t->dims[d]];
  return r;
}

static const ir_tnode *instantiate(ir_tp_store *st, const subst *s, const ir_tnode *n) {
  ir_type ty = map_type(s, &n->type);
  switch (n->kind) {
  case IR_TN_ARG: return n->arg < MAXSYM && s->var[n->arg] ? s->var[n->arg] : n;
  case IR_TN_CONST: return ir_tp_const(st, n->value, &ty);
  case IR_TN_MASK: return n;
  case IR_TN_OP: break;
  }
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < n->nops; i++) ops[i] = instantiate(st, s, n->ops[i]);
  return ir_tp_op(st, n->op, n->attrs, ops, n->nops, &ty);
}

/* Normal form of n under rules[0..nr-1] (bounded rewriting). */
static const ir_tnode *normalize(ir_tp_store *st, const rw_rule *rules, int nr,
                                 const ir_tnode *n, int depth) {
  if (depth > 16) return n;
  if (n->kind == IR_TN_OP) {
    const ir_tnode *ops[IR_TP_MAX_OPERANDS];
    int changed = 0;
    for (int i = 0; i < n->nops; i++) {
      ops[i] = normalize(st, rules, nr, n->ops[i], depth + 1);
      changed |= ops[i] != n->ops[i];
    }
    if (changed) n = ir_tp_op(st, n->op, n->attrs, ops, n->nops, &n->type);
  }
  for (int r = 0; r < nr; r++) {
    subst s;
    subst_init(&s);
    if (match(&s, rules[r].lhs, n))
      return normalize(st, rules, nr, instantiate(st, &s, rules[r].rhs), depth + 1);
  }
  return n;
}

const ir_tnode *rw_normalize(ir_tp_store *store, const rw_rule *rules, int nr,
                             const ir_tnode *n) {
  return normalize(store, rules, nr, n, 0);
}

/* Do the argument leaves of b all occur in a? */
static int vars_within(const ir_tnode *a, const ir_tnode *b) {
  if (b->kind == IR_TN_ARG) {
    const ir_tnode *stack[256];
    int sp = 0;
    stack[sp++] = a;
    while (sp) {
      const ir_tnode *x = stack[--sp];
      if (x == b) return 1;
      for (int i = 0; i < x->nops && sp < 256; i++) stack[sp++] = x->ops[i];
    }
    return 0;
  }
  for (int i = 0; i < b->nops; i++)
    if (!vars_within(a, b->ops[i])) return 0;
  return 1;
}

/* ------------------------------------------------------------- mining */

typedef struct miner {
  rw_rule *props;
  int n, cap;
} miner;

static void on_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  (void)level;
  miner *m = u;
  if (n->size <= rep->size) return;
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 256;
    m->props = ir_realloc(m->props, sizeof(rw_rule) * (size_t)m->cap);
  }
  m->props[m->n++] = (rw_rule){n, rep, VERIFY_SKIPPED, VERIFY_SKIPPED, NULL};
}

static int cmp_rule(const void *a, const void *b) {
  const rw_rule *x = a, *y = b;
  if (x->lhs->size != y->lhs->size) return x->lhs->size - y->lhs->size;
  if (x->rhs->size != y->rhs->size) return x->rhs->size - y->rhs->size;
  return x->lhs->id - y->lhs->id;
}

static int check(verify_ctx *v, const rw_rules *rs, const int *in_vars, const rw_rule *r,
                 verify_result *res) {
  pipe_cand a = {r->lhs, in_vars, rs->k->nvars}, b = {r->rhs, in_vars, rs->k->nvars};
  verify_candidate ca = {pipe_cand_eval_sym, NULL, &a}, cb = {pipe_cand_eval_sym, NULL, &b};
  return verify_rule_check(v, rs->k, rs->nargs, in_vars, &ca, &cb, res);
}

/* Is every op subterm of n finite and defined on one random input at
 * sizes 3 (seeded)?  Rules whose left-hand side divides by zero hold only
 * vacuously (undefined behaviour), so they are not proposed. */
static int all_finite(const ir_tnode *n, const ir_tensor *args, int nargs, const long *sizes) {
  if (n->kind != IR_TN_OP) return 1;
  for (int i = 0; i < n->nops; i++)
    if (!all_finite(n->ops[i], args, nargs, sizes)) return 0;
  ir_tensor t;
  interp_err e;
  if (enum_eval_node(n, args, nargs, sizes, &t, &e)) return 0;
  int ok = 1;
  for (size_t j = 0; ok && j < ir_tensor_size(&t); j++)
    ok = !(t.poison && t.poison[j]) && isfinite(t.data[j]);
  interp_tensor_free(&t);
  return ok;
}

static int defined_lhs(const rw_rules *rs, const ir_tnode *lhs) {
  const ir_kernel *k = rs->k;
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  ir_tensor *args = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
  interp_rng rng;
  interp_rng_seed(&rng, 0xfeedu);
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = 3;
  ir_kernel_pin_extents(k, sizes);
  for (int i = 0; i < rs->nargs; i++) {
    const ir_tnode *a = rs->args[i];
    ir_tensor *t = &args[a->arg];
    t->elem = a->type.elem;
    t->rank = a->type.rank;
    for (int d = 0; d < t->rank; d++) t->dims[d] = a->type.dims[d] == IR_DIM_ONE ? 1 : sizes[a->type.dims[d]];
    size_t n = ir_tensor_size(t);
    t->data = ir_malloc((n + 1) * sizeof(double));
    for (size_t j = 0; j < n; j++) t->data[j] = (double)interp_rng_range(&rng, 1, 64) / 8.0;
  }
  int ok = all_finite(lhs, args, k->nvars, sizes);
  for (int v = 0; v < k->nvars; v++) ir_free(args[v].data);
  ir_free(args);
  ir_free(sizes);
  return ok;
}

static void push(rw_rule **arr, int *n, const rw_rule *r) {
  *arr = ir_realloc(*arr, sizeof(rw_rule) * (size_t)(*n + 1));
  (*arr)[(*n)++] = *r;
}

/* The two verifiers of the mining (real, and fp when o->fp); NULL with
 * both freed when Z3 cannot be set up. */
static int verifiers(const rw_opts *o, verify_ctx **vr, verify_ctx **vf) {
  verify_options vo;
  verify_options_default(&vo);
  vo.bound = o->bound > 0 ? o->bound : 2;
  if (o->smt_timeout > 0) vo.timeout = o->smt_timeout;
  if (o->smt_steps) vo.steps = o->smt_steps > 0 ? (unsigned long)o->smt_steps : 0;
  *vr = verify_new(&vo);
  vo.mode = VERIFY_FP;
  *vf = o->fp ? verify_new(&vo) : NULL;
  if (*vr && (!o->fp || *vf)) return 0;
  verify_free(*vr);
  verify_free(*vf);
  return -1;
}

/* Judge proposed rule `rule`: implied, vacuous, or checked with vr (and vf)
 * and added to out's accepted or failed rules. */
static void judge(rw_rules *out, rw_rule rule, const int *in_vars, verify_ctx *vr,
                  verify_ctx *vf, ir_tp_store *store, ir_arena *arena) {
  if (!vars_within(rule.lhs, rule.rhs) || /* not a rewrite of lhs alone */
      normalize(store, out->rules, out->n, rule.lhs, 0) ==
          normalize(store, out->rules, out->n, rule.rhs, 0) ||
      !defined_lhs(out, rule.lhs)) { /* holds only through undefined behaviour */
    out->implied++;
    return;
  }
  verify_result res;
  check(vr, out, in_vars, &rule, &res);
  rule.real = res.verdict;
  if (res.verdict != VERIFY_PROVED)
    rule.why = ir_arena_strdup(arena, res.reason[0] ? res.reason : verify_verdict_name(res.verdict));
  verify_result_free(&res);
  if (rule.real == VERIFY_PROVED && vf) {
    check(vf, out, in_vars, &rule, &res);
    rule.fp = res.verdict;
    verify_result_free(&res);
  }
  if (rule.real == VERIFY_PROVED) push(&out->rules, &out->n, &rule);
  else push(&out->failed, &out->nfailed, &rule);
}

pipe_error rw_mine(const rw_opts *o, ir_arena *arena, ir_tp_store *store, rw_rules *out,
                   ir_error *err) {
  const ir_pos nowhere = {0};
  memset(out, 0, sizeof *out);
  pipe_inputs in;
  pipe_error pe = pipe_inputs_load(o->inputs, o->dialect, arena, store, &in, err);
  out->k = in.k;
  out->d = in.d;
  out->nargs = in.nargs;
  memcpy(out->args, in.args, sizeof out->args);
  if (pe != PIPE_OK) return pe;
  if (out->k->nvars > MAXSYM) {
    ir_error_set(err, nowhere, IR_ERR_INPUT, "too many inputs and dims");
    return PIPE_ERR_INPUTS;
  }
  miner m = {NULL, 0, 0};
  enum_explore_hooks h = {NULL, on_equal, NULL, &m};
  enum_stats st;
  int r = enum_explore(out->k, out->d, out->args, out->nargs, &o->search, &h, store, &st);
  if (r < 0) {
    ir_free(m.props);
    ir_error_set(err, nowhere, IR_ERR_INTERNAL, "the enumeration failed");
    return PIPE_ERR_INTERNAL;
  }
  out->complete = r == 0;
  out->limited = r == ENUM_EXPLORE_LIMIT;
  out->proposed = m.n;
  if (m.n) qsort(m.props, (size_t)m.n, sizeof(rw_rule), cmp_rule);
  int in_vars[PIPE_MAX_INPUTS];
  for (int i = 0; i < out->nargs; i++) in_vars[i] = out->args[i]->arg;
  verify_ctx *vr, *vf;
  if (verifiers(o, &vr, &vf)) {
    ir_free(m.props);
    ir_error_set(err, nowhere, IR_ERR_TOOL, "cannot set up Z3");
    return PIPE_ERR_SOLVER;
  }
  int i = 0;
  for (; i < m.n && !ir_budget_expired(); i++) {
    if (o->on_rule) o->on_rule(o->user, i, m.n);
    judge(out, m.props[i], in_vars, vr, vf, store, arena);
  }
  out->unjudged = m.n - i; /* the time budget ran out */
  verify_free(vr);
  verify_free(vf);
  ir_free(m.props);
  return PIPE_OK;
}

void rw_rules_free(rw_rules *r) {
  ir_free(r->rules);
  ir_free(r->failed);
  r->rules = r->failed = NULL;
  r->n = r->nfailed = 0;
}
