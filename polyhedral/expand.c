/*
 * expand.c - scalar (and array) expansion of locals over enclosing loops.
 *
 * How: deep-copy the kernel into the arena (variables, statements,
 * expressions).  A reference to an expanded variable v, `v` or `v[s..]`,
 * becomes `v[i, j, s..]` with i, j the iterators of the chosen loops; v
 * becomes a local array whose leading dims are those loops' extents.  Ids
 * of variables and assignments are unchanged, so the analysis of the copy
 * speaks of the same statements as the original.
 */
#include <string.h>

#include "polyhedral/expand.h"

static const poly_expansion *find(const poly_expansion *ex, int n, int var) {
  for (int i = 0; i < n; i++)
    if (ex[i].var == var) return &ex[i];
  return NULL;
}

static ir_expr *mk(ir_arena *a, ir_expr_kind kind, ir_elem type, ir_pos pos, int nargs) {
  ir_expr *e = IR_NEW(a, ir_expr);
  e->kind = kind;
  e->type = type;
  e->pos = pos;
  e->nargs = nargs;
  e->args = nargs ? IR_NEW_N(a, ir_expr *, nargs) : NULL;
  return e;
}

static ir_expr *copy_expr(const ir_expr *e, const poly_expansion *ex, int n, ir_arena *a) {
  if (!e) return NULL;
  const poly_expansion *x =
      (e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) ? find(ex, n, e->var) : NULL;
  int lead = x ? x->nloops : 0;
  ir_expr *c = mk(a, x ? IR_EX_ELEM : e->kind, e->type, e->pos, lead + e->nargs);
  c->value = e->value;
  c->is_int = e->is_int;
  c->var = e->var;
  c->fn = e->fn;
  for (int i = 0; i < lead; i++) {
    ir_expr *it = mk(a, IR_EX_VAR, IR_I32, e->pos, 0);
    it->var = x->iters[i];
    c->args[i] = it;
  }
  for (int i = 0; i < e->nargs; i++) c->args[lead + i] = copy_expr(e->args[i], ex, n, a);
  return c;
}

static ir_stmt *copy_stmts(const ir_stmt *s, const poly_expansion *ex, int n, ir_arena *a) {
  ir_stmt *head = NULL, **tail = &head;
  for (; s; s = s->next) {
    ir_stmt *c = IR_NEW(a, ir_stmt);
    *c = *s;
    c->next = NULL;
    c->lo = copy_expr(s->lo, ex, n, a);
    c->hi = copy_expr(s->hi, ex, n, a);
    c->cond = copy_expr(s->cond, ex, n, a);
    c->lhs = copy_expr(s->lhs, ex, n, a);
    c->rhs = copy_expr(s->rhs, ex, n, a);
    c->body = copy_stmts(s->body, ex, n, a);
    c->then_body = copy_stmts(s->then_body, ex, n, a);
    c->else_body = copy_stmts(s->else_body, ex, n, a);
    *tail = c;
    tail = &c->next;
  }
  return head;
}

static const ir_stmt *find_loop(const ir_stmt *s, int iter) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_FOR && s->iter == iter) return s;
    const ir_stmt *r = find_loop(s->body, iter);
    if (!r) r = find_loop(s->then_body, iter);
    if (!r) r = find_loop(s->else_body, iter);
    if (r) return r;
  }
  return NULL;
}

const ir_kernel *poly_expand_kernel(const ir_kernel *k, const poly_expansion *ex,
                                    int n, ir_arena *arena) {
  ir_kernel *c = IR_NEW(arena, ir_kernel);
  *c = *k;
  c->vars = IR_NEW_N(arena, ir_var *, k->nvars ? k->nvars : 1);
  for (int v = 0; v < k->nvars; v++) {
    ir_var *nv = IR_NEW(arena, ir_var);
    *nv = *k->vars[v];
    for (int d = 0; d < nv->rank; d++) nv->dims[d] = copy_expr(nv->dims[d], NULL, 0, arena);
    const poly_expansion *x = find(ex, n, v);
    if (x && x->nloops + nv->rank <= IR_MAX_RANK) {
      for (int d = nv->rank - 1; d >= 0; d--) nv->dims[d + x->nloops] = nv->dims[d];
      for (int i = 0; i < x->nloops; i++) {
        const ir_stmt *l = find_loop(k->body, x->iters[i]);
        ir_expr *one = mk(arena, IR_EX_CONST, IR_I32, nv->pos, 0);
        one->value = 1;
        one->is_int = 1;
        ir_expr *dim = mk(arena, IR_EX_ADD, IR_I32, nv->pos, 2);
        dim->args[0] = copy_expr(l ? l->hi : one, NULL, 0, arena);
        dim->args[1] = one;
        nv->dims[i] = dim;
      }
      nv->rank += x->nloops;
      nv->kind = IR_VAR_LOCAL_ARRAY;
    }
    c->vars[v] = nv;
  }
  c->params = IR_NEW_N(arena, int, k->nparams ? k->nparams : 1);
  if (k->nparams) memcpy(c->params, k->params, sizeof(int) * (size_t)k->nparams);
  c->body = copy_stmts(k->body, ex, n, arena);
  return c;
}
