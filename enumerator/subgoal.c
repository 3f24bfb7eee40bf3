/*
 * subgoal.c - sub-goals from the source statement (docs/enumerator.md).
 *
 * A task's statement `X[i][j] op= e` names intermediate tensors whose
 * values the loops define: for a reduction (the statement's reduction
 * iterators R do not index X) the sum over R of e, of each term of e, and
 * of the R-dependent factors of each term; for a plain update each term of
 * the value, each factor of a term, and the dividend and the divisor of a
 * quotient term.  Each is a tensor of X's shape, evaluated here at every
 * iteration point from the values before the task.  Over the loops of a
 * statement (space_goals) the same parts are tensors over the loops each
 * uses (the divisor of a normalization over its rows).  Last, where room
 * is left, the partial sums of a value, dividend or factor that is a sum
 * of three or more terms (a stencil's taps, one op per round).
 * The search looks for them like for the output; a solved one becomes a
 * leaf of the next round, so every search stays a few ops deep.  Only the
 * structure of the source program is used, never knowledge of a kernel.
 */
#include <math.h>
#include <string.h>

#include "enumerator/subgoal.h"

static int is_iter(const ir_kernel *k, const ir_expr *e) {
  return e->kind == IR_EX_VAR && k->vars[e->var]->kind == IR_VAR_ITER;
}

