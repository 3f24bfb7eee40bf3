/*
 * generalize.c - constant extents as sizes.  A kernel written for fixed
 * extents (`#define N 1000`, `float w[N]`, loops to N; Polybench's
 * POLYBENCH_USE_SCALAR_LB) has no size parameters to vary: its examples,
 * its size cases and its verification would all run at N, which is
 * millions of elements where a handful separate the candidates.  The
 * kernel at N is the instance N of a kernel over a size symbol n: every
 * array extent N becomes n, every loop bound N - 1 becomes n - 1, every
 * assumption side N becomes n.  That kernel is raised, and its program is
 * the user's at n = N: the symbol is an IR_VAR_SIZE marked `pinned` with
 * value N (ir/ir.h), which the search and the verifier vary and every run
 * of the user's code and every static shape pins (ir_kernel_pin_constants).
 *
 * Each constant extent c >= 2 already has its dim symbol (the front end's
 * IR_VAR_EXTENT named "c"); that variable becomes the size.  A constant
 * loop bound is counted from the end of the dim its iterator subscripts (a
 * loop to N - 2 over A[i] of extent N: n - 2), or is c - 1 of an extent c;
 * a constant subscript near the end of its dim is counted from there too
 * (corr[N-1][N-1]: corr[n-1][n-1]); constants nearer the start stay.  The
 * rewrite is kept only when every access of the new kernel stays inside its
 * array for every size (poly_accesses_in_range): a constant subscript near
 * the start of such a dim (rgb[i][1] of rgb[n][3]), or a relation between
 * two constants that the loops need (a loop to 4 over x[8]), leave the
 * kernel as it was.  What the
 * verifier promises for the pinned value is pipe_verify_cb's concern
 * (pipeline/verify.c): a proof for every size covers it, else the task is
 * checked at it.
 */
#include <string.h>

#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"

/* One replaced expression pointer, to undo the rewrite. */
typedef struct undo {
  ir_expr **slot;
  ir_expr *old;
} undo;

typedef struct gen {
  ir_kernel *k;
  ir_arena *arena;
  undo *log;
  int n, cap;
} gen;

/* Is e an integer constant (no variable)?  Its value in *v. */
static int closed_value(const ir_expr *e, long *v) { return e && ir_expr_const_int(e, v); }

static void set(gen *g, ir_expr **slot, ir_expr *e) {
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 16;
    g->log = ir_realloc(g->log, sizeof *g->log * (size_t)g->cap);
  }
  g->log[g->n].slot = slot;
  g->log[g->n].old = *slot;
  g->n++;
  *slot = e;
}

/* The size symbol of a constant extent c, or -1. */
static int symbol_of(const ir_kernel *k, long c) {
  return c >= 2 ? ir_kernel_extent_var(k, c) : -1;
}

/* v - off (off >= 0), at e's position. */
static ir_expr *var_expr(gen *g, int v, long off, const ir_expr *at) {
  ir_expr *x = IR_NEW(g->arena, ir_expr);
  x->kind = IR_EX_VAR;
  x->type = IR_I32;
  x->var = v;
  x->pos = at->pos;
  if (!off) return x;
  ir_expr *c = IR_NEW(g->arena, ir_expr);
  c->kind = IR_EX_CONST;
  c->type = IR_I32;
  c->is_int = 1;
  c->value = (double)off;
  c->pos = at->pos;
  ir_expr *d = IR_NEW(g->arena, ir_expr);
  d->kind = IR_EX_SUB;
  d->type = IR_I32;
  d->pos = at->pos;
  d->nargs = 2;
  d->args = IR_NEW_N(g->arena, ir_expr *, 2);
  d->args[0] = x;
  d->args[1] = c;
  return d;
}

/* An extent or assumption side *slot that is the constant c of an extent:
 * its symbol. */
static void extent(gen *g, ir_expr **slot) {
  long c;
  int v;
  if (*slot && closed_value(*slot, &c) && (v = symbol_of(g->k, c)) >= 0)
    set(g, slot, var_expr(g, v, 0, *slot));
}

/* The symbol of dim d of array var, when that dim is a constant extent
 * made a symbol (extent() ran first); else -1. */
static int dim_symbol(const ir_kernel *k, int var, int d) {
  const ir_var *a = k->vars[var];
  if (d >= a->rank || !a->dims[d] || a->dims[d]->kind != IR_EX_VAR) return -1;
  int v = a->dims[d]->var;
  return k->vars[v]->kind == IR_VAR_EXTENT ? v : -1;
}

/* A constant h counted from the end of a dim of extent c (symbol v): v -
 * (c - h) when h is nearer the end than the start (h >= c - h; A[N-1],
 * a loop to N - 2), else NULL (A[0], A[1] stay). */
