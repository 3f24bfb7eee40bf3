/*
 * fold.c - a local accumulator folded into the element it ends in
 * (poly_fold_locals; docs/analyze.md, "Accumulators folded into their
 * element").
 *
 * A local scalar w whose every access lies in a *region*: in one statement
 * list, a first write `w = X` (X does not read w), any statements, then the
 * first of the list's statements after it that stores w into an element,
 * `Y = f(w)` (plain `=`, Y an array element of w's element type).  Where,
 * between the first write and the store (the store's right side included),
 * no statement reads or writes Y's element at the same iteration of the
 * loops around the list (isl: the accesses of Y's array in the region,
 * each restricted to the element Y names at that iteration, are empty),
 * w can be Y itself: `Y = X; ...; Y = f(Y)`.  Y then holds w's value at
 * every point of the region, no other statement looks at Y there, and
 * after the store Y holds f(w) as before; w is a local read nowhere else,
 * so its last value is dead.  The floating operations are the same ones
 * in the same order on the same type: values, NaN, infinities and signed
 * zeros are those of the original.  `Y = Y` (a first write of Y's own
 * element, `w = A[i][j]`, or a store `Y = w`) is dropped.
 *
 * ludcmp's `w = A[i][j]; for k: w -= A[i][k] * A[k][j]; A[i][j] = w /
 * A[j][j];` becomes lu's in-place update, and its substitutions
 * `w = b[i]; ... y[i] = w;` trisolv's form.  Anything else keeps k.
 */
#include <string.h>

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include "polyhedral/affine.h"
#include "polyhedral/polyhedral.h"

#define FOLD_DEPTH 32

typedef struct fold {
  const ir_kernel *k;
  ir_arena *arena;
  isl_ctx *ctx;
  const char *params;             /* "[P0, P3]" */
  int w;                          /* the local */
  /* the context of the statement being looked at: its loops and the
   * affine conditions around it (a data-dependent one is left out: the
   * accesses under it are may-accesses, and more points only make the
   * check stricter) */
  const ir_stmt *loops[FOLD_DEPTH];
  int nloops;
  const ir_expr *conds[FOLD_DEPTH];
  int negs[FOLD_DEPTH];
  int nconds;
  /* the store of the region being checked */
  const ir_expr *y;
  int bad;                        /* the fold is refused */
} fold;