static int uses_var(const ir_expr *e, int var) {
  if ((e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == var) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (uses_var(e->args[i], var)) return 1;
  return 0;
}

static int uses_any(const ir_expr *e, const int *vars, int n) {
  for (int i = 0; i < n; i++)
    if (uses_var(e, vars[i])) return 1;
  return 0;
}

static int same_expr(const ir_expr *a, const ir_expr *b) {
  if (a->kind != b->kind || a->nargs != b->nargs) return 0;
  if (a->kind == IR_EX_CONST) return a->value == b->value;
  if ((a->kind == IR_EX_VAR || a->kind == IR_EX_ELEM) && a->var != b->var) return 0;
  if (a->kind == IR_EX_CALL && a->fn != b->fn) return 0;
  for (int i = 0; i < a->nargs; i++)
    if (!same_expr(a->args[i], b->args[i])) return 0;
  return 1;
}

/* Does e read the written array only at the written element? */
static int reads_x_only_at(const ir_expr *e, const ir_expr *lhs) {
  if (e->kind == IR_EX_ELEM && e->var == lhs->var) return same_expr(e, lhs);
  if (e->kind == IR_EX_VAR && e->var == lhs->var) return lhs->kind == IR_EX_VAR;
  for (int i = 0; i < e->nargs; i++)
    if (!reads_x_only_at(e->args[i], lhs)) return 0;
  return 1;
}

static int trivial(const ir_expr *e) {
  return e->kind == IR_EX_CONST || e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM ||
         (e->kind == IR_EX_CAST && trivial(e->args[0]));
}

typedef struct collect {
  sg_set *s;
  const ir_stmt *st;
  const ir_stmt *const *loops;
  int depth;
  const int *red;
  int nred;
  ir_arena *arena;
} collect;

static void add_goal(collect *c, const ir_expr *e, double sign, const char *what) {
  sg_set *s = c->s;
  if (s->n == SG_MAX || trivial(e)) return;
  if (!c->nred && !reads_x_only_at(e, c->st->lhs)) return;
  /* (a reduction that reads its own array elsewhere: the values before
   * the task are a guess, checked like any sub-goal) */
  for (int i = 0; i < s->n; i++)
    if (same_expr(s->goals[i].expr, e) && s->goals[i].sign == sign &&
        s->goals[i].nred == c->nred)
      return;
  sg_goal *g = &s->goals[s->n];
  memset(g, 0, sizeof *g);
  g->var = c->st->lhs->var;
  const ir_var *v = s->k->vars[g->var];
  /* integer data: the value's own type (a promoted int inside a u8 store,
   * a float sum converted at the store) */
  g->type.elem = ir_elem_is_int(v->elem) && e->type != IR_I1 ? e->type : v->elem;
  g->type.rank = v->rank;
  for (int d = 0; d < v->rank; d++) g->type.dims[d] = v->dims[d]->var;
  g->stmt = c->st;
  g->expr = e;
  g->nred = c->nred;
  memcpy(g->red, c->red, sizeof(int) * (size_t)c->nred);
  g->sign = sign;
  g->fold_from = NAN;
  g->what = what;
  for (int d = 0; d < c->depth; d++) s->loops[s->n][d] = c->loops[d];
  s->depth[s->n] = c->depth;
  s->n++;
}

/* The terms of a +/- chain, with their signs. */
static int terms(const ir_expr *e, double sign, const ir_expr **out, double *signs,
                 int n, int cap) {
  if ((e->kind == IR_EX_ADD || e->kind == IR_EX_SUB) && n < cap) {
    n = terms(e->args[0], sign, out, signs, n, cap);
    return terms(e->args[1], e->kind == IR_EX_SUB ? -sign : sign, out, signs, n, cap);
  }
  if (n < cap) {
    out[n] = e;
    signs[n++] = sign;
  }
  return n;
}

static int factors(const ir_expr *e, const ir_expr **out, int n, int cap) {
  if (e->kind == IR_EX_MUL && n < cap) {
    n = factors(e->args[0], out, n, cap);
    return factors(e->args[1], out, n, cap);
  }
  if (n < cap) out[n++] = e;
  return n;
}

/* The partial sums of a +/- chain of three or more terms, as C groups
 * them (((a + b) + c) + d: a + b and a + b + c), each a sub-goal: a sum of
 * many operands (a stencil's taps) is then found one op per round. */
static void partial_sums(collect *c, const ir_expr *e) {
  while ((e->kind == IR_EX_ADD || e->kind == IR_EX_SUB) &&
         (e->args[0]->kind == IR_EX_ADD || e->args[0]->kind == IR_EX_SUB)) {
    e = e->args[0];
    add_goal(c, e, 1, "partial sum");
  }
}

/* The value added by a sum-reduction statement (x += e, x = x + e, x = e
 * + x): e, or NULL. */
static const ir_expr *added_value(const ir_stmt *st) {
  if (st->op == IR_ASSIGN_ADD) return st->rhs;
  if (st->op == IR_ASSIGN && st->rhs->kind == IR_EX_ADD) {
    if (same_expr(st->rhs->args[0], st->lhs)) return st->rhs->args[1];
    if (same_expr(st->rhs->args[1], st->lhs)) return st->rhs->args[0];
  }
  return NULL;
}

/* Integer data: the value inside a conversion (the int sum of
 * `(uint8_t)(a + b)`) and the shifted value of a shift, down the chain. */
static void inner_goals(collect *c, const ir_expr *e) {
  for (;;) {
    if (e->kind == IR_EX_CAST && poly_cast_converts(e)) {
      e = e->args[0];
      add_goal(c, e, 1, "converted value");
    } else if (e->kind == IR_EX_SHL || e->kind == IR_EX_SHR) {
      e = e->args[0];
      add_goal(c, e, 1, "shifted value");
    } else {
      return;
    }
  }
}

/* The goals of one term t (of nt, with its sign) of a plain update's value:
 * the term, what is inside its conversions and shifts, a quotient's
 * dividend and divisor, its factors and partial products. */
static void term_goals(collect *c, ir_arena *arena, const ir_expr *t, double sign, int nt) {
  inner_goals(c, t);
  if (nt > 1) add_goal(c, t, sign, "term");
  /* a quotient: its dividend and its divisor (y = (x - m) / sqrt(v)) */
  if (t->kind == IR_EX_DIV) {
    add_goal(c, t->args[0], 1, "dividend");
    add_goal(c, t->args[1], 1, "divisor");
  }
  const ir_expr *fs[8];
  int nf = factors(t, fs, 0, 8);
  for (int j = 0; j < nf && nf > 1; j++) add_goal(c, fs[j], 1, "factor");
  if (nf > 2)
    for (int j = 1; j < nf; j++) {
      /* the product without its first factor(s) */
      const ir_expr *p = fs[j];
      for (int m2 = j + 1; m2 < nf; m2++) {
        ir_expr *m = IR_NEW(arena, ir_expr);
        m->kind = IR_EX_MUL;
        m->type = t->type;
        m->nargs = 2;
        m->args = IR_NEW_N(arena, ir_expr *, 2);
        m->args[0] = (ir_expr *)p;
        m->args[1] = (ir_expr *)fs[m2];
        p = m;
      }
      if (j < nf - 1) add_goal(c, p, 1, "partial product");
    }
}

typedef struct find_ctx {
  sg_set *s;
  ir_arena *arena;
  int found;
  int partial; /* the second walk: only the partial sums, after every
                  other sub-goal (they take the table's last places) */
} find_ctx;

static int find_stmt(const ir_stmt *st, const ir_stmt *const *loops, int depth,
                     void *user) {
  find_ctx *f = user;
  sg_set *s = f->s;
  const poly_task *pt = s->pt;
  if (pt->nstmts != 1 || st->id != pt->stmts[0]) return 0;
  f->found = 1;
  const ir_kernel *k = s->k;
  const ir_expr *lhs = st->lhs;
  /* the written element must be indexed by distinct iterators */
  int wr[IR_MAX_RANK], nw = 0;
  if (lhs->kind == IR_EX_ELEM) {
    for (int i = 0; i < lhs->nargs; i++) {
      if (!is_iter(k, lhs->args[i])) return 1;
      for (int j = 0; j < nw; j++)
        if (wr[j] == lhs->args[i]->var) return 1;
      wr[nw++] = lhs->args[i]->var;
    }
  }
  int red[16], nred = 0;
  for (int d = 0; d < depth; d++) {
    int it = loops[d]->iter, in = 0;
    for (int j = 0; j < nw; j++) in |= wr[j] == it;
    if (!in && nred < 16) red[nred++] = it;
  }
  /* the value that is added, or assigned */
  const ir_expr *val = added_value(st);
  int add = val != NULL;
  if (!add) val = st->rhs;
  if (st->op != IR_ASSIGN && !add) return 1;
  if (nred && !add) return 1;
  collect c = {s, st, loops, depth, red, nred, f->arena};
  const ir_expr *ts[8];
  double sg[8];
  int nt = terms(val, 1, ts, sg, 0, 8);
  if (nred && f->partial) return 1;
  if (nred) {
    add_goal(&c, val, 1, "reduction");
    for (int i = 0; i < nt; i++) {
      if (nt > 1) add_goal(&c, ts[i], sg[i], "reduction of a term");
      const ir_expr *fs[8];
      int nf = factors(ts[i], fs, 0, 8);
      /* the product of the factors that depend on the reduction */
      int dep = 0;
      for (int j = 0; j < nf; j++) dep += uses_any(fs[j], red, nred);
      if (dep < nf && dep > 1) {
        /* rebuild the dependent product as a new expression */
        const ir_expr *p = NULL;
        for (int j = 0; j < nf; j++) {
          if (!uses_any(fs[j], red, nred)) continue;
          if (!p) { p = fs[j]; continue; }
          ir_expr *m = IR_NEW(f->arena, ir_expr);
          m->kind = IR_EX_MUL;
          m->type = ts[i]->type;
          m->pos = ts[i]->pos;
          m->nargs = 2;
          m->args = IR_NEW_N(f->arena, ir_expr *, 2);
          m->args[0] = (ir_expr *)p;
          m->args[1] = (ir_expr *)fs[j];
          p = m;
        }
        add_goal(&c, p, 1, "reduction of the varying factors");
      }
    }
  } else if (f->partial) {
    partial_sums(&c, val);
    for (int i = 0; i < nt; i++) {
      if (ts[i]->kind == IR_EX_DIV) partial_sums(&c, ts[i]->args[0]);
      const ir_expr *fs[8];
      int nf = factors(ts[i], fs, 0, 8);
      for (int j = 0; j < nf && nf > 1; j++) partial_sums(&c, fs[j]);
    }
  } else {
    if (add) add_goal(&c, val, 1, "update");
    for (int i = 0; i < nt; i++) term_goals(&c, f->arena, ts[i], sg[i], nt);
    /* a converted value (`(uint8_t)(a * x + b * y)`, a float sum stored
     * into integer data): the terms and factors inside the conversion */
    const ir_expr *in = val;
    while (in->kind == IR_EX_CAST && poly_cast_converts(in)) in = in->args[0];
    if (in != val) {
      nt = terms(in, 1, ts, sg, 0, 8);
      for (int i = 0; i < nt; i++) term_goals(&c, f->arena, ts[i], sg[i], nt);
    }
  }
  return 1;
}

/* Is the written element indexed exactly by the space's iterators, in
 * order (then the space is the array's shape)? */
static int lhs_is_space(const ir_kernel *k, const ir_expr *lhs, const poly_stmt *ps) {
  int n = lhs->kind == IR_EX_ELEM ? lhs->nargs : 0;
  if (n != ps->nspace) return 0;
  for (int i = 0; i < n; i++)
    if (!is_iter(k, lhs->args[i]) || lhs->args[i]->var != ps->space_iters[i]) return 0;
  return 1;
}

typedef struct space_ctx {
  int stmt;
  const ir_stmt *loops[16];
  int depth;
} space_ctx;

/* The loops of a statement (by id). */
static int stmt_loops(const ir_stmt *st, const ir_stmt *const *loops, int depth, void *user) {
  space_ctx *c = user;
  if (st->id != c->stmt) return 0;
  c->depth = depth < 16 ? depth : 16;
  for (int d = 0; d < c->depth; d++) c->loops[d] = loops[d];
  return 1;
}

/* A goal over the loops of statement ps (see sg_goal.idx): expression e at
 * each point, summed over the iterators red (nred of them). */
static void add_loop_goal(sg_set *s, const poly_stmt *ps, const space_ctx *lc,
                          const ir_expr *e, const int *idx, int nidx, const int *red,
                          int nred, int zero_outside, const char *what) {
  /* no tensor of higher rank than the task's arrays: such an intermediate
   * (an outer product over a whole loop nest) costs asymptotically more
   * memory and time than the kernel itself */
  if (s->n == SG_MAX || (trivial(e) && !zero_outside) || nidx > s->maxrank) return;
  for (int i = 0; i < s->n; i++)
    if (s->goals[i].var < 0 && same_expr(s->goals[i].expr, e) && s->goals[i].nred == nred &&
        s->goals[i].nidx == nidx && s->goals[i].zero_outside == zero_outside &&
        !memcmp(s->goals[i].idx, idx, sizeof(int) * (size_t)nidx))
      return;
  sg_goal *g = &s->goals[s->n];
  memset(g, 0, sizeof *g);
  g->var = -1;
  g->nidx = nidx;
  g->type.elem = s->k->data_type;
  g->type.rank = nidx;
  for (int d = 0; d < nidx; d++) {
    g->idx[d] = idx[d];
    for (int l = 0; l < ps->depth; l++)
      if (ps->loops[l]->iter == idx[d]) g->type.dims[d] = ps->loop_dims[l];
  }
  g->stmt = ps->stmt;
  g->expr = e;
  g->zero_outside = zero_outside;
  g->nred = nred;
  if (nred) memcpy(g->red, red, sizeof(int) * (size_t)nred);
  g->sign = 1;
  g->fold_from = NAN;
  g->what = what;
  for (int d = 0; d < lc->depth; d++) s->loops[s->n][d] = lc->loops[d];
  s->depth[s->n] = lc->depth;
  s->n++;
}

/* The iterators of ps's loops that e uses, in loop order; returns the count. */
static int used_iters(const poly_stmt *ps, const ir_expr *e, int *out) {
  int n = 0;
  for (int l = 0; l < ps->depth; l++)
    if (uses_var(e, ps->loops[l]->iter)) out[n++] = ps->loops[l]->iter;
  return n;
}

/* An array read in e subscripted by exactly the iterators its[0..n), each
 * once, in some order: that order into idx.  Returns 1 if found. */
static int covering_read(const ir_kernel *k, const ir_expr *e, const int *its, int n, int *idx) {
  if (e->kind == IR_EX_ELEM && e->nargs == n && n > 0) {
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
      ok = is_iter(k, e->args[i]);
      for (int j = 0; j < i && ok; j++) ok = e->args[j]->var != e->args[i]->var;
      int in = 0;
      for (int j = 0; j < n && ok; j++) in |= its[j] == e->args[i]->var;
      ok = ok && in;
      if (ok) idx[i] = e->args[i]->var;
    }
    if (ok) return 1;
  }
  for (int i = 0; i < e->nargs; i++)
    if (covering_read(k, e->args[i], its, n, idx)) return 1;
  return 0;
}

