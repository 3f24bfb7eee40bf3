/*
 * verify.c - the bounded equivalence check (verify.h): the Z3 context, the
 * loop over size assignments, one query per assignment inside push/pop
 * under the solver's budget (a step count, Z3's rlimit, that decides; a
 * wall-clock timeout as the net: vx_solver_new, vx_check), the model
 * turned into a counterexample, and its concrete confirmation.
 *
 * One query: build the terms of the source (exec.c) and of the candidate
 * (its eval_sym callback over the world's algebra), then assert
 *   OR over compared elements e of
 *      src_defined(e) AND (NOT cand_defined(e) OR src(e) != cand(e))
 * and check.  In real mode both value terms are first simplified to sums of
 * monomials (Z3 som); elements whose simplified values coincide and whose
 * definedness conditions are trivially equal drop out, so an equivalent
 * candidate often needs no solver call at all.  In fp mode the terms are
 * built twice: once at 64 bits to count the distinct terms, then at the
 * smallest width that gives every term its own value.
 */
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/interp.h"
#include "verify/internal.h"

struct verify_ctx {
  verify_options opt;
  Z3_context z;
  vx_watch *watch; /* interrupts Z3 past its time limit (watch.c) */
};

/* ------------------------------------------------------------- names */

void verify_options_default(verify_options *o) {
  o->mode = VERIFY_REAL;
  o->bound = 3;
  o->steps = VERIFY_DEFAULT_STEPS;
  o->timeout = VERIFY_DEFAULT_TIMEOUT;
  o->budget = 0;
}

static const char *const mode_names[] = {"real", "fp", "none"};
static const char *const verdict_names[] = {"proved", "refuted", "unknown",
                                            "skipped", "error"};

const char *verify_mode_name(verify_mode m) {
  return (unsigned)m < 3 ? mode_names[m] : "?";
}

int verify_mode_parse(const char *name) {
  for (int i = 0; i < 3; i++)
    if (name && !strcmp(name, mode_names[i])) return i;
  return -1;
}

const char *verify_assumes_name(int i, int json) {
  static const char *const names[VERIFY_ASSUMES_ALL][2] = {
      {VERIFY_MASKED_ZERO_TEXT, VERIFY_MASKED_ZERO_JSON},
      {VERIFY_ZERO_SIGN_TEXT, VERIFY_ZERO_SIGN_JSON},
      {VERIFY_ORDINARY_TEXT, VERIFY_ORDINARY_JSON},
      {VERIFY_FINITE_TEXT, VERIFY_FINITE_JSON}};
  return i >= 0 && i < VERIFY_ASSUMES_ALL ? names[i][json != 0] : NULL;
}

const char *verify_verdict_name(verify_verdict v) {
  return (unsigned)v < 5 ? verdict_names[v] : "?";
}

const char *verify_verdict_word(verify_verdict v, unsigned assumes, int json) {
  if (v != VERIFY_PROVED) return verify_verdict_name(v);
  int finite = (assumes & (VERIFY_ASSUMES_MASKED_ZERO | VERIFY_ASSUMES_FINITE)) != 0;
  if (assumes & VERIFY_ASSUMES_ORDINARY) {
    if (finite) return json ? VERIFY_PROVED_FINITE_ORD_JSON : VERIFY_PROVED_FINITE_ORD_TEXT;
    return json ? VERIFY_PROVED_ORDINARY_JSON : VERIFY_PROVED_ORDINARY_TEXT;
  }
  if (finite) return json ? VERIFY_PROVED_FINITE_JSON : VERIFY_PROVED_FINITE_TEXT;
  return verify_verdict_name(v);
}

int verify_verdict_parse(const char *name) {
  for (int i = 0; i < 5; i++)
    if (name && !strcmp(name, verdict_names[i])) return i;
  return -1;
}

/* ----------------------------------------------------------- context */

verify_ctx *verify_new(const verify_options *opt) {
  Z3_config cfg = Z3_mk_config();
  if (!cfg) return NULL;
  Z3_set_param_value(cfg, "model", "true");
  Z3_context z = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  if (!z) return NULL;
  Z3_set_error_handler(z, vx_z3_handler);
  verify_ctx *v = ir_calloc(1, sizeof *v);
  v->z = z;
  if (opt)
    v->opt = *opt;
  else
    verify_options_default(&v->opt);
  if (v->opt.bound < 1) v->opt.bound = 1;
  /* the command's own budget (ir_budget_start) bounds this one too */
  double budget = ir_budget_left(v->opt.budget);
  v->watch = vx_watch_new(z, v->opt.timeout, budget > 0 ? vx_now() + budget : 0);
  return v;
}

void verify_free(verify_ctx *v) {
  if (!v) return;
  vx_watch_free(v->watch);
  Z3_del_context(v->z);
  ir_free(v);
}

const verify_options *verify_get_options(const verify_ctx *v) {
  return &v->opt;
}

Z3_context vx_ctx_z3(const verify_ctx *v) { return v->z; }
vx_watch *vx_ctx_watch(const verify_ctx *v) { return v->watch; }

/* ---------------------------------------------------- solver budgets */

/* The solver steps (Z3's rlimit, 0: none) of s's checks from now on; Z3
 * counts the limit from the count at the start of each check. */
static void solver_set_steps(const verify_ctx *v, Z3_solver s, unsigned long steps) {
  Z3_context z = v->z;
  Z3_params p = Z3_mk_params(z);
  Z3_params_inc_ref(z, p);
  Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "rlimit"),
                     (unsigned)(steps < VERIFY_MAX_STEPS ? steps : VERIFY_MAX_STEPS));
  Z3_solver_set_params(z, s, p);
  Z3_params_dec_ref(z, p);
}

Z3_solver vx_solver_new(const verify_ctx *v) {
  Z3_context z = v->z;
  Z3_solver s = Z3_mk_solver(z);
  Z3_solver_inc_ref(z, s);
  Z3_params p = Z3_mk_params(z);
  Z3_params_inc_ref(z, p);
  double ms = v->opt.timeout * 1000.0;
  Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"),
                     ms < 1 ? 1u : ms > 4e9 ? 4000000000u : (unsigned)ms);
  Z3_solver_set_params(z, s, p);
  Z3_params_dec_ref(z, p);
  solver_set_steps(v, s, v->opt.steps);
  return s;
}

/* The context's resource count so far (Z3's statistic "rlimit count",
 * which Z3 keeps in 32 bits: differences are taken modulo 2^32). */
static unsigned steps_now(Z3_context z, Z3_solver s) {
  Z3_stats st = Z3_solver_get_statistics(z, s);
  Z3_stats_inc_ref(z, st);
  unsigned r = 0;
  for (unsigned i = 0; i < Z3_stats_size(z, st); i++) {
    if (strcmp(Z3_stats_get_key(z, st, i), "rlimit count")) continue;
    r = Z3_stats_is_uint(z, st, i) ? Z3_stats_get_uint_value(z, st, i)
                                   : (unsigned)Z3_stats_get_double_value(z, st, i);
    break;
  }
  Z3_stats_dec_ref(z, st);
  return r;
}

Z3_lbool vx_check(verify_ctx *v, Z3_solver s, verify_result *res) {
  Z3_context z = v->z;
  res->solver_calls++;
  res->steps = v->opt.steps;
  unsigned before = steps_now(z, s);
  vx_watch_begin(v->watch); /* each check gets the whole time limit */
  Z3_lbool r = Z3_solver_check(z, s);
  unsigned long used = (unsigned)(steps_now(z, s) - before);
  if (used > res->steps_used) res->steps_used = used;
  if (r != Z3_L_UNDEF) return r;
  if (v->opt.steps && used >= v->opt.steps)
    snprintf(res->reason, sizeof res->reason,
             "the query used up its %lu solver steps (--smt-steps)", v->opt.steps);
  else if (vx_watch_expired(v->watch))
    snprintf(res->reason, sizeof res->reason, "the time budget (--timeout) ran out");
  else if (vx_watch_interrupted(v->watch) ||
           strstr(Z3_solver_get_reason_unknown(z, s), "timeout") ||
           strstr(Z3_solver_get_reason_unknown(z, s), "cancel"))
    snprintf(res->reason, sizeof res->reason,
             "the query ran past its wall-clock limit of %g s (--smt-timeout)",
             v->opt.timeout);
  else
    snprintf(res->reason, sizeof res->reason, "solver: %s", Z3_solver_get_reason_unknown(z, s));
  return r;
}