/* How many times does e access var v (reads; the var as an element too)? */
static int count_expr(const ir_expr *e, int v) {
  if (!e) return 0;
  int n = (e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == v;
  for (int i = 0; i < e->nargs; i++) n += count_expr(e->args[i], v);
  return n;
}

/* How many accesses of v do s and the statements after it make (up to and
 * with last when last is not NULL)? */
static int count_stmts(const ir_stmt *s, int v, const ir_stmt *last) {
  int n = 0;
  for (; s; s = s->next) {
    n += count_expr(s->lhs, v) + count_expr(s->rhs, v) + count_expr(s->cond, v) +
         count_stmts(s->body, v, NULL) + count_stmts(s->then_body, v, NULL) +
         count_stmts(s->else_body, v, NULL);
    if (s == last) break;
  }
  return n;
}

/* The isl text of the points of the current context where an access e of
 * Y's array names Y's element; -1 when something is not affine. */
static int clash_text(fold *f, const ir_expr *e, ir_buf *b) {
  ir_buf_printf(b, "%s -> { [", f->params);
  for (int l = 0; l < f->nloops; l++) ir_buf_printf(b, "%sI%d", l ? ", " : "", f->loops[l]->iter);
  ir_buf_printf(b, "] : ");
  ir_buf c = {0};
  int bad = 0;
  for (int l = 0; l < f->nloops && !bad; l++)
    bad = poly_bound_text(f->k, f->loops[l]->lo, f->loops[l]->iter, 1, &c) ||
          poly_bound_text(f->k, f->loops[l]->hi, f->loops[l]->iter, 0, &c);
  for (int i = 0; i < f->nconds && !bad; i++) {
    ir_buf_printf(&c, "%s", c.n ? " and " : "");
    bad = poly_cond_text(f->k, f->conds[i], f->negs[i], &c);
  }
  for (int d = 0; d < e->nargs && !bad; d++) {
    ir_buf_printf(&c, "%s", c.n ? " and " : "");
    bad = poly_aff_text(f->k, e->args[d], &c) ||
          (ir_buf_printf(&c, " = "), poly_aff_text(f->k, f->y->args[d], &c));
  }
  ir_buf_printf(b, "%s }", c.n ? ir_buf_str(&c) : "true");
  ir_buf_free(&c);
  return bad ? -1 : 0;
}

/* Refuse the fold when access e (of any var) may name Y's element at the
 * current context's points. */
static void check_access(fold *f, const ir_expr *e) {
  if (f->bad || !e) return;
  for (int i = 0; i < e->nargs; i++) check_access(f, e->args[i]);
  if (e->var != f->y->var || (e->kind != IR_EX_ELEM && e->kind != IR_EX_VAR)) return;
  if (e->kind == IR_EX_VAR || e->nargs != f->y->nargs) {
    f->bad = 1;
    return;
  }
  ir_buf b = {0};
  if (clash_text(f, e, &b)) f->bad = 1;
  else {
    isl_set *s = isl_set_read_from_str(f->ctx, ir_buf_str(&b));
    isl_bool empty = s ? isl_set_is_empty(s) : isl_bool_error;
    isl_set_free(s);
    f->bad = empty != isl_bool_true;
  }
  ir_buf_free(&b);
}

/* Check every access of statements s.. (up to and with last) against Y's
 * element; store is the region's store, whose own target is Y. */
static void check_stmts(fold *f, const ir_stmt *s, const ir_stmt *last, const ir_stmt *store) {
  for (; s && !f->bad; s = s->next) {
    switch (s->kind) {
    case IR_ST_ASSIGN:
      if (s != store) check_access(f, s->lhs);
      check_access(f, s->rhs);
      break;
    case IR_ST_FOR:
      /* an inner loop over an iterator Y's subscripts read would move Y */
      for (int d = 0; d < f->y->nargs; d++)
        if (ir_expr_reads(f->y->args[d], s->iter)) f->bad = 1;
      if (f->nloops == FOLD_DEPTH) f->bad = 1;
      if (f->bad) break;
      f->loops[f->nloops++] = s;
      check_stmts(f, s->body, NULL, store);
      f->nloops--;
      break;
    case IR_ST_IF: {
      ir_buf t = {0};
      int affine = poly_cond_text(f->k, s->cond, 0, &t) == 0;
      ir_buf_free(&t);
      if (affine && f->nconds == FOLD_DEPTH) f->bad = 1;
      if (f->bad) break;
      f->conds[f->nconds] = s->cond;
      f->negs[f->nconds] = 0;
      f->nconds += affine;
      check_stmts(f, s->then_body, NULL, store);
      f->negs[f->nconds - affine] = 1;
      check_stmts(f, s->else_body, NULL, store);
      f->nconds -= affine;
      break;
    }
    }
    if (s == last) break;
  }
}

/* The store ending the region that first write s opens, or NULL. */
static const ir_stmt *region_store(const fold *f, const ir_stmt *s) {
  const ir_var *w = f->k->vars[f->w];
  for (const ir_stmt *t = s->next; t; t = t->next) {
    if (t->kind != IR_ST_ASSIGN || t->lhs->kind != IR_EX_ELEM || t->lhs->var == f->w ||
        !ir_expr_reads(t->rhs, f->w))
      continue;
    const ir_var *yv = f->k->vars[t->lhs->var];
    if (t->op != IR_ASSIGN || yv->elem != w->elem || ir_expr_reads(t->lhs, f->w)) return NULL;
    return t;
  }
  return NULL;
}

/* Is s a region's first write of w? */
static int first_write(const fold *f, const ir_stmt *s) {
  return s->kind == IR_ST_ASSIGN && s->lhs->kind == IR_EX_VAR && s->lhs->var == f->w &&
         s->op == IR_ASSIGN && !ir_expr_reads(s->rhs, f->w);
}

/* Find the regions of the statement list s (and of the lists inside it
 * outside regions), checking each; returns the accesses of w they cover. */
static int regions(fold *f, const ir_stmt *s) {
  int covered = 0;
  for (; s && !f->bad; s = s->next) {
    const ir_stmt *t = first_write(f, s) ? region_store(f, s) : NULL;
    if (t) {
      f->y = t->lhs;
      check_stmts(f, s->next, t, t);
      covered += count_stmts(s, f->w, t);
      s = t;
      continue;
    }
    if (s->kind == IR_ST_FOR && f->nloops < FOLD_DEPTH) {
      f->loops[f->nloops++] = s;
      covered += regions(f, s->body);
      f->nloops--;
    } else if (s->kind == IR_ST_IF && f->nconds < FOLD_DEPTH) {
      ir_buf t2 = {0};
      int affine = poly_cond_text(f->k, s->cond, 0, &t2) == 0;
      ir_buf_free(&t2);
      f->conds[f->nconds] = s->cond;
      f->negs[f->nconds] = 0;
      f->nconds += affine;
      covered += regions(f, s->then_body);
      f->negs[f->nconds - affine] = 1;
      covered += regions(f, s->else_body);
      f->nconds -= affine;
    }
  }
  return covered;
}

/* ------------------------------------------------------------ the rewrite */

/* e with every access of var w made y (e itself when it has none). */
static ir_expr *subst(ir_arena *arena, ir_expr *e, int w, ir_expr *y) {
  if (!e) return e;
  if (e->kind == IR_EX_VAR && e->var == w) return y;
  ir_expr *x = e;
  for (int i = 0; i < e->nargs; i++) {
    ir_expr *a = subst(arena, e->args[i], w, y);
    if (a == e->args[i]) continue;
    if (x == e) {
      x = IR_NEW(arena, ir_expr);
      *x = *e;
      x->args = IR_NEW_N(arena, ir_expr *, e->nargs);
      memcpy(x->args, e->args, sizeof *x->args * (size_t)e->nargs);
    }
    x->args[i] = a;
  }
  return x;
}

/* A copy of the list s with w made y in it (NULL y: no substitution,
 * regions found and folded inside instead); the copy of the list up to and
 * with last only, when last is not NULL. */
static ir_stmt *rewrite(fold *f, const ir_stmt *s, ir_expr *y, const ir_stmt *last);

static ir_stmt *rewrite_one(fold *f, const ir_stmt *s, ir_expr *y) {
  ir_stmt *x = IR_NEW(f->arena, ir_stmt);
  *x = *s;
  x->next = NULL;
  x->body = rewrite(f, s->body, y, NULL);
  x->then_body = rewrite(f, s->then_body, y, NULL);
  x->else_body = rewrite(f, s->else_body, y, NULL);
  if (y && s->kind == IR_ST_ASSIGN) {
    x->lhs = subst(f->arena, s->lhs, f->w, y);
    x->rhs = subst(f->arena, s->rhs, f->w, y);
    /* Y = Y stores the value Y holds: dropped */
    if (x->op == IR_ASSIGN && ir_expr_equal(x->lhs, x->rhs)) return NULL;
  }
  return x;
}

static ir_stmt *rewrite(fold *f, const ir_stmt *s, ir_expr *y, const ir_stmt *last) {
  ir_stmt *first = NULL, **tail = &first;
  for (; s; s = s->next) {
    const ir_stmt *t = !y && first_write(f, s) ? region_store(f, s) : NULL;
    ir_stmt *x = t ? rewrite(f, s, t->lhs, t) : rewrite_one(f, s, y);
    if (x) {
      *tail = x;
      while (*tail) tail = &(*tail)->next;
    }
    if (t) s = t;
    if (s == last) break;
  }
  return first;
}

/* Number the assignments of s from *id on, in textual order. */
static void renumber(ir_stmt *s, int *id) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) s->id = (*id)++;
    renumber(s->body, id);
    renumber(s->then_body, id);
    renumber(s->else_body, id);
  }
}

const ir_kernel *poly_fold_locals(const ir_kernel *k, ir_arena *arena, int *nfolded) {
  *nfolded = 0;
  const ir_kernel *cur = k;
  ir_buf params = {0};
  ir_buf_printf(&params, "[");
  int np = 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) ir_buf_printf(&params, "%sP%d", np++ ? ", " : "", v);
  ir_buf_printf(&params, "]");
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *w = k->vars[v];
    if (w->kind != IR_VAR_LOCAL || w->rank) continue;
    int all = count_stmts(cur->body, v, NULL);
    if (!all) continue;
    fold f = {cur, arena, ctx, ir_buf_str(&params), v, {0}, 0, {0}, {0}, 0, NULL, 0};
    int covered = regions(&f, cur->body);
    if (f.bad || covered != all) continue;
    ir_kernel *x = IR_NEW(arena, ir_kernel);
    *x = *cur;
    f.k = x;
    x->body = rewrite(&f, cur->body, NULL, NULL);
    x->nassign = 0;
    renumber(x->body, &x->nassign);
    cur = x;
    ++*nfolded;
  }
  isl_ctx_free(ctx);
  ir_buf_free(&params);
  return cur;
}