/* A goal for e at each point of the loops it uses, ordered like an array
 * it reads with exactly those subscripts, else like the loops; not when
 * that is the written element's order (a goal of the array's shape). */
static void used_goal(sg_set *s, const poly_stmt *ps, const space_ctx *lc, const ir_expr *e,
                      int zero_outside, const char *what) {
  int its[IR_MAX_RANK + 16], idx[IR_MAX_RANK];
  int n = used_iters(ps, e, its);
  if (n > IR_MAX_RANK) return;
  if (!covering_read(s->k, e, its, n, idx)) memcpy(idx, its, sizeof(int) * (size_t)n);
  const ir_expr *lhs = ps->stmt->lhs;
  int same = lhs->kind == IR_EX_ELEM && lhs->nargs == n;
  for (int i = 0; same && i < n; i++) same = is_iter(s->k, lhs->args[i]) && lhs->args[i]->var == idx[i];
  if (!same || zero_outside) add_loop_goal(s, ps, lc, e, idx, n, NULL, 0, zero_outside, what);
}

/* The value a statement combines into its element: e of `x op= e`, of
 * `x = x + e`, or the right side of a plain assignment. */
static const ir_expr *stmt_value(const ir_stmt *st) {
  const ir_expr *v = added_value(st);
  return v ? v : st->rhs;
}