static double now(void) { return ir_monotonic_seconds(); }

/* ------------------------------------------------------ size symbols */

static void mark_sizes(const ir_kernel *k, const ir_expr *e, unsigned char *used);

static void mark_var(const ir_kernel *k, int v, unsigned char *used) {
  const ir_var *iv = k->vars[v];
  if (iv->kind == IR_VAR_SIZE) used[v] = 1;
  for (int d = 0; d < iv->rank; d++) mark_sizes(k, iv->dims[d], used);
}

static void mark_sizes(const ir_kernel *k, const ir_expr *e, unsigned char *used) {
  if (!e) return;
  if (e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) mark_var(k, e->var, used);
  for (int i = 0; i < e->nargs; i++) mark_sizes(k, e->args[i], used);
}

/* Mark the sizes that the selected statements depend on; returns whether
 * the list holds a selected assignment. */
static int mark_stmts(const ir_kernel *k, const ir_stmt *s,
                      const unsigned char *mask, unsigned char *used) {
  int any = 0;
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) {
      if (mask && !mask[s->id]) continue;
      mark_sizes(k, s->lhs, used);
      mark_sizes(k, s->rhs, used);
      any = 1;
    } else if (s->kind == IR_ST_FOR) {
      if (mark_stmts(k, s->body, mask, used)) {
        mark_sizes(k, s->lo, used);
        mark_sizes(k, s->hi, used);
        any = 1;
      }
    } else {
      int a = mark_stmts(k, s->then_body, mask, used);
      int b = mark_stmts(k, s->else_body, mask, used);
      if (a || b) {
        mark_sizes(k, s->cond, used);
        any = 1;
      }
    }
  }
  return any;
}

/* ------------------------------------------------------------ a query */

typedef struct query {
  verify_ctx *v;
  const verify_task *t;
  const verify_candidate *cand;
  const long *sizes;
  vx x;
  vx_exec e;
  interp_term **init;          /* per var: the initial (input) terms or NULL */
  interp_sym_tensor *couts;    /* candidate outputs */
  int ncouts;
  int zrelax;                  /* real: the relaxed sign of a zero */
  ir_error err;                /* why query_build failed */
} query;

/* A query of candidate cand for task t at sizes, not built yet. */
static void query_start(query *q, verify_ctx *v, const verify_task *t,
                        const verify_candidate *cand, const long *sizes, int zrelax) {
  memset(q, 0, sizeof *q);
  q->v = v;
  q->t = t;
  q->cand = cand;
  q->sizes = sizes;
  q->zrelax = zrelax;
}

static int is_input(const verify_task *t, int var) {
  for (int i = 0; i < t->ninputs; i++)
    if (t->inputs[i] == var) return 1;
  return 0;
}

static void query_release(query *q) {
  const ir_kernel *k = q->t->k;
  if (q->init)
    for (int v = 0; v < k->nvars; v++) ir_free(q->init[v]);
  ir_free(q->init);
  q->init = NULL;
  for (int i = 0; i < q->ncouts; i++) interp_sym_tensor_free(&q->couts[i]);
  ir_free(q->couts);
  q->couts = NULL;
  q->ncouts = 0;
  vx_exec_free(&q->e);
  vx_free(&q->x);
}

/* The source's failure (q->e.err) as the query's: "source: " and the
 * statement's position in front of the message.  Returns -1. */
static int source_error(query *q) {
  char where[320];
  ir_error_str(&q->e.err, where, sizeof where);
  const ir_pos nowhere = {0};
  return ir_error_set(&q->err, nowhere, q->e.err.code, "source: %s", where);
}

/* Build the source and candidate terms in a fresh world.  Returns 0, -1
 * with q->err, or 1 when the source is undefined at these sizes whatever
 * the inputs (an unguarded assignment outside its array, as
 * corr[m-1][m-1] at m = 0): every candidate refines it there. */
static int query_build(query *q, vx_kind kind, unsigned width,
                       const double *(*values_of)(int, void *), void *user) {
  const verify_task *t = q->t;
  const ir_kernel *k = t->k;
  const ir_pos nowhere = {0};
  vx_init(&q->x, kind, kind == VX_CONCRETE ? NULL : q->v->z, width);
  q->x.zrelax = q->zrelax;
  q->x.ity = k->data_type;
  q->x.int_reals = kind == VX_INT && q->v->opt.mode == VERIFY_REAL;
  if (vx_exec_init(&q->e, &q->x, k, q->sizes, t->inputs, t->ninputs, values_of,
                   user)) {
    return source_error(q);
  }
  q->init = ir_calloc((size_t)k->nvars + 1, sizeof(interp_term *));
  for (int v = 0; v < k->nvars; v++) {
    const vx_var *var = &q->e.vars[v];
    ir_var_kind vk = k->vars[v]->kind;
    if (!var->has ||
        !(vk == IR_VAR_SCALAR || vk == IR_VAR_ARRAY || is_input(t, v)))
      continue;
    q->init[v] = ir_malloc(sizeof(interp_term) * (size_t)(var->n + 1));
    memcpy(q->init[v], var->val, sizeof(interp_term) * (size_t)var->n);
  }
  /* the candidate sees the inputs as they are before the task runs */
  interp_sym_tensor ins[16];
  interp_term *bufs[16];
  if (t->ninputs > 16 || t->noutputs > 16) {
    return ir_error_set(&q->err, nowhere, IR_ERR_INPUT, "more than 16 inputs or outputs");
  }
  for (int i = 0; i < t->ninputs; i++) {
    int v = t->inputs[i];
    const vx_var *var = &q->e.vars[v];
    ins[i].elem = k->vars[v]->elem;
    ins[i].rank = var->rank;
    memcpy(ins[i].dims, var->dims, sizeof ins[i].dims);
    bufs[i] = q->init[v];
    ins[i].data = bufs[i];
    ins[i].poison = NULL;
  }
  if (vx_exec_run(&q->e, t->mask)) {
    source_error(q);
    return q->e.ub_always ? 1 : -1;
  }
  q->couts = ir_calloc((size_t)t->noutputs + 1, sizeof(interp_sym_tensor));
  q->ncouts = t->noutputs;
  ir_error cerr = {0};
  q->x.cand = 1; /* the candidate is a tensor program (IEEE identities) */
  q->x.ieee_zero = t->ieee_masked_zero;
  if (q->cand->eval_sym(q->cand->user, q->sizes, ins, t->ninputs, q->couts, t->noutputs,
                        &q->x.alg, &cerr)) {
    return ir_error_set(&q->err, cerr.pos, cerr.code, "candidate: %s", cerr.msg);
  }
  for (int j = 0; j < t->noutputs; j++) {
    const vx_var *var = &q->e.vars[t->outputs[j]];
    const interp_sym_tensor *c = &q->couts[j];
    int ok = c->rank == var->rank && c->data;
    for (int d = 0; ok && d < var->rank; d++) ok = c->dims[d] == var->dims[d];
    if (!ok) {
      return ir_error_set(&q->err, nowhere, IR_ERR_SHAPE,
                          "candidate output %d has the wrong shape for '%s'", j,
                          k->vars[t->outputs[j]]->name);
    }
  }
  return 0;
}

/* Is element i of output j compared?  Every element of a parameter (the
 * task leaves it at its old value where it does not write it), of an
 * output that is also an input, and the elements a local is written at. */
static int compared(const query *q, int j, long i) {
  int v = q->t->outputs[j];
  ir_var_kind vk = q->t->k->vars[v]->kind;
  return vk == IR_VAR_ARRAY || vk == IR_VAR_SCALAR || q->e.vars[v].written[i] ||
         is_input(q->t, v);
}

/* The refutation condition of one query (a Bool AST kept in the world), or
 * NULL if it is trivially false. */
static Z3_ast query_formula(query *q, Z3_params som) {
  vx *x = &q->x;
  Z3_context z = x->z;
  long cap = 64, n = 0;
  Z3_ast *dis = ir_malloc(sizeof(Z3_ast) * (size_t)cap);
  for (int j = 0; j < q->t->noutputs; j++) {
    const vx_var *var = &q->e.vars[q->t->outputs[j]];
    const interp_sym_tensor *c = &q->couts[j];
    for (long i = 0; i < var->n; i++) {
      if (!compared(q, j, i)) continue;
      Z3_ast f = vx_mismatch(x, var->val[i], var->poi[i], c->data[i],
                             c->poison ? c->poison[i] : INTERP_TERM_NONE, som);
      if (!f) continue;
      if (n == cap) {
        cap *= 2;
        dis = ir_realloc(dis, sizeof(Z3_ast) * (size_t)cap);
      }
      dis[n++] = f;
    }
  }
  Z3_ast r = n ? vx_keep(x, Z3_mk_or(z, (unsigned)n, dis)) : NULL;
  ir_free(dis);
  return r;
}

