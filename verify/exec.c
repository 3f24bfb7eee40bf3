/*
 * exec.c - symbolic execution of a loop program at concrete sizes.
 *
 * Loops, affine ifs and subscripts run concretely (sizes and iterators are
 * numbers); data is terms of a vx world (internal.h).  Each element of each
 * variable holds a value term, a poison term (INTERP_TERM_NONE: defined) and
 * a "written" flag.  Statements outside the mask are skipped, as the
 * interpreter does for a task.  A data-dependent `if` becomes a guard: a
 * guarded assignment writes ite(guard, new, old) and ite poison.
 *
 * fp world: an accumulation `x += e` / `x -= e` / `x = x + e` does not fold
 * at once; the element keeps a pending multiset (a bag) of the statement's
 * summands, started with the element's value before the first one (the
 * init).  Any other access to the element first turns the bag into
 * vx_reduce(add, init, summands), the same encoding the op kernels'
 * reductions get, so the order of a reduction loop does not matter.
 */
#include <math.h>
#include <string.h>

#include "verify/internal.h"

typedef struct vx_bag {
  int stmt;
  interp_term init;
  interp_term *xs;
  long n, cap;
} vx_bag;

typedef struct tv {
  interp_term v, p; /* value, poison (NONE: defined) */
} tv;

/* ------------------------------------------------------------ helpers */