/* The goals over the loops of each statement of the task: for a sum
 * reduction, the sum at each point of its value space; for every
 * statement, its value, the value's terms and each term's factors at each
 * point of the loops they use. */
static void space_goals(sg_set *s) {
  const poly_analysis *a = s->a;
  for (int i = 0; i < s->pt->nstmts; i++) {
    const poly_stmt *ps = &a->stmts[s->pt->stmts[i]];
    if (!ps->loop_dims || ps->depth > 16) continue;
    int all = 1;
    for (int d = 0; d < ps->depth; d++) all &= ps->loop_dims[d] >= 0;
    if (!all) continue;
    space_ctx lc = {ps->id, {0}, 0};
    ir_kernel_walk_assigns(s->k, stmt_loops, &lc);
    const poly_reduction *red = NULL;
    for (int r = 0; r < s->pt->nreductions; r++)
      if (a->reductions[s->pt->reductions[r]].stmt == ps->id)
        red = &a->reductions[s->pt->reductions[r]];
    const ir_expr *val = stmt_value(ps->stmt);
    if (red && red->op == POLY_RED_ADD && added_value(ps->stmt) && ps->nspace >= 0 &&
        !lhs_is_space(s->k, ps->stmt->lhs, ps))
      add_loop_goal(s, ps, &lc, val, ps->space_iters, ps->nspace, red->iters, red->niters, 0,
                    "sum over the loops");
    /* a running maximum or minimum (`if (x[i] > m) m = x[i]`, `m =
     * fmaxf(m, e)`, ...): the statement folded over its reduction loops
     * from the identity, -inf or +inf, as C computes it (NaN skipped or
     * not, which of equal zeros kept: the statement's own comparison);
     * the start joins it in one more step (`m = f > m ? f : m`, a compare
     * and a select), and a reduce whose body is the conditional update
     * finds the fold itself */
    if (red && (red->op == POLY_RED_MAX || red->op == POLY_RED_MIN) &&
        ps->stmt->op == IR_ASSIGN && ps->nspace >= 0 && ir_elem_is_float(s->k->data_type)) {
      int n = s->n;
      add_loop_goal(s, ps, &lc, ps->stmt->rhs, ps->space_iters, ps->nspace, red->iters,
                    red->niters, 0, "running maximum or minimum from the identity");
      if (s->n > n) s->goals[n].fold_from = red->op == POLY_RED_MAX ? -INFINITY : INFINITY;
    }
    used_goal(s, ps, &lc, val, 0, red ? "summand over the loops" : "value over the loops");
    const ir_expr *ts[8];
    double sg[8];
    int nt = terms(val, 1, ts, sg, 0, 8);
    for (int t = 0; t < nt; t++) {
      if (nt > 1 && sg[t] > 0) used_goal(s, ps, &lc, ts[t], 0, "term over the loops");
      if (ts[t]->kind == IR_EX_DIV) {
        used_goal(s, ps, &lc, ts[t]->args[0], 0, "dividend over the loops");
        used_goal(s, ps, &lc, ts[t]->args[1], 0, "divisor over the loops");
      }
      const ir_expr *fs[8];
      int nf = factors(ts[t], fs, 0, 8);
      for (int j = 0; j < nf && nf > 1; j++) {
        used_goal(s, ps, &lc, fs[j], 0, "factor over the loops");
        /* a factor of a sum over a domain smaller than its box, with
         * zeros where the loops do not reach (`select(mask, A, 0)`) */
        if (red && ps->points.kind == POLY_REGION_MASK && fs[j]->kind == IR_EX_ELEM)
          used_goal(s, ps, &lc, fs[j], 1, "factor over the domain, zero outside");
      }
    }
  }
}