/* ------------------------------------------------------ counterexamples */

static void cex_free(verify_cex *c) {
  if (!c) return;
  for (int i = 0; i < c->nvars; i++) interp_tensor_free(&c->values[i]);
  ir_free(c->values);
  ir_free(c->vars);
  ir_free(c->sizes);
  ir_free(c);
}

void verify_result_free(verify_result *res) {
  cex_free(res->cex);
  res->cex = NULL;
}

/* The value of a numeric term in model m as a double. */
static int model_real(Z3_context z, Z3_model m, Z3_ast a, double *out) {
  Z3_ast r = NULL;
  if (!Z3_model_eval(z, m, a, true, &r) || !r) return -1;
  Z3_inc_ref(z, r);
  int ok = 0;
  if (Z3_is_numeral_ast(z, r)) {
    *out = Z3_get_numeral_double(z, r);
  } else if (Z3_is_algebraic_number(z, r)) {
    const char *s = Z3_get_numeral_decimal_string(z, r, 20);
    *out = strtod(s, NULL);
  } else {
    ok = -1;
  }
  Z3_dec_ref(z, r);
  return ok;
}

static int model_bv(Z3_context z, Z3_model m, Z3_ast a, uint64_t *out) {
  Z3_ast r = NULL;
  if (!Z3_model_eval(z, m, a, true, &r) || !r) return -1;
  Z3_inc_ref(z, r);
  int ok = Z3_get_numeral_uint64(z, r, out) ? 0 : -1;
  Z3_dec_ref(z, r);
  return ok;
}