static ir_expr *from_end(gen *g, int v, long h, const ir_expr *at) {
  long c = g->k->vars[v]->value;
  if (h < 0 || h >= c || c - h > h + 1) return NULL;
  return var_expr(g, v, c - h, at);
}

/* The one symbol of the dims that iterator `it` subscripts directly
 * (A[i], A[j][i]) in e; *sym: -1 none yet, -2 two different ones. */
static void iter_dims(const ir_kernel *k, const ir_expr *e, int it, int *sym) {
  if (!e) return;
  if (e->kind == IR_EX_ELEM)
    for (int d = 0; d < e->nargs; d++) {
      int v = dim_symbol(k, e->var, d);
      if (e->args[d]->kind == IR_EX_VAR && e->args[d]->var == it && v >= 0)
        *sym = *sym == -1 || *sym == v ? v : -2;
    }
  for (int i = 0; i < e->nargs; i++) iter_dims(k, e->args[i], it, sym);
}

static void iter_dims_stmts(const ir_kernel *k, const ir_stmt *s, int it, int *sym) {
  for (; s; s = s->next) {
    iter_dims(k, s->lhs, it, sym);
    iter_dims(k, s->rhs, it, sym);
    iter_dims(k, s->cond, it, sym);
    iter_dims_stmts(k, s->body, it, sym);
    iter_dims_stmts(k, s->then_body, it, sym);
    iter_dims_stmts(k, s->else_body, it, sym);
  }
}

/* A loop's upper bound *slot (or a leaf of its min tree) that is a
 * constant: counted from the end of the one constant dim the loop's
 * iterator subscripts (a loop to N - 2 over A[i] of extent N: n - 2),
 * else c - 1 for the constant c of an extent (a loop to 4: n4 - 1). */
static void upper(gen *g, ir_expr **slot, int sym) {
  long h;
  int v;
  if (!*slot) return;
  if ((*slot)->kind == IR_EX_IMIN) {
    for (int i = 0; i < (*slot)->nargs; i++) upper(g, &(*slot)->args[i], sym);
    return;
  }
  if (!closed_value(*slot, &h)) return;
  ir_expr *e = sym >= 0 ? from_end(g, sym, h, *slot) : NULL;
  if (!e && (v = symbol_of(g->k, h + 1)) >= 0) e = var_expr(g, v, 1, *slot);
  if (e) set(g, slot, e);
}

/* Constant subscripts near the end of a constant dim (corr[N-1][N-1]):
 * counted from its end. */
static void subscripts(gen *g, ir_expr *e) {
  if (!e) return;
  if (e->kind == IR_EX_ELEM)
    for (int d = 0; d < e->nargs; d++) {
      long h;
      int v = dim_symbol(g->k, e->var, d);
      ir_expr *x;
      if (v >= 0 && closed_value(e->args[d], &h) && (x = from_end(g, v, h, e->args[d])))
        set(g, &e->args[d], x);
    }
  for (int i = 0; i < e->nargs; i++) subscripts(g, e->args[i]);
}

static void stmts(gen *g, ir_stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_FOR) {
      int sym = -1;
      iter_dims_stmts(g->k, s->body, s->iter, &sym);
      upper(g, &s->hi, sym);
    }
    subscripts(g, s->lhs);
    subscripts(g, s->rhs);
    subscripts(g, s->cond);
    stmts(g, s->body);
    stmts(g, s->then_body);
    stmts(g, s->else_body);
  }
}

int pipe_generalize(ir_kernel *k, ir_arena *arena) {
  int n = 0;
  for (int v = 0; v < k->nvars; v++) n += k->vars[v]->kind == IR_VAR_EXTENT;
  if (!n) return 0;
  gen g = {k, arena, NULL, 0, 0};
  for (int v = 0; v < k->nvars; v++)
    for (int d = 0; d < k->vars[v]->rank; d++) {
      extent(&g, &k->vars[v]->dims[d]);
      extent(&g, &k->vars[v]->store[d]);
    }
  for (int i = 0; i < k->nassumes; i++) {
    extent(&g, &k->assumes[i].lo);
    extent(&g, &k->assumes[i].hi);
  }
  stmts(&g, k->body);
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_EXTENT) {
      k->vars[v]->kind = IR_VAR_SIZE;
      k->vars[v]->pinned = 1;
    }
  if (!poly_accesses_in_range(k)) { /* as it was */
    for (int i = g.n - 1; i >= 0; i--) *g.log[i].slot = g.log[i].old;
    for (int v = 0; v < k->nvars; v++)
      if (k->vars[v]->pinned) {
        k->vars[v]->kind = IR_VAR_EXTENT;
        k->vars[v]->pinned = 0;
      }
    n = 0;
  }
  ir_free(g.log);
  return n;
}