static double task_rtol(const sg_set *s);

void sg_init(sg_set *s, const poly_analysis *a, const poly_task *pt, ir_arena *arena) {
  memset(s, 0, sizeof *s);
  s->a = a;
  s->k = a->kernel;
  s->pt = pt;
  for (int i = 0; i < pt->naccess; i++)
    if (s->k->vars[pt->access[i].var]->rank > s->maxrank)
      s->maxrank = s->k->vars[pt->access[i].var]->rank;
  find_ctx f = {s, arena, 0, 0};
  ir_kernel_walk_assigns(s->k, find_stmt, &f);
  space_goals(s);
  f.partial = 1;
  ir_kernel_walk_assigns(s->k, find_stmt, &f);
  s->rtol = task_rtol(s);
}

void sg_free(sg_set *s) {
  for (int i = 0; i < s->n; i++)
    for (int e = 0; e < ES_MAX_EX; e++) interp_tensor_free(&s->goals[i].vals[e]);
}

/* ------------------------------------------------------------ evaluation */

typedef struct evctx {
  const ir_kernel *k;
  interp_env *env;
  long *ivals;
  int poison;
  int empty_zero; /* sg_set.empty_sums_zero */
  const ir_expr *acc_at; /* a fold (sg_goal.fold_from): this element reads */
  double acc;            /* the value so far */
} evctx;

static double eval(evctx *c, const ir_expr *e);

static long elem_index(evctx *c, const ir_expr *e, int *ok) {
  const ir_tensor *t = &c->env->vals[e->var];
  long idx = 0;
  for (int i = 0; i < e->nargs; i++) {
    long x = ir_expr_eval_int(e->args[i], c->ivals);
    if (x < 0 || x >= t->dims[i]) {
      *ok = 0;
      return 0;
    }
    idx = idx * t->dims[i] + x;
  }
  return idx;
}