/* Is Bool a (NULL: false) true in model m? */
static int model_true(Z3_context z, Z3_model m, Z3_ast a) {
  Z3_ast r = NULL;
  if (!a || !Z3_model_eval(z, m, a, true, &r) || !r) return 0;
  Z3_inc_ref(z, r);
  int t = Z3_get_bool_value(z, r) == Z3_L_TRUE;
  Z3_dec_ref(z, r);
  return t;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Turn model m into concrete inputs.  fp: abstract values equal to a
 * literal's become that literal; the other distinct values become distinct
 * small integers that are no literal. */
static verify_cex *cex_from_model(query *q, Z3_model m) {
  const ir_kernel *k = q->t->k;
  vx *x = &q->x;
  verify_cex *c = ir_calloc(1, sizeof *c);
  c->sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  memcpy(c->sizes, q->sizes, sizeof(long) * (size_t)k->nvars);
  c->vars = ir_calloc((size_t)k->nvars + 1, sizeof(int));
  c->values = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
  c->out_var = -1;
  /* order: task inputs, then the other parameters */
  int order[1024], no = 0;
  for (int i = 0; i < q->t->ninputs && no < 1024; i++) order[no++] = q->t->inputs[i];
  for (int v = 0; v < k->nvars && no < 1024; v++)
    if (q->init[v] && !is_input(q->t, v)) order[no++] = v;
  uint64_t *litv = NULL, *seen = NULL;
  long nseen = 0, capseen = 0;
  if (x->kind == VX_FP) {
    litv = ir_calloc((size_t)x->nlits + 1, sizeof(uint64_t));
    for (int l = 0; l < x->nlits; l++) model_bv(x->z, m, x->litast[l], &litv[l]);
  }
  for (int oi = 0; oi < no; oi++) {
    int v = order[oi];
    const vx_var *var = &q->e.vars[v];
    ir_tensor *t = &c->values[c->nvars];
    c->vars[c->nvars++] = v;
    t->elem = k->vars[v]->elem;
    t->rank = var->rank;
    memcpy(t->dims, var->dims, sizeof t->dims);
    t->data = ir_calloc((size_t)var->n + 1, sizeof(double));
    for (long i = 0; i < var->n; i++) {
      Z3_ast a = x->terms[q->init[v][i]].v;
      if (x->kind == VX_REAL) {
        double d = 0;
        model_real(x->z, m, a, &d);
        const vx_term *it = &x->terms[q->init[v][i]];
        if (model_true(x->z, m, it->cn)) d = NAN;
        else if (model_true(x->z, m, it->ci))
          d = model_true(x->z, m, it->cs) ? -INFINITY : INFINITY;
        else if (d == 0 && model_true(x->z, m, it->cz))
          d = -0.0;
        t->data[i] = d;
        continue;
      }
      if (x->kind == VX_INT && Z3_get_sort_kind(x->z, Z3_get_sort(x->z, a)) == Z3_REAL_SORT) {
        double d = 0; /* a floating input between integer data */
        model_real(x->z, m, a, &d);
        t->data[i] = model_true(x->z, m, x->terms[q->init[v][i]].cn) ? NAN : d;
        continue;
      }
      uint64_t bv = 0;
      model_bv(x->z, m, a, &bv);
      if (x->kind == VX_INT) { /* the bits as the variable's type reads them */
        ir_elem ve = k->vars[v]->elem;
        unsigned w = ir_elem_is_int(ve) ? (unsigned)ir_elem_bits(ve) : x->width;
        int sg = !ir_elem_is_int(ve) || ir_elem_is_signed(ve);
        if (w < 64) bv &= (1ull << w) - 1;
        if (sg && w < 64 && (bv >> (w - 1)) & 1) bv |= ~0ull << w;
        t->data[i] = sg ? (double)(int64_t)bv : (double)bv;
        continue;
      }
      int lit = -1;
      for (int l = 0; l < x->nlits && lit < 0; l++)
        if (litv[l] == bv) lit = l;
      if (lit >= 0) {
        t->data[i] = x->lits[lit];
        continue;
      }
      if (nseen == capseen) {
        capseen = capseen ? 2 * capseen : 64;
        seen = ir_realloc(seen, sizeof(uint64_t) * (size_t)capseen);
      }
      seen[nseen++] = bv;
      t->data[i] = NAN; /* filled below */
    }
  }
  if (x->kind == VX_FP) {
    if (nseen) qsort(seen, (size_t)nseen, sizeof(uint64_t), cmp_u64);
    for (int ci = 0; ci < c->nvars; ci++) {
      int v = c->vars[ci];
      const vx_var *var = &q->e.vars[v];
      for (long i = 0; i < var->n; i++) {
        if (!isnan(c->values[ci].data[i])) continue;
        uint64_t bv = 0;
        model_bv(x->z, m, x->terms[q->init[v][i]].v, &bv);
        /* rank among the distinct non-literal values, skipping literals */
        long r = 0;
        for (long s = 0; s < nseen && seen[s] < bv; s++)
          if (s == 0 || seen[s] != seen[s - 1]) r++;
        double val = 2;
        for (long step = 0;; val++) {
          int islit = 0;
          for (int l = 0; l < x->nlits; l++) islit |= x->lits[l] == val;
          if (islit) continue;
          if (step++ == r) break;
        }
        c->values[ci].data[i] = val;
      }
    }
  }
  ir_free(litv);
  ir_free(seen);
  return c;
}

static const double *cex_values_of(int var, void *user) {
  const verify_cex *c = user;
  for (int i = 0; i < c->nvars; i++)
    if (c->vars[i] == var) return c->values[i].data;
  return NULL;
}

static int agree(double a, double b, double rtol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  if (a == 0 && b == 0) return !signbit(a) == !signbit(b); /* -0 is not +0 */
  double m = fmax(1.0, fmax(fabs(a), fabs(b)));
  return fabs(a - b) <= rtol * m;
}

int verify_cex_confirm(const verify_task *t, const verify_candidate *cand,
                       verify_cex *cex) {
  query q;
  memset(&q, 0, sizeof q);
  verify_candidate conc = *cand;
  q.t = t;
  q.cand = &conc;
  q.sizes = cex->sizes;
  cex->confirmed = 0;
  /* Source and (symbolic-over-doubles) candidate in the concrete world. */
  if (query_build(&q, VX_CONCRETE, 0, cex_values_of, cex)) {
    query_release(&q);
    return -1;
  }
  vx *x = &q.x;
  /* The reference: the loop interpreter on the same inputs.  The concrete
   * executor above only says where the source is undefined (C gives inf or
   * NaN there; the check treats it as anything goes). */
  interp_env env;
  ir_error ierr;
  if (interp_env_init(&env, t->k, cex->sizes, &ierr)) {
    query_release(&q);
    return -1;
  }
  for (int i = 0; i < cex->nvars; i++)
    interp_set_values(&env, cex->vars[i], cex->values[i].data);
  if (interp_run(&env, t->mask, &ierr)) {
    interp_env_free(&env);
    query_release(&q);
    return -1;
  }
  double rtol = fmax(1e-9, interp_kernel_tolerance(t->k));
  /* The candidate's own concrete evaluation, when it has one. */
  ir_tensor outs[16];
  int have_conc = 0;
  if (cand->eval) {
    ir_tensor ins[16];
    memset(outs, 0, sizeof outs);
    for (int i = 0; i < t->ninputs; i++) {
      int ci;
      for (ci = 0; ci < cex->nvars && cex->vars[ci] != t->inputs[i]; ci++) {}
      ins[i] = ci < cex->nvars ? cex->values[ci] : (ir_tensor){0};
    }
    ir_error err = {0};
    if (cand->eval(cand->user, cex->sizes, ins, t->ninputs, outs, t->noutputs, &err)) {
      interp_env_free(&env);
      query_release(&q);
      return -1;
    }
    have_conc = 1;
  }
  int differ = 0;
  for (int j = 0; j < t->noutputs && !differ; j++) {
    const vx_var *var = &q.e.vars[t->outputs[j]];
    for (long i = 0; i < var->n && !differ; i++) {
      if (!compared(&q, j, i)) continue;
      interp_term sv = var->val[i], sp = var->poi[i];
      if ((sp && vx_ctrue(x, sp)) || x->terms[sv].cub) continue; /* UB: any */
      const ir_tensor *ref = &env.vals[t->outputs[j]];
      if (ref->poison && ref->poison[i]) continue;
      double want = ref->data[i], got;
      int cdef;
      if (have_conc) {
        if (ir_tensor_size(&outs[j]) != (size_t)var->n) {
          cdef = 0;
          got = NAN;
        } else {
          got = outs[j].data[i];
          cdef = !(outs[j].poison && outs[j].poison[i]);
        }
        /* the concrete world's run of the candidate knows where it is
         * undefined: a floating value out of an integer type's range at
         * a conversion (arith.fptoui's poison), which the evaluation above
         * gives some value */
        if (q.couts && q.couts[j].data && x->terms[q.couts[j].data[i]].cub) cdef = 0;
      } else {
        interp_term cv = q.couts[j].data[i];
        interp_term cp = q.couts[j].poison ? q.couts[j].poison[i] : 0;
        got = x->terms[cv].d;
        cdef = !(cp && vx_ctrue(x, cp)) && !x->terms[cv].cub;
      }
      if (!cdef || !agree(want, got, rtol)) {
        differ = 1;
        cex->out_var = t->outputs[j];
        long rest = i;
        for (int d = var->rank - 1; d >= 0; d--) {
          cex->out_index[d] = rest % var->dims[d];
          rest /= var->dims[d];
        }
        cex->expected = want;
        cex->got = cdef ? got : NAN;
      }
    }
  }
  if (have_conc)
    for (int j = 0; j < t->noutputs; j++) interp_tensor_free(&outs[j]);
  interp_env_free(&env);
  query_release(&q);
  cex->confirmed = differ;
  return differ;
}

/* ------------------------------------------------------------ driver */

typedef enum qres { Q_UNSAT, Q_SAT, Q_UNKNOWN, Q_ERROR } qres;

/* Check one size assignment.  On Q_SAT *cex is the (confirmed or not)
 * counterexample. */
/* Build the query at sizes q->sizes in a world of the given kind; fp mode
 * first counts the distinct terms at a generous width to size its
 * bit-vectors (res->fp_width records the largest).  As query_build. */
static int query_build_sized(query *q, vx_kind kind, verify_result *res) {
  unsigned width = kind == VX_INT ? (unsigned)ir_elem_bits(q->t->k->data_type) : 0;
  if (kind == VX_FP) {
    int b = query_build(q, VX_FP, 64, NULL, NULL);
    if (b) return b;
    width = vx_fp_width(&q->x);
    query_release(q);
    if (width > (unsigned)res->fp_width) res->fp_width = (int)width;
  }
  return query_build(q, kind, width, NULL, NULL);
}

/* Check s (a retry's added constraints pushed); if sat and its model is
 * confirmed by the concrete runs, it replaces *cex.  Returns 1 if so. */
static int check_confirmed(verify_ctx *v, Z3_solver s, query *q, verify_result *res,
                           verify_cex **cex) {
  if (vx_check(v, s, res) != Z3_L_TRUE) return 0;
  Z3_context z = v->z;
  Z3_model m2 = Z3_solver_get_model(z, s);
  Z3_model_inc_ref(z, m2);
  verify_cex *c2 = cex_from_model(q, m2);
  Z3_model_dec_ref(z, m2);
  if (verify_cex_confirm(q->t, q->cand, c2) != 1) {
    cex_free(c2);
    return 0;
  }
  cex_free(*cex);
  *cex = c2;
  return 1;
}

/* Real mode, a model that the concrete runs did not confirm: ask again
 * with finite inputs and no special event in any expression, then with
 * finite inputs (a model that differs only in the unspecified outcome
 * of an infinity need not show concretely), then for small integer inputs
 * (exact concrete runs), first with integer square roots as well (perfect
 * squares under every sqrt, so the concrete sqrt is exact), then without,
 * then for multiples of 1/10 (not binary fractions: a rounding to float
 * shows in them beyond the comparison's tolerance).  A confirmed model
 * replaces *cex.  Returns 1 if one was confirmed. */
static int confirm_retry(verify_ctx *v, Z3_solver s, query *q, verify_result *res,
                         verify_cex **cex) {
  Z3_context z = v->z;
  const verify_task *t = q->t;
  for (int pass = -1; pass < 4; pass++) {
    if (pass == 1 && !q->x.nsqrt) continue;
    Z3_solver_push(z, s);
    /* first: no special event anywhere (no division by zero, no root of a
     * negative number), where the concrete runs compute the exact reals */
    for (long h = 1; pass == -1 && h < q->x.nterms; h++)
      if (q->x.terms[h].spec)
        Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, q->x.terms[h].spec)));
    Z3_ast lo = vx_keep(&q->x, Z3_mk_numeral(z, "-8", q->x.num));
    Z3_ast hi = vx_keep(&q->x, Z3_mk_numeral(z, "8", q->x.num));
    for (int vv = 0; vv < t->k->nvars; vv++) {
      if (!q->init[vv]) continue;
      for (long i = 0; i < q->e.vars[vv].n; i++) {
        const vx_term *it = &q->x.terms[q->init[vv][i]];
        Z3_ast a = it->v;
        if (it->cn) Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, it->cn)));
        if (it->ci) Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, it->ci)));
        if (pass <= 0) continue; /* finite, any real */
        if (pass == 3) {
          Z3_ast ten[2] = {vx_keep(&q->x, Z3_mk_numeral(z, "10", q->x.num)), a};
          Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_is_int(z, vx_keep(&q->x, Z3_mk_mul(z, 2, ten)))));
        } else {
          Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_is_int(z, a)));
        }
        Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_le(z, lo, a)));
        Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_le(z, a, hi)));
      }
    }
    for (int i = 0; pass == 1 && i < q->x.nsqrt; i++)
      Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_is_int(z, q->x.sqrt_root[i])));
    int conf = check_confirmed(v, s, q, res, cex);
    Z3_solver_pop(z, s, 1);
    if (conf) return 1;
  }
  return 0;
}

/* The int world with floating values as reals (vx.int_reals), a model the
 * concrete runs did not confirm: the solver likes values where a real
 * product is an integer exactly, which rounding in the concrete runs moves
 * across the truncation.  Ask again with every floating input finite and a
 * multiple of 1/8 in [-8, 8] (binary fractions: exact in float arithmetic
 * on small integers).  A confirmed model replaces *cex.  Returns 1 if one
 * was confirmed. */