/* Report a failure at pos (ir_error convention); returns -1. */
static int fail(vx_exec *e, ir_pos pos, ir_err_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(vx_exec *e, ir_pos pos, ir_err_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(&e->err, pos, code, fmt, ap);
  va_end(ap);
  return -1;
}

static interp_term por(vx *x, interp_term a, interp_term b) {
  if (a == INTERP_TERM_NONE) return b;
  if (b == INTERP_TERM_NONE || a == b) return a;
  return x->alg.poison_or(x, a, b);
}

/* Is e an integer expression of sizes and iterators only (loop bounds,
 * subscripts, affine conditions)? */
static int int_only(const ir_kernel *k, const ir_expr *e) {
  switch (e->kind) {
  case IR_EX_CONST: return e->type == IR_I32 || e->type == IR_I1;
  case IR_EX_VAR: {
    ir_var_kind vk = k->vars[e->var]->kind;
    return vk == IR_VAR_SIZE || vk == IR_VAR_ITER;
  }
  case IR_EX_ELEM:
  case IR_EX_CALL:
  case IR_EX_DIV:
    return 0;
  case IR_EX_CAST:
    return (e->type == IR_I32 || e->type == IR_I1) && int_only(k, e->args[0]);
  default:
    for (int i = 0; i < e->nargs; i++)
      if (!int_only(k, e->args[i])) return 0;
    return 1;
  }
}

static long ieval(const vx_exec *s, const ir_expr *e) {
  const long *v = s->ivals;
  switch (e->kind) {
  case IR_EX_CONST: return (long)e->value;
  case IR_EX_VAR: return v[e->var];
  case IR_EX_NEG: return -ieval(s, e->args[0]);
  case IR_EX_NOT: return !ieval(s, e->args[0]);
  case IR_EX_CAST: return ieval(s, e->args[0]);
  default: break;
  }
  if (e->kind == IR_EX_SELECT)
    return ieval(s, e->args[0]) ? ieval(s, e->args[1]) : ieval(s, e->args[2]);
  long a = ieval(s, e->args[0]);
  if (e->kind == IR_EX_AND && !a) return 0;
  if (e->kind == IR_EX_OR && a) return 1;
  long b = ieval(s, e->args[1]);
  switch (e->kind) {
  case IR_EX_ADD: return a + b;
  case IR_EX_SUB: return a - b;
  case IR_EX_MUL: return a * b;
  case IR_EX_LT: return a < b;
  case IR_EX_LE: return a <= b;
  case IR_EX_GT: return a > b;
  case IR_EX_GE: return a >= b;
  case IR_EX_EQ: return a == b;
  case IR_EX_NE: return a != b;
  case IR_EX_AND:
  case IR_EX_OR: return b != 0;
  case IR_EX_IMIN: return a < b ? a : b;
  case IR_EX_IMAX: return a > b ? a : b;
  default: UNREACHABLE();
  }
}

/* The flat index of an element reference, or -1 (e->err filled) if a
 * subscript is out of range. */
static long elem_index(vx_exec *s, const ir_expr *ref) {
  if (ref->kind == IR_EX_VAR) return 0;
  const vx_var *var = &s->vars[ref->var];
  if (ref->nargs != var->rank) {
    fail(s, ref->pos, IR_ERR_SHAPE, "%s: %d subscripts for rank %d", s->k->vars[ref->var]->name,
         ref->nargs, var->rank);
    return -1;
  }
  long idx = 0;
  for (int d = 0; d < var->rank; d++) {
    long i = ieval(s, ref->args[d]);
    if (i < 0 || i >= var->dims[d]) {
      fail(s, ref->pos, IR_ERR_RANGE, "%s: the %s subscript is %ld, outside 0..%ld",
           s->k->vars[ref->var]->name, ir_ordinal(d + 1), i, var->dims[d] - 1);
      return -1;
    }
    idx = idx * var->dims[d] + i;
  }
  return idx;
}

/* fp: turn a pending bag into a term. */
static void settle(vx_exec *s, vx_var *var, long i) {
  if (!var->bags || !var->bags[i]) return;
  vx_bag *b = var->bags[i];
  var->val[i] = vx_reduce(s->x, INTERP_BODY_ADD, b->init, b->xs, b->n);
  ir_free(b->xs);
  ir_free(b);
  var->bags[i] = NULL;
}

/* ------------------------------------------------------- expressions */

static int eval(vx_exec *s, const ir_expr *e, tv *out);

static int eval_args(vx_exec *s, const ir_expr *e, tv *a, int n) {
  for (int i = 0; i < n; i++)
    if (eval(s, e->args[i], &a[i])) return -1;
  return 0;
}

static int eval(vx_exec *s, const ir_expr *e, tv *out) {
  vx *x = s->x;
  const interp_sym_algebra *g = &x->alg;
  out->p = INTERP_TERM_NONE;
  if (int_only(s->k, e)) {
    out->v = g->constant(x, (double)ieval(s, e));
    return 0;
  }
  tv a[3];
  switch (e->kind) {
  case IR_EX_CONST: /* a float literal holds a float, as when run */
    out->v = g->constant(x, e->type == IR_F32 ? (double)(float)e->value : e->value);
    return 0;
  case IR_EX_VAR:
  case IR_EX_ELEM: {
    vx_var *var = &s->vars[e->var];
    if (!var->has) {
      if (e->kind == IR_EX_VAR && s->k->vars[e->var]->kind != IR_VAR_LOCAL_ARRAY) {
        out->v = g->constant(x, (double)s->ivals[e->var]);
        return 0;
      }
      return fail(s, e->pos, IR_ERR_INPUT, "'%s' has no value here", s->k->vars[e->var]->name);
    }
    long i = elem_index(s, e);
    if (i < 0) return -1;
    settle(s, var, i);
    out->v = var->val[i];
    out->p = var->poi[i];
    return 0;
  }
  case IR_EX_NEG:
  case IR_EX_NOT:
    if (eval_args(s, e, a, 1)) return -1;
    out->v = e->kind == IR_EX_NEG ? g->neg(x, a[0].v) : vx_not(x, a[0].v);
    out->p = a[0].p;
    return 0;
  case IR_EX_CAST:
    if (eval_args(s, e, a, 1)) return -1;
    if (x->kind == VX_INT && ir_elem_is_float(e->type) && !x->int_reals)
      x->outside = 1; /* floating arithmetic does not wrap: not modelled */
    if (ir_elem_is_int(e->type) && ir_elem_is_int(e->args[0]->type))
      out->v = g->convert(x, a[0].v, e->args[0]->type, e->type); /* C's conversion */
    else if (x->kind == VX_INT && e->args[0]->type == IR_I1 && ir_elem_is_int(e->type))
      out->v = vx_set_type(x, g->select(x, a[0].v, g->constant(x, 1), g->constant(x, 0)), e->type);
    else if (ir_elem_is_int(e->type) && ir_elem_is_float(e->args[0]->type))
      out->v = x->kind == VX_INT || x->kind == VX_CONCRETE
                   ? g->convert(x, a[0].v, e->args[0]->type, e->type) /* C's conversion */
                   : vx_trunc(x, a[0].v);
    else if ((x->kind == VX_INT || x->kind == VX_CONCRETE) && ir_elem_is_float(e->type) &&
             ir_elem_is_int(e->args[0]->type))
      /* as a real, or outside; concretely a floating value, whose
       * arithmetic no longer wraps at the integer type */
      out->v = g->convert(x, a[0].v, e->args[0]->type, e->type);
    else if (e->type == IR_F32 && e->args[0]->type == IR_F64 && s->k->data_type == IR_F64)
      /* a rounding below the kernel's precision, not the identity; in a
       * float kernel it is the rounding every op of the (f32) tensor
       * program does, which real mode ignores */
      out->v = vx_round32(x, a[0].v);
    else
      out->v = a[0].v;
    out->p = a[0].p;
    return 0;
  case IR_EX_SELECT:
    if (eval_args(s, e, a, 3)) return -1;
    out->v = g->select(x, a[0].v, a[1].v, a[2].v);
    out->p = a[1].p == a[2].p ? a[1].p
                              : g->poison_select(x, a[0].v, a[1].p, a[2].p);
    out->p = por(x, a[0].p, out->p);
    return 0;
  case IR_EX_CALL: {
    if (eval_args(s, e, a, e->nargs)) return -1;
    switch (e->fn) {
    case IR_FN_SQRT: out->v = g->sqrt(x, a[0].v); break;
    case IR_FN_EXP: out->v = g->exp(x, a[0].v); break;
    case IR_FN_POW: out->v = vx_pow(x, a[0].v, a[1].v); break;
    case IR_FN_FABS:
      /* 0 - v at v <= 0: fabs(-0) is +0 */
      out->v = g->select(x, g->compare(x, INTERP_CMP_LE, a[0].v, g->constant(x, 0)),
                         g->sub(x, g->constant(x, 0), a[0].v), a[0].v);
      break;
    case IR_FN_FMAX: out->v = vx_fmaxmin(x, a[0].v, a[1].v, 1); break; /* C */
    case IR_FN_FMIN: out->v = vx_fmaxmin(x, a[0].v, a[1].v, 0); break;
    }
    out->p = a[0].p;
    if (e->nargs > 1) out->p = por(x, out->p, a[1].p);
    return 0;
  }
  default:
    break;
  }
  /* binary */
  if (eval_args(s, e, a, 2)) return -1;
  interp_term l = a[0].v, r = a[1].v;
  switch (e->kind) {
  case IR_EX_ADD: out->v = g->add(x, l, r); break;
  case IR_EX_SUB: out->v = g->sub(x, l, r); break;
  case IR_EX_MUL: out->v = g->mul(x, l, r); break;
  case IR_EX_DIV: out->v = g->div(x, l, r); break;
  case IR_EX_LT: out->v = g->compare(x, INTERP_CMP_LT, l, r); break;
  case IR_EX_LE: out->v = g->compare(x, INTERP_CMP_LE, l, r); break;
  case IR_EX_GT: out->v = g->compare(x, INTERP_CMP_GT, l, r); break;
  case IR_EX_GE: out->v = g->compare(x, INTERP_CMP_GE, l, r); break;
  case IR_EX_EQ: out->v = g->compare(x, INTERP_CMP_EQ, l, r); break;
  case IR_EX_NE: out->v = g->compare(x, INTERP_CMP_NE, l, r); break;
  case IR_EX_AND: out->v = vx_and(x, l, r); break;
  case IR_EX_OR: out->v = vx_or(x, l, r); break;
  case IR_EX_IMIN: out->v = g->min(x, l, r); break;
  case IR_EX_IMAX: out->v = g->max(x, l, r); break;
  case IR_EX_SHL: out->v = g->shift(x, 'l', l, r, e->type); break;
  case IR_EX_SHR: out->v = g->shift(x, ir_elem_is_signed(e->type) ? 'a' : 'r', l, r, e->type); break;
  default: return fail(s, e->pos, IR_ERR_INPUT, "unsupported expression");
  }
  out->p = por(x, a[0].p, a[1].p);
  if ((e->kind == IR_EX_AND || e->kind == IR_EX_OR) && a[1].p != INTERP_TERM_NONE) {
    /* the right operand's poison counts only when C evaluates it */
    interp_term evalb = e->kind == IR_EX_AND ? l : vx_not(x, l);
    out->p = por(x, a[0].p, g->poison_select(x, evalb, a[1].p, INTERP_TERM_NONE));
  }
  return 0;
}

/* ------------------------------------------------------- statements */

/* Does e read every element it reads whatever the inputs: no select, &&
 * or || (whose operands may be left unread when run) and no subscript
 * that reads data? */
static int reads_unconditionally(const ir_kernel *k, const ir_expr *e) {
  if (e->kind == IR_EX_SELECT || e->kind == IR_EX_AND || e->kind == IR_EX_OR) return 0;
  for (int i = 0; i < e->nargs; i++) {
    if (e->kind == IR_EX_ELEM && !int_only(k, e->args[i])) return 0;
    if (!reads_unconditionally(k, e->args[i])) return 0;
  }
  return 1;
}

static int assign(vx_exec *s, const ir_stmt *st, interp_term guard,
                  interp_term gpoi) {
  vx *x = s->x;
  const interp_sym_algebra *g = &x->alg;
  vx_var *var = &s->vars[st->lhs->var];
  if (!var->has)
    return fail(s, st->pos, IR_ERR_INPUT, "'%s' cannot be assigned", s->k->vars[st->lhs->var]->name);
  long i = elem_index(s, st->lhs);
  if (i < 0) {
    /* subscripts are affine: out of range for every input unless guarded */
    s->ub_always = guard == INTERP_TERM_NONE && st->lhs->kind == IR_EX_ELEM;
    return -1;
  }

  /* The summand of an accumulation: x += e, x -= e, x = x + e, x = e + x. */
  const ir_expr *rhs;
  ir_assign_op op = ir_stmt_accumulation(st, &rhs);
  tv r;
  if (eval(s, rhs, &r)) {
    /* a read outside its array that runs whatever the inputs (C's
     * `m = x[0]` at n = 0): undefined at these sizes, as such a write */
    s->ub_always = s->err.code == IR_ERR_RANGE && guard == INTERP_TERM_NONE &&
                   reads_unconditionally(s->k, rhs);
    return -1;
  }
  int accumulate = s->bags_on && guard == INTERP_TERM_NONE &&
                   (op == IR_ASSIGN_ADD || op == IR_ASSIGN_SUB);
  if (accumulate) {
    if (!var->bags) var->bags = ir_calloc((size_t)var->n, sizeof(vx_bag *));
    vx_bag *b = var->bags[i];
    if (b && b->stmt != st->id) {
      settle(s, var, i);
      b = NULL;
    }
    if (!b) {
      b = var->bags[i] = ir_calloc(1, sizeof(vx_bag));
      b->stmt = st->id;
      b->init = var->val[i];
    }
    if (b->n == b->cap) {
      b->cap = b->cap ? 2 * b->cap : 8;
      b->xs = ir_realloc(b->xs, sizeof(interp_term) * (size_t)b->cap);
    }
    b->xs[b->n++] = op == IR_ASSIGN_SUB ? g->neg(x, r.v) : r.v;
    var->poi[i] = por(x, por(x, var->poi[i], r.p), gpoi);
    var->written[i] = 1;
    return 0;
  }
  settle(s, var, i);
  interp_term old = var->val[i], oldp = var->poi[i];
  interp_term nv = r.v, np = r.p;
  switch (op) {
  case IR_ASSIGN: break;
  case IR_ASSIGN_ADD: nv = g->add(x, old, r.v); break;
  case IR_ASSIGN_SUB: nv = g->sub(x, old, r.v); break;
  case IR_ASSIGN_MUL: nv = g->mul(x, old, r.v); break;
  case IR_ASSIGN_DIV: nv = g->div(x, old, r.v); break;
  }
  if (op != IR_ASSIGN) np = por(x, oldp, r.p);
  if (guard != INTERP_TERM_NONE) {
    nv = g->select(x, guard, nv, old);
    np = np == oldp ? np : g->poison_select(x, guard, np, oldp);
  }
  np = por(x, gpoi, np);
  var->val[i] = nv;
  var->poi[i] = np;
  var->written[i] = 1;
  return 0;
}

/* Does the statement list contain a selected assignment? */
static int has_selected(const ir_stmt *st, const unsigned char *mask) {
  for (; st; st = st->next) {
    switch (st->kind) {
    case IR_ST_ASSIGN:
      if (!mask || mask[st->id]) return 1;
      break;
    case IR_ST_FOR:
      if (has_selected(st->body, mask)) return 1;
      break;
    case IR_ST_IF:
      if (has_selected(st->then_body, mask) || has_selected(st->else_body, mask))
        return 1;
      break;
    }
  }
  return 0;
}

static int run_list(vx_exec *s, const ir_stmt *st, const unsigned char *mask,
                    interp_term guard, interp_term gpoi) {
  vx *x = s->x;
  for (; st; st = st->next) {
    if (st->kind == IR_ST_ASSIGN) {
      if (mask && !mask[st->id]) continue;
      if (assign(s, st, guard, gpoi)) return -1;
    } else if (st->kind == IR_ST_FOR) {
      if (!has_selected(st->body, mask)) continue;
      long lo = ieval(s, st->lo), hi = ieval(s, st->hi);
      long n = hi >= lo ? hi - lo + 1 : 0;
      for (long t = 0; t < n; t++) {
        s->ivals[st->iter] = st->step < 0 ? hi - t : lo + t;
        if (run_list(s, st->body, mask, guard, gpoi)) return -1;
      }
    } else {
      if (!has_selected(st->then_body, mask) && !has_selected(st->else_body, mask))
        continue;
      if (int_only(s->k, st->cond)) {
        const ir_stmt *b = ieval(s, st->cond) ? st->then_body : st->else_body;
        if (run_list(s, b, mask, guard, gpoi)) return -1;
        continue;
      }
      tv c;
      if (eval(s, st->cond, &c)) return -1;
      interp_term cb = c.v;
      if (x->kind == VX_CONCRETE) { /* run the branch taken */
        interp_term p2 = por(x, gpoi, c.p);
        const ir_stmt *b = vx_ctrue(x, cb) ? st->then_body : st->else_body;
        if (run_list(s, b, mask, guard, p2)) return -1;
        continue;
      }
      interp_term notc = vx_not(x, cb);
      interp_term gt = guard ? vx_and(x, guard, cb) : cb;
      interp_term ge = guard ? vx_and(x, guard, notc) : notc;
      interp_term p2 = por(x, gpoi, c.p);
      if (run_list(s, st->then_body, mask, gt, p2)) return -1;
      if (run_list(s, st->else_body, mask, ge, p2)) return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------- state */

int vx_exec_init(vx_exec *e, vx *x, const ir_kernel *k, const long *sizes,
                 const int *inputs, int ninputs,
                 const double *(*values_of)(int var, void *user), void *user) {
  memset(e, 0, sizeof *e);
  e->x = x;
  e->k = k;
  e->bags_on = x->kind == VX_FP;
  e->ivals = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  e->vars = ir_calloc((size_t)k->nvars + 1, sizeof(vx_var));
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE || k->vars[v]->kind == IR_VAR_EXTENT)
      e->ivals[v] = sizes[v];
  interp_term poison = INTERP_TERM_NONE, zero = INTERP_TERM_NONE;
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *iv = k->vars[v];
    if (iv->kind == IR_VAR_SIZE || iv->kind == IR_VAR_ITER || iv->kind == IR_VAR_EXTENT)
      continue;
    vx_var *var = &e->vars[v];
    var->has = 1;
    var->rank = iv->rank;
    var->n = 1;
    for (int d = 0; d < iv->rank; d++) {
      var->dims[d] = ieval(e, iv->dims[d]);
      if (var->dims[d] < 0)
        return fail(e, iv->pos, IR_ERR_RANGE, "'%s' has a negative dim", iv->name);
      var->n *= var->dims[d];
    }
    var->val = ir_calloc((size_t)var->n + 1, sizeof(interp_term));
    var->poi = ir_calloc((size_t)var->n + 1, sizeof(interp_term));
    var->written = ir_calloc((size_t)var->n + 1, 1);
    int given = iv->kind == IR_VAR_SCALAR || iv->kind == IR_VAR_ARRAY;
    for (int j = 0; j < ninputs; j++)
      if (inputs[j] == v) given = 1;
    if (given) {
      const double *vals = x->kind == VX_CONCRETE && values_of ? values_of(v, user) : NULL;
      for (long i = 0; i < var->n; i++) {
        if (x->kind == VX_CONCRETE) {
          var->val[i] = vx_set_type(x, vx_value(x, vals ? vals[i] : 0), iv->elem);
        } else {
          char name[80];
          snprintf(name, sizeof name, "%s_%ld", iv->name, i);
          var->val[i] = vx_fresh_elem(x, name, iv->elem);
        }
      }
    } else {
      if (!poison) {
        poison = vx_poison_true(x);
        zero = vx_value(x, 0);
      }
      for (long i = 0; i < var->n; i++) {
        var->val[i] = zero;
        var->poi[i] = poison;
      }
    }
  }
  return 0;
}

int vx_exec_run(vx_exec *e, const unsigned char *mask) {
  if (run_list(e, e->k->body, mask, INTERP_TERM_NONE, INTERP_TERM_NONE))
    return -1;
  for (int v = 0; v < e->k->nvars; v++)
    for (long i = 0; e->vars[v].bags && i < e->vars[v].n; i++)
      settle(e, &e->vars[v], i);
  return 0;
}

void vx_exec_free(vx_exec *e) {
  if (e->vars) {
    for (int v = 0; v < e->k->nvars; v++) {
      vx_var *var = &e->vars[v];
      if (var->bags) {
        for (long i = 0; i < var->n; i++)
          if (var->bags[i]) {
            ir_free(var->bags[i]->xs);
            ir_free(var->bags[i]);
          }
        ir_free(var->bags);
      }
      ir_free(var->val);
      ir_free(var->poi);
      ir_free(var->written);
    }
  }
  ir_free(e->vars);
  ir_free(e->ivals);
  memset(e, 0, sizeof *e);
}