static double eval(evctx *c, const ir_expr *e) {
  if (c->acc_at && same_expr(e, c->acc_at)) return c->acc;
  switch (e->kind) {
  case IR_EX_CONST: return e->value;
  case IR_EX_VAR: {
    const ir_var *v = c->k->vars[e->var];
    if (v->kind == IR_VAR_SIZE || v->kind == IR_VAR_ITER) return (double)c->ivals[e->var];
    const ir_tensor *t = &c->env->vals[e->var];
    if (t->poison && t->poison[0]) c->poison = 1;
    return t->data[0];
  }
  case IR_EX_ELEM: {
    int ok = 1;
    long i = elem_index(c, e, &ok);
    if (!ok) {
      c->poison = 1;
      return 0;
    }
    const ir_tensor *t = &c->env->vals[e->var];
    if (t->poison && t->poison[i]) c->poison = 1;
    return t->data[i];
  }
  case IR_EX_NEG:
    if (ir_elem_is_int(e->type)) return ir_int_arith(e->type, 'n', eval(c, e->args[0]), 0);
    return -eval(c, e->args[0]);
  case IR_EX_NOT: return !eval(c, e->args[0]);
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL:
  case IR_EX_SHL:
  case IR_EX_SHR: {
    double a = eval(c, e->args[0]), b = eval(c, e->args[1]);
    if (ir_elem_is_int(e->type)) /* wrapping, as the interpreter computes */
      return ir_int_arith(e->type,
                          e->kind == IR_EX_ADD   ? '+'
                          : e->kind == IR_EX_SUB ? '-'
                          : e->kind == IR_EX_MUL ? '*'
                          : e->kind == IR_EX_SHL ? 'l'
                          : ir_elem_is_signed(e->type) ? 'a'
                                                       : 'r',
                          a, b);
    return e->kind == IR_EX_ADD ? a + b : e->kind == IR_EX_SUB ? a - b : a * b;
  }
  case IR_EX_DIV: return eval(c, e->args[0]) / eval(c, e->args[1]);
  case IR_EX_LT: return eval(c, e->args[0]) < eval(c, e->args[1]);
  case IR_EX_LE: return eval(c, e->args[0]) <= eval(c, e->args[1]);
  case IR_EX_GT: return eval(c, e->args[0]) > eval(c, e->args[1]);
  case IR_EX_GE: return eval(c, e->args[0]) >= eval(c, e->args[1]);
  case IR_EX_EQ: return eval(c, e->args[0]) == eval(c, e->args[1]);
  case IR_EX_NE: return eval(c, e->args[0]) != eval(c, e->args[1]);
  case IR_EX_AND: return eval(c, e->args[0]) && eval(c, e->args[1]);
  case IR_EX_OR: return eval(c, e->args[0]) || eval(c, e->args[1]);
  case IR_EX_SELECT:
    return eval(c, e->args[0]) ? eval(c, e->args[1]) : eval(c, e->args[2]);
  case IR_EX_CAST: {
    double x = eval(c, e->args[0]);
    if (e->type == IR_F32) return (float)x;
    if (ir_elem_is_int(e->type)) return ir_elem_wrap(e->type, x);
    return x;
  }
  case IR_EX_CALL: {
    double x = eval(c, e->args[0]);
    double y = e->nargs > 1 ? eval(c, e->args[1]) : 0;
    switch (e->fn) {
    case IR_FN_SQRT: return sqrt(x);
    case IR_FN_EXP: return exp(x);
    case IR_FN_POW: return pow(x, y);
    case IR_FN_FABS: return fabs(x);
    case IR_FN_FMAX: return interp_c_fmaxmin(x, y, 1);
    case IR_FN_FMIN: return interp_c_fmaxmin(x, y, 0);
    }
    return 0;
  }
  case IR_EX_IMIN:
  case IR_EX_IMAX: return (double)ir_expr_eval_int(e, c->ivals);
  }
  return 0;
}

/* The element of goal g at the current iteration point into *i; returns
 * 0 when it is outside the goal's tensor. */
static int point_index(evctx *c, const sg_goal *g, const ir_tensor *out, long *i) {
  int ok = 1;
  *i = 0;
  if (g->var < 0) {
    for (int x = 0; x < g->nidx; x++) {
      long v = c->ivals[g->idx[x]];
      if (v < 0 || v >= out->dims[x]) return 0;
      *i = *i * out->dims[x] + v;
    }
  } else if (g->stmt->lhs->kind == IR_EX_ELEM) {
    *i = elem_index(c, g->stmt->lhs, &ok);
  }
  return ok;
}

static int is_red_iter(const sg_goal *g, int var) {
  for (int r = 0; r < g->nred; r++)
    if (g->red[r] == var) return 1;
  return 0;
}

/* The points of an empty sum (a reduction loop of g without iterations,
 * outside loops[d]): 0 where nothing was written, over the loops from d on
 * that are not reduction loops (none when a bound of one reads a
 * reduction iterator: the points stay undefined). */
static void empty_sum(evctx *c, const sg_goal *g, const ir_stmt *const *loops, int depth,
                      int d, ir_tensor *out, unsigned char *written) {
  if (d == depth) {
    long i;
    if (point_index(c, g, out, &i) && !written[i]) {
      out->data[i] = isnan(g->fold_from) ? 0 : g->fold_from;
      out->poison[i] = 0;
      written[i] = 1;
    }
    return;
  }
  const ir_stmt *l = loops[d];
  if (is_red_iter(g, l->iter)) {
    empty_sum(c, g, loops, depth, d + 1, out, written);
    return;
  }
  if (uses_any(l->lo, g->red, g->nred) || uses_any(l->hi, g->red, g->nred)) return;
  long lo = ir_expr_eval_int(l->lo, c->ivals), hi = ir_expr_eval_int(l->hi, c->ivals);
  for (long x = lo; x <= hi; x++) {
    c->ivals[l->iter] = x;
    empty_sum(c, g, loops, depth, d + 1, out, written);
  }
}