static int confirm_retry_int(verify_ctx *v, Z3_solver s, query *q, verify_result *res,
                             verify_cex **cex) {
  Z3_context z = v->z;
  vx *x = &q->x;
  Z3_solver_push(z, s);
  Z3_ast lo = vx_keep(x, Z3_mk_numeral(z, "-8", x->rsort));
  Z3_ast hi = vx_keep(x, Z3_mk_numeral(z, "8", x->rsort));
  Z3_ast eight = vx_keep(x, Z3_mk_numeral(z, "8", x->rsort));
  for (int vv = 0; vv < q->t->k->nvars; vv++)
    for (long i = 0; q->init[vv] && i < q->e.vars[vv].n; i++) {
      const vx_term *it = &x->terms[q->init[vv][i]];
      if (Z3_get_sort_kind(z, Z3_get_sort(z, it->v)) != Z3_REAL_SORT) continue;
      Z3_ast m[2] = {eight, it->v};
      if (it->cn) Z3_solver_assert(z, s, vx_keep(x, Z3_mk_not(z, it->cn)));
      Z3_solver_assert(z, s, vx_keep(x, Z3_mk_is_int(z, vx_keep(x, Z3_mk_mul(z, 2, m)))));
      Z3_solver_assert(z, s, vx_keep(x, Z3_mk_le(z, lo, it->v)));
      Z3_solver_assert(z, s, vx_keep(x, Z3_mk_le(z, it->v, hi)));
    }
  int conf = check_confirmed(v, s, q, res, cex);
  Z3_solver_pop(z, s, 1);
  return conf;
}

/* A real-mode model the concrete runs did not confirm, in the check
 * without the masked-zero assumption (q->x.ieee_zero; before the finite
 * retries) or after the finite retries found none (a candidate equal in
 * real arithmetic that cancels an infinity differently: heat-3d's
 * (x - 2a) - x for -2a): real mode's infinities are abstract (an
 * infinity's unspecified outcomes), so the model may be spurious, while
 * the finite retries cannot show the difference, which needs an
 * infinity.  Try concretely, at the model's sizes, the model's inputs
 * with every non-finite value made 1 and then one element at a time made
 * +inf, then -inf, in a fixed order, at most VERIFY_INF_TRIES runs.  The
 * input that confirms is left in *cex; otherwise *cex keeps the model's
 * own values.  Returns 1 if one was confirmed. */
#define VERIFY_INF_TRIES 4096
static int confirm_inf_one(const verify_task *t, const verify_candidate *cand,
                           verify_cex **cex) {
  /* an input with an infinity is none the check is about when the inputs
   * are taken finite (ordinary_inputs 2): it would refute a proof that
   * holds for finite inputs (tosa's reduce_max from -FLT_MAX against C's
   * running maximum, which differ only where every input is -inf) */
  if (t->ordinary_inputs >= 2) return 0;
  verify_cex *c = *cex;
  double **model = ir_calloc((size_t)c->nvars + 1, sizeof *model);
  for (int i = 0; i < c->nvars; i++) {
    ir_tensor *tv = &c->values[i];
    size_t n = ir_tensor_size(tv);
    model[i] = ir_malloc((n + 1) * sizeof(double));
    memcpy(model[i], tv->data, n * sizeof(double));
    for (size_t j = 0; j < n; j++)
      if (!isfinite(tv->data[j])) tv->data[j] = 1;
  }
  int tries = 0, found = 0;
  for (int i = 0; i < c->nvars && !found && tries < VERIFY_INF_TRIES; i++) {
    ir_tensor *tv = &c->values[i];
    size_t n = ir_tensor_size(tv);
    for (size_t j = 0; j < n && !found && tries < VERIFY_INF_TRIES; j++) {
      double keep = tv->data[j];
      for (int sgn = 0; sgn < 2 && !found && tries < VERIFY_INF_TRIES; sgn++, tries++) {
        tv->data[j] = sgn ? -INFINITY : INFINITY;
        found = verify_cex_confirm(t, cand, c) == 1;
      }
      if (!found) tv->data[j] = keep;
    }
  }
  for (int i = 0; i < c->nvars; i++) {
    if (!found) memcpy(c->values[i].data, model[i], ir_tensor_size(&c->values[i]) * sizeof(double));
    ir_free(model[i]);
  }
  ir_free(model);
  return found;
}

/* verify_task.ordinary_inputs: assert on s that no floating input element
 * of q (real mode) is NaN or -0 (or infinite, at 2), and that a finite one
 * is within its type's range (a real below -FLT_MAX is no float input). */
static void assert_ordinary(query *q, Z3_solver s) {
  const verify_task *t = q->t;
  if (!t->ordinary_inputs || q->x.kind != VX_REAL) return;
  Z3_context z = q->v->z;
  for (int vv = 0; vv < t->k->nvars; vv++) {
    ir_elem el = t->k->vars[vv]->elem;
    if (!q->init[vv] || !ir_elem_is_float(el)) continue;
    char big[400];
    snprintf(big, sizeof big, "%.0f", el == IR_F32 ? (double)FLT_MAX : DBL_MAX);
    Z3_ast hi = vx_keep(&q->x, Z3_mk_numeral(z, big, q->x.num));
    Z3_ast lo = vx_keep(&q->x, Z3_mk_unary_minus(z, hi));
    for (long i = 0; i < q->e.vars[vv].n; i++) {
      interp_term h = q->init[vv][i];
      const vx_term *it = &q->x.terms[h];
      Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_le(z, lo, it->v)));
      Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_le(z, it->v, hi)));
      if (it->cn) Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, it->cn)));
      if (it->ci && t->ordinary_inputs == 2)
        Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, it->ci)));
      Z3_ast nz = vx_negzero(&q->x, h);
      if (nz) Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_not(z, nz)));
    }
  }
}

/* Ask the solver for a refutation of the built query q (formula f): unsat,
 * sat with a counterexample in *cex (confirmed concretely in real mode, or
 * the verdict is unknown), or unknown. */
static qres query_solve(verify_ctx *v, Z3_solver s, query *q, Z3_ast f, vx_kind kind,
                        verify_result *res, verify_cex **cex) {
  Z3_context z = v->z;
  qres out = Q_UNKNOWN;
  Z3_solver_push(z, s);
  Z3_solver_assert(z, s, f);
  Z3_ast side = vx_side(&q->x);
  if (side) Z3_solver_assert(z, s, side);
  assert_ordinary(q, s);
  if (kind == VX_FP && q->x.nlits > 1) /* distinct literals: distinct values */
    Z3_solver_assert(z, s, vx_keep(&q->x, Z3_mk_distinct(z, (unsigned)q->x.nlits,
                                                         q->x.litast)));
  Z3_lbool r = vx_check(v, s, res);
  if (r == Z3_L_FALSE) {
    out = Q_UNSAT;
  } else if (r == Z3_L_TRUE) {
    Z3_model m = Z3_solver_get_model(z, s);
    Z3_model_inc_ref(z, m);
    *cex = cex_from_model(q, m);
    Z3_model_dec_ref(z, m);
    int conf = verify_cex_confirm(q->t, q->cand, *cex);
    if (conf != 1 && kind == VX_REAL && q->x.ieee_zero) conf = confirm_inf_one(q->t, q->cand, cex);
    if (conf != 1 && kind == VX_REAL) conf = confirm_retry(v, s, q, res, cex);
    /* no finite input tells them apart: a difference only an infinity
     * shows (a cancellation, (x - y) - x against -y, where x is infinite),
     * which the model's abstract infinities need not have hit */
    if (conf != 1 && kind == VX_REAL && !q->x.ieee_zero) conf = confirm_inf_one(q->t, q->cand, cex);
    if (conf != 1 && kind == VX_INT && q->x.int_reals == 2)
      conf = confirm_retry_int(v, s, q, res, cex);
    if (conf == 1 || kind == VX_FP ||
        (kind == VX_INT && !q->x.outside && q->x.int_reals != 2)) {
      out = Q_SAT; /* int: an exact model, unless a value was outside it */
    } else if (kind == VX_INT && q->x.int_reals == 2 && !q->x.outside) {
      snprintf(res->reason, sizeof res->reason,
               "the solver's model does not tell source and candidate apart when run "
               "concretely (floating values between integer data: rounding?)");
    } else if (kind == VX_INT) {
      snprintf(res->reason, sizeof res->reason,
               "integer data through a floating value (sqrt, exp, pow, a conversion "
               "or literal), which the bit-vector encoding does not model");
    } else if (q->x.outside) {
      snprintf(res->reason, sizeof res->reason,
               "a conversion between floating and integer values, which the "
               "floating-point encoding does not model");
    } else {
      snprintf(res->reason, sizeof res->reason,
               "the solver's model does not tell source and candidate apart "
               "when run concretely (uninterpreted exp/pow?)");
    }
  }
  Z3_solver_pop(z, s, 1);
  if (vx_z3_error() && out != Q_SAT) {
    snprintf(res->reason, sizeof res->reason, "Z3 error during the check");
    out = Q_ERROR;
  }
  return out;
}

static qres check_sizes_run(verify_ctx *v, Z3_solver s, const verify_task *t,
                            const verify_candidate *cand, const long *sizes,
                            verify_result *res, verify_cex **cex, vx_kind kind);

/* The fp model is abstract and rarely tells the two apart concretely.  If
 * the candidate is wrong in real arithmetic too, real mode finds a
 * counterexample that does (CEGIS needs one); the verdict stays the fp
 * refutation either way.  Replaces *cex when it finds one. */
static void fp_real_cex(verify_ctx *v, Z3_solver s, const verify_task *t,
                        const verify_candidate *cand, const long *sizes,
                        verify_result *res, verify_cex **cex) {
  verify_result rr;
  memset(&rr, 0, sizeof rr);
  verify_cex *c2 = NULL;
  qres r2 = check_sizes_run(v, s, t, cand, sizes, &rr, &c2, VX_REAL);
  res->solver_calls += rr.solver_calls;
  if (r2 == Q_SAT && c2 && c2->confirmed) {
    cex_free(*cex);
    *cex = c2;
  } else {
    cex_free(c2);
  }
}

/* The polynomial degree of formula f (a product's degree is the sum of its
 * factors', a power's its base's times a numeral exponent, anything else
 * the largest of its arguments'; an arithmetic constant is 1), or cap + 1
 * once it passes cap.  An explicit stack and a table by AST id: the
 * formula is a DAG of any depth. */
static int formula_degree(Z3_context z, Z3_ast f, int cap) {
  size_t nslots = 1024, nused = 0;
  unsigned *ids = ir_malloc(nslots * sizeof *ids);
  int *degs = ir_malloc(nslots * sizeof *degs);
  memset(ids, 0xff, nslots * sizeof *ids);
  size_t nst = 0, capst = 256;
  Z3_ast *st = ir_malloc(capst * sizeof *st);
  st[nst++] = f;
  int result = 0;
#define DEG_SLOT(id, out)                                                   \
  do {                                                                      \
    size_t h_ = ((size_t)(id) * 2654435761u) & (nslots - 1);                \
    while (ids[h_] != UINT_MAX && ids[h_] != (id)) h_ = (h_ + 1) & (nslots - 1); \
    (out) = h_;                                                             \
  } while (0)
  while (nst) {
    Z3_ast a = st[nst - 1];
    unsigned id = Z3_get_ast_id(z, a);
    size_t slot;
    DEG_SLOT(id, slot);
    if (ids[slot] == id) {
      nst--;
      continue;
    }
    int deg = 0, pending = 0;
    if (Z3_get_ast_kind(z, a) == Z3_APP_AST) {
      Z3_app app = Z3_to_app(z, a);
      unsigned n = Z3_get_app_num_args(z, app);
      Z3_decl_kind dk = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
      if (n == 0) {
        Z3_sort_kind sk = Z3_get_sort_kind(z, Z3_get_sort(z, a));
        deg = (sk == Z3_REAL_SORT || sk == Z3_INT_SORT) ? 1 : 0;
      }
      for (unsigned i = 0; i < n; i++) {
        Z3_ast c = Z3_get_app_arg(z, app, i);
        if (Z3_get_ast_kind(z, c) == Z3_NUMERAL_AST) continue; /* degree 0 */
        unsigned cid = Z3_get_ast_id(z, c);
        size_t cs;
        DEG_SLOT(cid, cs);
        if (ids[cs] != cid) { /* not done yet: first the argument */
          if (nst == capst) st = ir_realloc(st, (capst *= 2) * sizeof *st);
          st[nst++] = c;
          pending = 1;
          continue;
        }
        int d = degs[cs];
        if (dk == Z3_OP_MUL || dk == Z3_OP_DIV) deg += d;
        else if (dk == Z3_OP_POWER && i == 0) {
          int k = 0;
          Z3_ast e = Z3_get_app_arg(z, app, 1);
          deg = Z3_get_ast_kind(z, e) == Z3_NUMERAL_AST && Z3_get_numeral_int(z, e, &k) && k >= 0
                    ? (k > cap ? cap + 1 : d * k)
                    : cap + 1;
        } else if (d > deg) deg = d;
        if (deg > cap) deg = cap + 1;
      }
    }
    if (pending) continue;
    nst--;
    ids[slot] = id;
    degs[slot] = deg;
    result = deg;
    if (2 * ++nused > nslots) { /* grow and rehash */
      unsigned *oi = ids;
      int *od = degs;
      size_t on = nslots;
      nslots *= 2;
      ids = ir_malloc(nslots * sizeof *ids);
      degs = ir_malloc(nslots * sizeof *degs);
      memset(ids, 0xff, nslots * sizeof *ids);
      for (size_t i = 0; i < on; i++)
        if (oi[i] != UINT_MAX) {
          size_t s2;
          DEG_SLOT(oi[i], s2);
          ids[s2] = oi[i];
          degs[s2] = od[i];
        }
      ir_free(oi);
      ir_free(od);
    }
  }
#undef DEG_SLOT
  ir_free(st);
  ir_free(ids);
  ir_free(degs);
  return result; /* the root is finished last */
}

/* One size assignment: build the query, simplify it, ask the solver.
 * zrelax: the relaxed sign of a zero (real mode); *zused: a compared pair
 * of zeros could differ in sign. */
static qres check_once(verify_ctx *v, Z3_solver s, const verify_task *t,
                       const verify_candidate *cand, const long *sizes,
                       verify_result *res, verify_cex **cex, vx_kind kind,
                       int zrelax, int *zused) {
  Z3_context z = v->z;
  query q;
  query_start(&q, v, t, cand, sizes, zrelax);
  int built = query_build_sized(&q, kind, res);
  if (built) {
    /* built > 0: the source is undefined here whatever the inputs */
    if (built < 0) snprintf(res->reason, sizeof res->reason, "%s", q.err.msg);
    query_release(&q);
    return built > 0 ? Q_UNSAT : Q_ERROR;
  }
  Z3_params som = kind == VX_REAL || kind == VX_INT ? vx_som_params(z) : NULL;
  Z3_ast f = query_formula(&q, som);
  if (som) Z3_params_dec_ref(z, som);
  if (q.x.masked_zero) res->assumes |= VERIFY_ASSUMES_MASKED_ZERO;
  if (q.x.zinit) res->assumes |= VERIFY_ASSUMES_ZERO_SIGN;
  *zused = q.x.zsign_used;
  qres out = Q_UNSAT;
  if (vx_z3_error()) {
    snprintf(res->reason, sizeof res->reason, "Z3 error while building the query");
    out = Q_ERROR;
  } else if (f && kind == VX_REAL &&
             formula_degree(z, f, VERIFY_MAX_DEGREE) > VERIFY_MAX_DEGREE) {
    snprintf(res->reason, sizeof res->reason,
             "the query has a product of degree above %d (the solver's budget)",
             VERIFY_MAX_DEGREE);
    out = Q_UNKNOWN;
  } else if (f) {
    out = query_solve(v, s, &q, f, kind, res, cex);
  }
  if (out == Q_UNSAT && q.x.outside) { /* the proof used an unknown */
    snprintf(res->reason, sizeof res->reason,
             "integer data through a floating value (sqrt, exp, pow, a conversion "
             "or literal), which the bit-vector encoding does not model");
    out = Q_UNKNOWN;
  }
  query_release(&q);
  if (out == Q_SAT && kind == VX_FP && !(*cex)->confirmed)
    fp_real_cex(v, s, t, cand, sizes, res, cex);
  return out;
}

/* Real mode: does the query at these sizes hold with IEEE's signs of
 * zeros (the first tier)?  1 if the solver says unsat; 0 otherwise (a
 * model, unknown or an error: the proof then relies on the assumption). */
/* The least solver steps of the second tier at the pinned sizes. */
#define ZERO_SIGN_PINNED_MIN 200000ul