static void run_loops(evctx *c, sg_goal *g, const ir_stmt *const *loops, int depth,
                      int d, ir_tensor *out, unsigned char *written) {
  if (d == depth) {
    long i;
    if (!point_index(c, g, out, &i)) return;
    c->poison = 0;
    int fold = !isnan(g->fold_from);
    if (fold) { /* the element so far, from the identity */
      c->acc_at = g->stmt->lhs;
      c->acc = written[i] ? out->data[i] : g->fold_from;
    }
    double v = g->sign * eval(c, g->expr);
    c->acc_at = NULL;
    if (c->poison) out->poison[i] = 1;
    if (!written[i]) {
      out->data[i] = 0;
      written[i] = 1;
      if (!c->poison) out->poison[i] = 0;
    }
    out->data[i] = fold ? v : g->nred ? out->data[i] + v : v;
    return;
  }
  const ir_stmt *l = loops[d];
  long lo = ir_expr_eval_int(l->lo, c->ivals), hi = ir_expr_eval_int(l->hi, c->ivals);
  /* an empty fold is its identity (its start) */
  if (lo > hi && (c->empty_zero || !isnan(g->fold_from)) && is_red_iter(g, l->iter))
    empty_sum(c, g, loops, depth, d + 1, out, written);
  for (long x = lo; x <= hi; x++) {
    c->ivals[l->iter] = x;
    run_loops(c, g, loops, depth, d + 1, out, written);
  }
}

int sg_run(sg_set *s, interp_env *env, const unsigned char *mask, int e,
           ir_error *err) {
  (void)mask;
  (void)err;
  const ir_kernel *k = s->k;
  long *ivals = ir_calloc((size_t)k->nvars, sizeof(long));
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) ivals[v] = env->sizes[v];
  for (int i = 0; i < s->n; i++) {
    sg_goal *g = &s->goals[i];
    ir_tensor *out = &g->vals[e];
    interp_tensor_free(out);
    if (g->var >= 0) {
      *out = env->vals[g->var];
    } else {
      memset(out, 0, sizeof *out);
      out->elem = g->type.elem;
      out->rank = g->type.rank;
      for (int d = 0; d < g->type.rank; d++) out->dims[d] = env->sizes[g->type.dims[d]];
    }
    size_t n = ir_tensor_size(out);
    out->data = ir_calloc(n ? n : 1, sizeof(double));
    out->poison = ir_malloc(n ? n : 1);
    memset(out->poison, 1, n ? n : 1);
    unsigned char *written = ir_calloc(n ? n : 1, 1);
    evctx c = {k, env, ivals, 0, s->empty_sums_zero, NULL, 0};
    run_loops(&c, g, s->loops[i], s->depth[i], 0, out, written);
    if (g->zero_outside)
      for (size_t j = 0; j < n; j++)
        if (!written[j]) out->poison[j] = 0; /* data is 0 (calloc) */
    ir_free(written);
  }
  ir_free(ivals);
  return 0;
}

int sg_goals(sg_set *s, int var, int nex, es_goal *goals, int cap,
             const ir_tnode *const *extra, int nextra, ir_arena *arena) {
  (void)extra;
  (void)nextra;
  int n = 0;
  for (int i = 0; i < s->n && n < cap; i++) {
    sg_goal *g = &s->goals[i];
    if ((g->var != var && g->var >= 0) || g->solved) continue;
    es_goal *o = &goals[n++];
    memset(o, 0, sizeof *o);
    o->id = i;
    o->what = g->what;
    o->type = g->type;
    o->rtol = s->rtol;
    for (int e = 0; e < nex; e++) {
      o->expect[e] = g->vals[e];
      size_t m = ir_tensor_size(&g->vals[e]);
      o->cmp[e] = ir_arena_alloc(arena, m ? m : 1);
      for (size_t j = 0; j < m; j++) o->cmp[e][j] = !g->vals[e].poison[j];
    }
  }
  return n;
}

void sg_mark_solved(sg_set *s, int id) {
  if (id >= 0 && id < s->n) s->goals[id].solved = 1;
}

/* The distinct constants of a task: 0, 1, the literals of its statements
 * and the values of the local constants it reads (a growable list). */
typedef struct const_ctx {
  const poly_task *pt;
  double *vals;
  int n, cap;
} const_ctx;

static void const_add(const_ctx *c, double v) {
  for (int i = 0; i < c->n; i++)
    if (c->vals[i] == v) return;
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 16;
    c->vals = ir_realloc(c->vals, sizeof(double) * (size_t)c->cap);
  }
  c->vals[c->n++] = v;
}

static void consts(const ir_expr *e, const_ctx *c) {
  if (e->kind == IR_EX_CONST) const_add(c, e->value);
  for (int i = 0; i < e->nargs; i++) consts(e->args[i], c);
}

static int const_stmt(const ir_stmt *st, const ir_stmt *const *loops, int depth,
                      void *user) {
  (void)loops;
  (void)depth;
  const_ctx *c = user;
  for (int i = 0; i < c->pt->nstmts; i++)
    if (c->pt->stmts[i] == st->id) consts(st->rhs, c);
  return 0;
}