static int zero_signs_hold(verify_ctx *v, Z3_solver s, const verify_task *t,
                           const verify_candidate *cand, const long *sizes,
                           verify_result *res, unsigned long proof_steps) {
  Z3_context z = v->z;
  query q;
  query_start(&q, v, t, cand, sizes, 0);
  int built = query_build_sized(&q, VX_REAL, res);
  if (built) { /* > 0: the source is undefined here whatever the inputs */
    query_release(&q);
    return built > 0;
  }
  Z3_params som = vx_som_params(z);
  Z3_ast f = query_formula(&q, som);
  Z3_params_dec_ref(z, som);
  int ok = !f && !vx_z3_error();
  if (f && !vx_z3_error()) {
    Z3_solver_push(z, s);
    Z3_solver_assert(z, s, f);
    Z3_ast side = vx_side(&q.x);
    if (side) Z3_solver_assert(z, s, side);
    assert_ordinary(&q, s);
    char keep[sizeof res->reason]; /* this check's unknown is no verdict */
    memcpy(keep, res->reason, sizeof keep);
    /* at the constant extents the query with IEEE's signs can be far
     * larger than the one that proved at these sizes (correlation's
     * 32 x 28 division: more than 50 M steps against the proof's 7.7 M):
     * it gets as many steps as that proof took (proof_steps; 0 when the
     * simplifier settled it), at least ZERO_SIGN_PINNED_MIN, and past them
     * the proof is taken to rely on the signs, as for any unknown here */
    unsigned long steps = v->opt.steps;
    if (t->pinned) {
      unsigned long cap = proof_steps;
      if (cap < ZERO_SIGN_PINNED_MIN) cap = ZERO_SIGN_PINNED_MIN;
      if (!steps || cap < steps) steps = cap;
      solver_set_steps(v, s, steps);
    }
    ok = vx_check(v, s, res) == Z3_L_FALSE;
    if (steps != v->opt.steps) solver_set_steps(v, s, v->opt.steps);
    memcpy(res->reason, keep, sizeof keep);
    Z3_solver_pop(z, s, 1);
  }
  vx_z3_error();
  query_release(&q);
  return ok;
}

/* check_once in two tiers (real mode): with the relaxed sign of a zero
 * first (a refutation there is one with IEEE's signs too); when that
 * proves, with IEEE's signs, and if they do not hold the proof relies on
 * VERIFY_ASSUMES_ZERO_SIGN (asked once per task: after the first size
 * assignment that needs it the others need not tell). */
static qres check_sizes_run(verify_ctx *v, Z3_solver s, const verify_task *t,
                            const verify_candidate *cand, const long *sizes,
                            verify_result *res, verify_cex **cex, vx_kind kind) {
  int zused = 0;
  if (kind == VX_REAL && t->ieee_masked_zero) /* a search for a difference in value */
    return check_once(v, s, t, cand, sizes, res, cex, kind, 2, &zused);
  unsigned long most = res->steps_used; /* the steps of this first tier alone */
  res->steps_used = 0;
  qres out = check_once(v, s, t, cand, sizes, res, cex, kind, 1, &zused);
  unsigned long proof_steps = res->steps_used;
  if (most > res->steps_used) res->steps_used = most;
  if (kind == VX_REAL && out == Q_UNKNOWN && zused) {
    /* a model the concrete runs did not confirm: look for a difference
     * in value, with the signs of zeros set aside */
    verify_result rr;
    memset(&rr, 0, sizeof rr);
    verify_cex *c2 = NULL;
    int zu2;
    qres o2 = check_once(v, s, t, cand, sizes, &rr, &c2, kind, 2, &zu2);
    res->solver_calls += rr.solver_calls;
    if (rr.steps_used > res->steps_used) res->steps_used = rr.steps_used;
    if (o2 == Q_SAT && c2 && c2->confirmed) {
      cex_free(*cex);
      *cex = c2;
      return Q_SAT;
    }
    cex_free(c2);
  }
  if (kind != VX_REAL || out != Q_UNSAT || (res->assumes & VERIFY_ASSUMES_ZERO_SIGN) ||
      t->zero_signs_known)
    return out;
  if (!zero_signs_hold(v, s, t, cand, sizes, res, proof_steps)) res->assumes |= VERIFY_ASSUMES_ZERO_SIGN;
  return out;
}

/* check_sizes_run under the watch: past the run's budget the answer is
 * unknown without asking; Z3 work that the watch interrupted (building a
 * query or a check past its time limit) is unknown too. */
static qres check_sizes(verify_ctx *v, Z3_solver s, const verify_task *t,
                        const verify_candidate *cand, const long *sizes,
                        verify_result *res, verify_cex **cex, vx_kind kind) {
  if (vx_watch_expired(v->watch)) {
    snprintf(res->reason, sizeof res->reason, "the time budget (--timeout) ran out");
    return Q_UNKNOWN;
  }
  vx_watch_begin(v->watch);
  qres r = check_sizes_run(v, s, t, cand, sizes, res, cex, kind);
  vx_watch_end(v->watch);
  if (r == Q_ERROR && vx_watch_interrupted(v->watch)) {
    snprintf(res->reason, sizeof res->reason,
             "building the query took longer than its wall-clock limit of %g s "
             "(--smt-timeout)", v->opt.timeout);
    r = Q_UNKNOWN;
  }
  return r;
}

static void sizes_text(const ir_kernel *k, const long *sizes,
                       const unsigned char *used, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = 0;
  for (int v = 0; v < k->nvars && o < n; v++) {
    if (!used[v]) continue;
    int w = snprintf(buf + o, n - o, "%s%s=%ld", o ? " " : "", k->vars[v]->name,
                     sizes[v]);
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* The state of one verify_task_check across size assignments. */
typedef struct sweep {
  verify_ctx *v;
  Z3_solver s;
  const verify_task *t;
  const verify_candidate *cand;
  verify_result *res;
  const unsigned char *shown; /* sizes named in messages */
  int unknown;
  char unknown_reason[320];
} sweep;

/* The world a mode checks kernel k in: integer data in the int world
 * (bit-vectors with wrap-around) whatever the mode, floating data in the
 * real or the fp world. */
static vx_kind world_kind(const verify_ctx *v, const ir_kernel *k) {
  if (!ir_elem_is_float(k->data_type)) return VX_INT;
  return v->opt.mode == VERIFY_FP ? VX_FP : VX_REAL;
}

/* Check one size assignment; returns 1 when the verdict is final (refuted,
 * error). */
static int sweep_one(sweep *w, const long *sizes) {
  const ir_kernel *k = w->t->k;
  verify_result *res = w->res;
  char where[160];
  sizes_text(k, sizes, w->shown, where, sizeof where);
  long elems = ir_kernel_elements(k, sizes, VERIFY_MAX_ELEMS);
  if (elems > VERIFY_MAX_ELEMS) {
    res->cases_left_out++;
    if (!w->unknown)
      snprintf(w->unknown_reason, sizeof w->unknown_reason,
               "size case %.100s left out: %ld elements exceed the budget of %ld", where,
               elems, VERIFY_MAX_ELEMS);
    w->unknown = 1;
    return 0;
  }
  res->queries++;
  res->size_cases++;
  verify_cex *cex = NULL;
  qres r = check_sizes(w->v, w->s, w->t, w->cand, sizes, res, &cex, world_kind(w->v, k));
  if (r == Q_SAT) {
    res->verdict = VERIFY_REFUTED;
    if (res->cex) cex_free(res->cex); /* an earlier size's unconfirmed model */
    res->cex = cex;
    if (cex->confirmed)
      snprintf(res->reason, sizeof res->reason,
               "counterexample at %s: %s differs (source %.17g, candidate %.17g)",
               where, k->vars[cex->out_var]->name, cex->expected, cex->got);
    else if (!ir_elem_is_float(k->data_type))
      snprintf(res->reason, sizeof res->reason,
               "differs at %s with %d-bit integers (the concrete runs, whose "
               "values are doubles, do not show it: a value past 2^53)", where,
               ir_elem_bits(k->data_type));
    else
      snprintf(res->reason, sizeof res->reason,
               "differs at %s under some floating-point semantics that may "
               "reorder reductions (no concrete confirmation)", where);
    return 1;
  }
  if (r == Q_ERROR) {
    char msg[320];
    snprintf(msg, sizeof msg, "%s", res->reason);
    snprintf(res->reason, sizeof res->reason, "at %.100s: %.200s", where, msg);
    res->verdict = VERIFY_ERROR;
    cex_free(cex);
    return 1;
  }
  if (r == Q_UNKNOWN) {
    if (!w->unknown)
      snprintf(w->unknown_reason, sizeof w->unknown_reason, "at %.100s: %.200s", where,
               res->reason);
    w->unknown = 1;
    if (cex) { /* keep the unconfirmed model for people */
      if (!res->cex)
        res->cex = cex;
      else
        cex_free(cex);
    }
  }
  return 0;
}

/* The constant extents of t's kernel at their values in sizes, and its
 * pinned sizes too when t asks for them (verify_task.pinned). */
static void pin(const verify_task *t, long *sizes) {
  if (t->pinned) ir_kernel_pin_constants(t->k, sizes);
  else ir_kernel_pin_extents(t->k, sizes);
}

/* A size that a kept assumption (ir_assume.kept: an enclosing kept loop's
 * bounds on its iterator, a size of the body) relates to a used one is
 * used too: the sizes where the assumptions fail are not checked (the
 * body never runs there), so a related size left at 1 would narrow the
 * used ones' range. */
static void kept_used(const ir_kernel *k, unsigned char *used) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < k->nassumes; i++) {
      const ir_assume *a = &k->assumes[i];
      int any = 0;
      for (int v = 0; v < k->nvars && a->kept; v++)
        any |= used[v] && (ir_expr_reads(a->lo, v) || ir_expr_reads(a->hi, v));
      for (int v = 0; v < k->nvars && any; v++)
        if (!used[v] && k->vars[v]->kind == IR_VAR_SIZE &&
            (ir_expr_reads(a->lo, v) || ir_expr_reads(a->hi, v)))
          used[v] = changed = 1;
    }
  }
}

/* Do the kept assumptions that read a used size hold at sizes?  (After
 * kept_used, such an assumption reads used sizes only; one that reads
 * none speaks of sizes the task does not depend on, left at 1, and is
 * not asked: at 1 it may fail, s <= steps - 1, and every point of the box
 * would be skipped.) */
static int kept_hold(const ir_kernel *k, const unsigned char *used, const long *sizes) {
  for (int i = 0; i < k->nassumes; i++) {
    const ir_assume *a = &k->assumes[i];
    int reads = 0;
    for (int v = 0; v < k->nvars && a->kept && !reads; v++)
      reads = used[v] && (ir_expr_reads(a->lo, v) || ir_expr_reads(a->hi, v));
    if (reads && ir_expr_eval_int(a->lo, sizes) > ir_expr_eval_int(a->hi, sizes)) return 0;
  }
  return 1;
}

int verify_task_check(verify_ctx *v, const verify_task *t,
                      const verify_candidate *cand, verify_result *res) {
  double t0 = now();
  memset(res, 0, sizeof *res);
  res->mode = v->opt.mode;
  res->bound = v->opt.bound;
  res->steps = v->opt.steps;
  if (v->opt.mode == VERIFY_NONE) {
    res->verdict = VERIFY_SKIPPED;
    return 0;
  }
  const ir_kernel *k = t->k;
  unsigned char *used = ir_calloc((size_t)k->nvars + 1, 1);
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  mark_stmts(k, k->body, t->mask, used);
  for (int i = 0; i < t->ninputs; i++) mark_var(k, t->inputs[i], used);
  for (int i = 0; i < t->noutputs; i++) mark_var(k, t->outputs[i], used);
  for (int i = 0; i < t->ncand_sizes; i++)
    if (t->cand_sizes[i] >= 0 && t->cand_sizes[i] < k->nvars) used[t->cand_sizes[i]] = 1;
  kept_used(k, used);
  for (int vv = 0; vv < k->nvars; vv++) {
    if (k->vars[vv]->kind == IR_VAR_EXTENT || (t->pinned && k->vars[vv]->pinned))
      used[vv] = 0; /* a constant, pinned */
    sizes[vv] = used[vv] ? 0 : 1;
  }
  pin(t, sizes);

  Z3_context z = v->z;
  Z3_solver s = vx_solver_new(v);

  sweep w = {v, s, t, cand, res, used, 0, ""};
  res->verdict = VERIFY_PROVED;
  res->cases_left_out = t->cases_left_out;
  if (t->cases_left_out) {
    w.unknown = 1;
    snprintf(w.unknown_reason, sizeof w.unknown_reason,
             "%d size cases left out (case budget)", t->cases_left_out);
  }
  int stop = 0, done = 0, checked = 0;
  /* the box: every used size 0..bound (odometer), the others 1; only
   * where the enclosing kept loops' bounds hold (the body runs nowhere
   * else) */
  while (!done && !stop) {
    if (kept_hold(k, used, sizes)) {
      stop = sweep_one(&w, sizes);
      checked++;
    }
    done = 1;
    for (int vv = 0; vv < k->nvars; vv++) {
      if (!used[vv]) continue;
      if (sizes[vv] < v->opt.bound) {
        sizes[vv]++;
        done = 0;
        break;
      }
      sizes[vv] = 0;
    }
  }
  /* the given cases, unless the box had them already; a size that
   * neither the task nor the candidate refers to cannot matter: 1 */
  for (int c = 0; c < t->ncases && !stop; c++) {
    const long *cs = t->cases + (long)c * k->nvars;
    int inbox = 1;
    for (int vv = 0; vv < k->nvars; vv++) {
      sizes[vv] = k->vars[vv]->kind == IR_VAR_SIZE && !used[vv] ? 1 : cs[vv];
      if (used[vv]) inbox &= cs[vv] >= 0 && cs[vv] <= v->opt.bound;
    }
    pin(t, sizes);
    int seen = 0; /* an earlier case with the same used sizes */
    for (int c2 = 0; c2 < c && !seen; c2++) {
      const long *o = t->cases + (long)c2 * k->nvars;
      int same = 1;
      for (int vv = 0; vv < k->nvars && same; vv++) same = !used[vv] || o[vv] == cs[vv];
      seen = same;
    }
    if (!inbox && !seen && kept_hold(k, used, sizes)) {
      stop = sweep_one(&w, sizes);
      checked++;
    }
  }
  if (!checked && !w.unknown) { /* never vacuously proved */
    w.unknown = 1;
    snprintf(w.unknown_reason, sizeof w.unknown_reason,
             "no size assignment within the enclosing kept loops' bounds was checked");
  }
  if (res->verdict == VERIFY_PROVED && w.unknown) {
    res->verdict = VERIFY_UNKNOWN;
    snprintf(res->reason, sizeof res->reason, "%s", w.unknown_reason);
  }
  if (res->verdict == VERIFY_PROVED) res->reason[0] = 0;
  Z3_solver_dec_ref(z, s);
  ir_free(used);
  ir_free(sizes);
  res->seconds = now() - t0;
  return res->verdict == VERIFY_ERROR ? -1 : 0;
}

void verify_steps_text(unsigned long steps, unsigned long used, char *buf, size_t n) {
  if (steps)
    snprintf(buf, n, "at most %lu of %lu solver steps per query", used, steps);
  else
    snprintf(buf, n, "at most %lu solver steps per query (no limit)", used);
}

void verify_result_print(const verify_result *res, const ir_kernel *k,
                         FILE *out) {
  fprintf(out, "%s (%s, bound %d", verify_verdict_word(res->verdict, res->assumes, 0),
          verify_mode_name(res->mode), res->bound);
  if (res->size_cases || res->cases_left_out)
    fprintf(out, ", %ld size cases", res->size_cases);
  if (res->cases_left_out) fprintf(out, ", %ld left out", res->cases_left_out);
  for (int i = 0; i < VERIFY_ASSUMES_ALL && res->verdict == VERIFY_PROVED; i++)
    if (res->assumes & (1u << i)) fprintf(out, ", %s", verify_assumes_name(i, 0));
  if (res->verdict == VERIFY_PROVED && res->all_sizes) fprintf(out, ", %s", VERIFY_ALL_SIZES_TEXT);
  char steps[96];
  verify_steps_text(res->steps, res->steps_used, steps, sizeof steps);
  if (res->mode != VERIFY_NONE) fprintf(out, ", %s", steps);
  fprintf(out, ", %.2f s)", res->seconds);
  if (res->reason[0]) fprintf(out, ": %s", res->reason);
  fputc('\n', out);
  const verify_cex *c = res->cex;
  if (!c || !k) return;
  for (int i = 0; i < c->nvars; i++) {
    const ir_tensor *t = &c->values[i];
    fprintf(out, "  %s =", k->vars[c->vars[i]]->name);
    size_t n = ir_tensor_size(t);
    for (size_t j = 0; j < n && j < 64; j++) fprintf(out, " %g", t->data[j]);
    if (n > 64) fprintf(out, " ...");
    fputc('\n', out);
  }
}