/* The task's constants into c (c->vals to be freed by the caller). */
static void task_constants(const sg_set *s, const ir_kernel *k, const_ctx *c) {
  memset(c, 0, sizeof *c);
  c->pt = s->pt;
  const_add(c, 0);
  const_add(c, 1);
  /* the identities of the task's max and min reductions over floating
   * data (0 and 1, those of + and *, are there already): a reduction's
   * init when no input holds a start value, e.g. a row maximum whose
   * accumulator the kernel starts at -INFINITY or at a first element */
  if (ir_elem_is_float(k->data_type)) {
    if (s->pt->ops & POLY_OP_RED_MAX) const_add(c, -INFINITY);
    if (s->pt->ops & POLY_OP_RED_MIN) const_add(c, INFINITY);
  }
  ir_kernel_walk_assigns(k, const_stmt, c);
  for (int i = 0; i < s->pt->ninputs; i++) {
    const poly_input *in = &s->pt->inputs[i];
    if ((in->flags & POLY_IN_CONST) && in->has_value) const_add(c, in->value);
  }
}

/* The tolerance of the task's comparisons: the kernel's (es_goal_rtol),
 * below a sixteenth of the task's smallest nonzero constant, so that adding
 * an epsilon (`ss += 1e-5f` in float, whose tolerance is 1e-5) is not
 * taken for adding nothing. */
static double task_rtol(const sg_set *s) {
  double rtol = es_goal_rtol(s->k);
  const_ctx c;
  task_constants(s, s->k, &c);
  for (int i = 0; i < c.n; i++) {
    double m = fabs(c.vals[i]) / 16;
    if (m > 0 && m < rtol) rtol = m > 1e-9 ? m : 1e-9;
  }
  ir_free(c.vals);
  return rtol;
}

int sg_constant_count(const sg_set *s, const ir_kernel *k) {
  const_ctx c;
  task_constants(s, k, &c);
  ir_free(c.vals);
  return c.n;
}

int sg_constant_leaves(const sg_set *s, ir_tp_store *store, const ir_kernel *k,
                       const ir_type *t, const ir_tnode **out, int cap) {
  const_ctx c;
  task_constants(s, k, &c);
  ir_type scalar = {k->data_type, 0, {0}};
  if (!t) t = &scalar;
  int n = 0;
  for (int i = 0; i < c.n && n < cap; i++) out[n++] = ir_tp_const(store, c.vals[i], t);
  ir_free(c.vals);
  return n;
}

int sg_kernel_allowed(const char *kn, unsigned h) {
  kn = interp_op_like(kn); /* maxnum: the hints of max */
  static const struct {
    const char *name;
    unsigned need; /* any of these hints; 0: always */
  } table[] = {
      {"add", POLY_OP_ADD | POLY_OP_RED_ADD},
      {"sub", POLY_OP_SUB},
      {"neg", POLY_OP_SUB | POLY_OP_NEG},
      {"mul", POLY_OP_MUL | POLY_OP_RED_MUL | POLY_OP_DIV}, /* a/b = a*reciprocal(b) */
      {"div", POLY_OP_DIV},
      {"reciprocal", POLY_OP_DIV | POLY_OP_SQRT}, /* sqrt(x) = reciprocal(rsqrt(x)) */
      {"rsqrt", POLY_OP_SQRT},
      {"sqrt", POLY_OP_SQRT},
      {"exp", POLY_OP_EXP},
      {"abs", POLY_OP_ABS},
      {"max", POLY_OP_MAX | POLY_OP_RED_MAX},
      {"min", POLY_OP_MIN | POLY_OP_RED_MIN},
      {"compare", POLY_OP_CMP | POLY_OP_SELECT},
      {"select", 0},
      /* a contraction is a sum; without one, only an outer product or a
       * masked contraction of a matrix is worth it (an elementwise task's
       * rank-2 products of its vectors, never reduced, cost the most:
       * swiglu's search took 22 s) */
      {"dot_general", POLY_OP_RED_ADD | SG_HINT_OUTER},
      {"reduce", POLY_OP_RED_ADD | POLY_OP_RED_MUL | POLY_OP_RED_MAX | POLY_OP_RED_MIN},
      {"transpose", 0},
      {"reverse", POLY_OP_REVERSE},
      {"broadcast_in_dim", 0},
      {"reshape", 0},
      {"constant", 0},
      {"fill", 0},
      {"fill_scalar", 0},
      {"iota", POLY_OP_CMP},
      {"convert", POLY_OP_CONVERT},
      {"shl", POLY_OP_SHL},
      {"shra", POLY_OP_SHR},
      {"shrl", POLY_OP_SHR},
      {"pad", POLY_OP_SHIFTED}, /* issue 14: a stencil's shifted reads */
  };
  /* issue 14: a `same` convolution, a sum of products of shifted reads */
  if (!strcmp(kn, "conv"))
    return (h & POLY_OP_SHIFTED) && (h & POLY_OP_MUL) && (h & (POLY_OP_ADD | POLY_OP_RED_ADD));
  /* C's fmax and fmin elementwise (a clamp): not for a running maximum or
   * minimum, whose fold the conditional-update reduce computes and whose
   * start joins it by a compare and a select */
  if (!strcmp(kn, "fmax") || !strcmp(kn, "fmin"))
    return (h & (POLY_OP_MAX | POLY_OP_MIN)) && !(h & (POLY_OP_RED_MAX | POLY_OP_RED_MIN));
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].name, kn)) return !table[i].need || (h & table[i].need);
  return 0;
}
