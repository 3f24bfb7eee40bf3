/*
 * loop.c - the loop-program interpreter: the reference semantics of an
 * ir_kernel (docs/architecture.md section 5).
 *
 * interp_env_init compiles the kernel once into flat arrays (private to this
 * file): expression nodes that refer to their operands by index, statements
 * likewise, and every subscript as a linear form sum(coef * var) + c0 over
 * sizes and iterators (a generic node only when a subscript is not affine).
 * Variables are slots: sizes and iterators live in env->ivals[var id],
 * everything else in env->vals[var id].  Running walks the compiled
 * statements; nothing is allocated per statement.
 *
 * Values are doubles.  An f32 node rounds its result to float after every
 * operation (as C does with FLT_EVAL_METHOD 0: double rounding is harmless
 * for + - * / sqrt since 53 >= 2*24+2), i32 values are exact integers, i1
 * values are 0/1; integer values are exact, or NaN where C gives none
 * (signed overflow, an undefined shift) or no double holds the value (an
 * i64 or ui64 past 2^53).  Each evaluation also yields poison bits: reading
 * a poison element or scalar gives its poison, every operation on poison
 * gives poison, a poison condition of ?: gives poison, and a poison
 * condition of an `if` runs both branches with every write poisoned (1:
 * uninitialized); an integer NaN is poison INTERP_POISON_UNDEF.
 *
 * Runtime errors (out-of-range subscripts) set a flag that stops the run at
 * once; the error names the statement position, the index and the shape.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/interp.h"

/* -------------------------------------------------------- compiled form */

typedef struct node {
  ir_expr_kind kind;
  ir_elem type;
  ir_fn fn;
  int var;         /* VAR, ELEM */
  double value;    /* CONST */
  int a[3];        /* operand nodes */
  int nargs;
  int sub;         /* ELEM: first linear form */
} node;

typedef struct lin {
  int first, nterm; /* terms[first .. first+nterm-1] */
  long c0;
  int generic;      /* node index when not affine, else -1 */
} lin;

typedef struct term {
  int var;
  long coef;
} term;

typedef struct cstmt {
  ir_stmt_kind kind;
  ir_pos pos;
  int next;          /* next statement in the block, -1 at the end */
  int first, last;   /* assignment ids inside (inclusive); first > last: none */
  /* FOR */
  int iter, lo, hi, step, body;
  /* IF */
  int cond, then_body, else_body;
  /* ASSIGN */
  int id, var, sub, nsub, rhs;
  ir_assign_op op;
  ir_elem calc;      /* type a compound assignment is computed in */
} cstmt;

struct interp_prog {
  node *nodes;
  int nnodes, capnodes;
  lin *lins;
  int nlins, caplins;
  term *terms;
  int nterms, capterms;
  cstmt *stmts;
  int nstmts, capstmts;
  int root;
  int *prefix;   /* nassign + 1: running count of selected assignments */
  long *coef;    /* nvars: scratch for linearization */
};

#define GROW(arr, n, cap)                                           \
  do {                                                              \
    if ((n) == (cap)) {                                             \
      (cap) = (cap) ? 2 * (cap) : 16;                               \
      (arr) = ir_realloc((arr), sizeof *(arr) * (size_t)(cap));     \
    }                                                               \
  } while (0)

static ir_elem common_type(ir_elem a, ir_elem b) { return ir_elem_common(a, b); }

/* Is e an integer constant expression?  Its value goes to *v. */
static int const_of(const ir_expr *e, long *v) {
  long a, b;
  switch (e->kind) {
  case IR_EX_CONST:
    if (e->value != floor(e->value)) return 0;
    *v = (long)e->value;
    return 1;
  case IR_EX_NEG:
    if (!const_of(e->args[0], &a)) return 0;
    *v = -a;
    return 1;
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL:
    if (!const_of(e->args[0], &a) || !const_of(e->args[1], &b)) return 0;
    *v = e->kind == IR_EX_ADD ? a + b : e->kind == IR_EX_SUB ? a - b : a * b;
    return 1;
  case IR_EX_CAST:
    return e->type == IR_I32 && const_of(e->args[0], v);
  default:
    return 0;
  }
}

/* Add scale * e to coef[] / *c0; 0 if e is not affine in sizes and
 * iterators. */
static int linearize(const ir_kernel *k, const ir_expr *e, long scale,
                     long *coef, long *c0) {
  long v;
  switch (e->kind) {
  case IR_EX_CONST:
    if (!const_of(e, &v)) return 0;
    *c0 += scale * v;
    return 1;
  case IR_EX_VAR: {
    ir_var_kind vk = k->vars[e->var]->kind;
    if (vk != IR_VAR_SIZE && vk != IR_VAR_ITER) return 0;
    coef[e->var] += scale;
    return 1;
  }
  case IR_EX_NEG: return linearize(k, e->args[0], -scale, coef, c0);
  case IR_EX_ADD:
    return linearize(k, e->args[0], scale, coef, c0) &&
           linearize(k, e->args[1], scale, coef, c0);
  case IR_EX_SUB:
    return linearize(k, e->args[0], scale, coef, c0) &&
           linearize(k, e->args[1], -scale, coef, c0);
  case IR_EX_MUL:
    if (const_of(e->args[0], &v)) return linearize(k, e->args[1], scale * v, coef, c0);
    if (const_of(e->args[1], &v)) return linearize(k, e->args[0], scale * v, coef, c0);
    return 0;
  case IR_EX_CAST:
    return e->type == IR_I32 && e->args[0]->type == IR_I32 &&
           linearize(k, e->args[0], scale, coef, c0);
  default:
    return 0;
  }
}

static int compile_expr(interp_prog *P, const ir_kernel *k, const ir_expr *e);

static int compile_lin(interp_prog *P, const ir_kernel *k, const ir_expr *e) {
  GROW(P->lins, P->nlins, P->caplins);
  int li = P->nlins++;
  lin L = {P->nterms, 0, 0, -1};
  memset(P->coef, 0, sizeof *P->coef * (size_t)k->nvars);
  if (linearize(k, e, 1, P->coef, &L.c0)) {
    for (int v = 0; v < k->nvars; v++)
      if (P->coef[v]) {
        GROW(P->terms, P->nterms, P->capterms);
        P->terms[P->nterms++] = (term){v, P->coef[v]};
        L.nterm++;
      }
  } else {
    L.c0 = 0;
    L.generic = -2; /* filled below: compile_expr may grow P->lins */
  }
  P->lins[li] = L;
  if (L.generic == -2) {
    int n = compile_expr(P, k, e);
    P->lins[li].generic = n;
  }
  return li;
}

static int compile_expr(interp_prog *P, const ir_kernel *k, const ir_expr *e) {
  GROW(P->nodes, P->nnodes, P->capnodes);
  int n = P->nnodes++;
  node x = {e->kind, e->type, e->fn, e->var, e->value, {-1, -1, -1}, 0, -1};
  if (e->kind == IR_EX_ELEM) {
    /* subscripts: consecutive linear forms */
    int subs[IR_MAX_RANK] = {0};
    for (int i = 0; i < e->nargs && i < IR_MAX_RANK; i++)
      subs[i] = compile_lin(P, k, e->args[i]);
    /* compile_lin appends lins in order unless a generic one appended
     * more lins in between (nested ELEM inside a subscript); copy them to
     * a consecutive run when needed */
    int consecutive = 1;
    int nsub = e->nargs < IR_MAX_RANK ? e->nargs : IR_MAX_RANK;
    for (int i = 1; i < nsub; i++)
      if (subs[i] != subs[0] + i) consecutive = 0;
    if (!consecutive) {
      int base = P->nlins;
      for (int i = 0; i < nsub; i++) {
        GROW(P->lins, P->nlins, P->caplins);
        P->lins[P->nlins++] = P->lins[subs[i]];
      }
      subs[0] = base;
    }
    x.sub = e->nargs ? subs[0] : 0;
    x.nargs = e->nargs < IR_MAX_RANK ? e->nargs : IR_MAX_RANK;
  } else {
    x.nargs = e->nargs < 3 ? e->nargs : 3;
    for (int i = 0; i < x.nargs; i++) x.a[i] = compile_expr(P, k, e->args[i]);
  }
  P->nodes[n] = x;
  return n;
}

static int compile_block(interp_prog *P, const ir_kernel *k, const ir_stmt *s);

static int compile_stmt(interp_prog *P, const ir_kernel *k, const ir_stmt *s) {
  GROW(P->stmts, P->nstmts, P->capstmts);
  int si = P->nstmts++;
  cstmt c;
  memset(&c, 0, sizeof c);
  c.kind = s->kind;
  c.pos = s->pos;
  c.next = -1;
  c.first = k->nassign;
  c.last = -1;
  switch (s->kind) {
  case IR_ST_FOR:
    c.iter = s->iter;
    c.lo = compile_expr(P, k, s->lo);
    c.hi = compile_expr(P, k, s->hi);
    c.step = s->step;
    c.body = compile_block(P, k, s->body);
    break;
  case IR_ST_IF:
    c.cond = compile_expr(P, k, s->cond);
    c.then_body = compile_block(P, k, s->then_body);
    c.else_body = compile_block(P, k, s->else_body);
    break;
  case IR_ST_ASSIGN: {
    const ir_expr *l = s->lhs;
    c.id = s->id;
    c.first = c.last = s->id;
    c.var = l->var;
    c.op = s->op;
    c.rhs = compile_expr(P, k, s->rhs);
    c.calc = common_type(k->vars[l->var]->elem, s->rhs->type);
    c.nsub = l->kind == IR_EX_ELEM ? l->nargs : 0;
    if (c.nsub > IR_MAX_RANK) c.nsub = IR_MAX_RANK;
    c.sub = 0;
    if (c.nsub) {
      int base = P->nlins;
      int subs[IR_MAX_RANK] = {0};
      for (int i = 0; i < c.nsub; i++) subs[i] = compile_lin(P, k, l->args[i]);
      int consecutive = 1;
      for (int i = 1; i < c.nsub; i++)
        if (subs[i] != subs[0] + i) consecutive = 0;
      if (!consecutive) {
        base = P->nlins;
        for (int i = 0; i < c.nsub; i++) {
          GROW(P->lins, P->nlins, P->caplins);
          P->lins[P->nlins++] = P->lins[subs[i]];
        }
      } else {
        base = subs[0];
      }
      c.sub = base;
    }
    break;
  }
  }
  /* ranges of assignment ids below compound statements */
  if (s->kind != IR_ST_ASSIGN) {
    int kids[2] = {s->kind == IR_ST_FOR ? c.body : c.then_body,
                   s->kind == IR_ST_FOR ? -1 : c.else_body};
    for (int j = 0; j < 2; j++)
      for (int t = kids[j]; t >= 0; t = P->stmts[t].next) {
        if (P->stmts[t].first < c.first) c.first = P->stmts[t].first;
        if (P->stmts[t].last > c.last) c.last = P->stmts[t].last;
      }
  }
  P->stmts[si] = c;
  return si;
}

static int compile_block(interp_prog *P, const ir_kernel *k, const ir_stmt *s) {
  int head = -1, prev = -1;
  for (; s; s = s->next) {
    int si = compile_stmt(P, k, s);
    if (prev >= 0) P->stmts[prev].next = si;
    else head = si;
    prev = si;
  }
  return head;
}

static interp_prog *prog_new(const ir_kernel *k) {
  interp_prog *P = ir_calloc(1, sizeof *P);
  P->coef = ir_calloc((size_t)k->nvars + 1, sizeof *P->coef);
  P->prefix = ir_calloc((size_t)k->nassign + 1, sizeof *P->prefix);
  P->root = compile_block(P, k, k->body);
  return P;
}

static void prog_free(interp_prog *P) {
  if (!P) return;
  ir_free(P->nodes);
  ir_free(P->lins);
  ir_free(P->terms);
  ir_free(P->stmts);
  ir_free(P->prefix);
  ir_free(P->coef);
  ir_free(P);
}

/* ---------------------------------------------------------- environment */

void interp_poison_locals(interp_env *env) {
  const ir_kernel *k = env->k;
  for (int v = 0; v < k->nvars; v++) {
    ir_var_kind vk = k->vars[v]->kind;
    if (vk != IR_VAR_LOCAL && vk != IR_VAR_LOCAL_ARRAY) continue;
    ir_tensor *t = &env->vals[v];
    size_t n = ir_tensor_size(t);
    memset(t->poison, 1, n ? n : 1);
    memset(t->data, 0, sizeof *t->data * (n ? n : 1));
  }
}

#define MAX_ELEMS (1L << 27) /* 1 GiB of doubles per array */

int interp_env_init(interp_env *env, const ir_kernel *k, const long *sizes,
                    interp_error *err) {
  memset(env, 0, sizeof *env);
  env->k = k;
  env->sizes = ir_calloc((size_t)k->nvars + 1, sizeof *env->sizes);
  env->ivals = ir_calloc((size_t)k->nvars + 1, sizeof *env->ivals);
  env->vals = ir_calloc((size_t)k->nvars + 1, sizeof *env->vals);
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE || k->vars[v]->kind == IR_VAR_EXTENT)
      env->sizes[v] = env->ivals[v] = sizes[v];
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *var = k->vars[v];
    ir_tensor *t = &env->vals[v];
    t->elem = var->elem;
    if (var->kind == IR_VAR_SIZE || var->kind == IR_VAR_ITER || var->kind == IR_VAR_EXTENT)
      continue;
    t->rank = var->kind == IR_VAR_ARRAY || var->kind == IR_VAR_LOCAL_ARRAY
                  ? var->rank : 0;
    long total = 1;
    for (int d = 0; d < t->rank; d++) {
      long n = ir_expr_eval_int(var->dims[d], env->ivals);
      if (n < 0 || (n && total > MAX_ELEMS / n)) {
        ir_error_set(err, var->pos, IR_ERR_RANGE,
                     "%s: dimension %d of array '%s' is %ld at these sizes",
                     n < 0 ? "negative array size" : "array too large", d + 1, var->name, n);
        interp_env_free(env);
        return -1;
      }
      t->dims[d] = n;
      total *= n;
    }
    size_t cnt = (size_t)total ? (size_t)total : 1;
    t->data = ir_calloc(cnt, sizeof *t->data);
    t->poison = ir_calloc(cnt, 1);
    /* a size used as a value: (elem)expr, as C converts it */
    if (var->size_value) {
      double x = (double)ir_expr_eval_int(var->size_value, env->ivals);
      t->data[0] = var->elem == IR_F32 ? (double)(float)x : x;
    }
  }
  env->prog = prog_new(k);
  interp_poison_locals(env);
  return 0;
}

void interp_env_free(interp_env *env) {
  if (env->vals && env->k)
    for (int v = 0; v < env->k->nvars; v++) {
      ir_free(env->vals[v].data);
      ir_free(env->vals[v].poison);
    }
  ir_free(env->vals);
  ir_free(env->sizes);
  ir_free(env->ivals);
  prog_free(env->prog);
  memset(env, 0, sizeof *env);
}

void interp_env_copy(interp_env *dst, const interp_env *src) {
  const ir_kernel *k = src->k;
  for (int v = 0; v < k->nvars; v++) {
    const ir_tensor *s = &src->vals[v];
    ir_tensor *d = &dst->vals[v];
    if (!s->data || !d->data) continue;
    size_t n = ir_tensor_size(s), m = ir_tensor_size(d);
    if (n != m) continue;
    memcpy(d->data, s->data, sizeof *d->data * (n ? n : 1));
    memcpy(d->poison, s->poison, n ? n : 1);
  }
}

static double conv(ir_elem to, double v) {
  switch (to) {
  case IR_F64: return v;
  case IR_F32: return (double)(float)v;
  case IR_I1: return v != 0;
  default: return ir_elem_wrap(to, v); /* integers: C's conversion */
  }
}

int interp_set_values(interp_env *env, int var, const double *values) {
  if (var < 0 || var >= env->k->nvars) return -1;
  ir_tensor *t = &env->vals[var];
  if (!t->data) return -1;
  size_t n = ir_tensor_size(t);
  for (size_t i = 0; i < n; i++) t->data[i] = conv(t->elem, values[i]);
  memset(t->poison, 0, n ? n : 1);
  return 0;
}

void interp_fill_params(interp_env *env, uint64_t seed, interp_draw_fn draw, void *user) {
  const ir_kernel *k = env->k;
  interp_rng r;
  interp_rng_seed(&r, seed);
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    const ir_var *var = k->vars[v];
    if (var->kind != IR_VAR_SCALAR && var->kind != IR_VAR_ARRAY) continue;
    ir_tensor *t = &env->vals[v];
    size_t n = ir_tensor_size(t);
    for (size_t i = 0; i < n; i++) {
      double v = draw(&r, var, user), x = conv(t->elem, v);
      /* an input is a value a double holds: -4 as a uint64_t (2^64 - 4)
       * is none, 4 is drawn instead */
      t->data[i] = x == x || !ir_elem_is_int(t->elem) ? x : conv(t->elem, fabs(v));
    }
    memset(t->poison, 0, n ? n : 1);
  }
}

/* An integer in the range of var's kind (interp_fill_random). */
static double draw_int(interp_rng *r, const ir_var *var, void *user) {
  (void)user;
  if (var->kind == IR_VAR_SCALAR) return (double)interp_rng_range(r, INTERP_SCALAR_MIN, INTERP_SCALAR_MAX);
  return (double)interp_rng_range(r, INTERP_ARRAY_MIN, INTERP_ARRAY_MAX);
}

void interp_fill_random(interp_env *env, uint64_t seed) { interp_fill_params(env, seed, draw_int, NULL); }

/* ------------------------------------------------------------------ run */

typedef struct run {
  const ir_kernel *k;
  const interp_prog *P;
  long *ivals;
  ir_tensor *vals;
  const unsigned char *mask;
  int poisoned;       /* > 0 inside an `if` whose condition is poison */
  int failed;
  const cstmt *cur;   /* statement being executed, for errors */
  interp_error *err;
  double deadline;    /* monotonic seconds; 0: none (env->time_limit) */
  double limit;       /* env->time_limit, for the message */
  unsigned long ticks; /* loop iterations, to look at the clock now and then */
} run;

static double mono_seconds(void) { return ir_monotonic_seconds(); }

/* The position of the statement running (the kernel's file if none). */
static ir_pos here(const run *c) { return c->cur ? c->cur->pos : (ir_pos){c->k->file, 0, 0}; }

/* Every 65536 loop iterations: stop the run past its deadline. */
static void tick(run *c, double limit) {
  if (c->deadline <= 0 || (++c->ticks & 0xffff) || mono_seconds() < c->deadline) return;
  c->failed = 1;
  ir_error_set(c->err, here(c), IR_ERR_TIMEOUT,
               "the run took longer than its time limit (%g s) in this loop", limit);
}

static double ev(run *c, int n, int *p);

static void range_error(run *c, int var, const long *idx, int nsub, int bad) {
  if (c->failed) return;
  c->failed = 1;
  const ir_tensor *t = &c->vals[var];
  char ib[120] = "", sb[120] = "";
  size_t a = 0, b = 0;
  for (int d = 0; d < nsub; d++) {
    a += (size_t)snprintf(ib + a, a < sizeof ib ? sizeof ib - a : 0, "[%ld]", idx[d]);
    if (a >= sizeof ib) a = sizeof ib - 1;
  }
  for (int d = 0; d < t->rank; d++) {
    b += (size_t)snprintf(sb + b, b < sizeof sb ? sizeof sb - b : 0, "[%ld]", t->dims[d]);
    if (b >= sizeof sb) b = sizeof sb - 1;
  }
  if (bad < 0)
    ir_error_set(c->err, here(c), IR_ERR_INPUT,
                 "subscript of '%s' depends on an uninitialized value", c->k->vars[var]->name);
  else
    ir_error_set(c->err, here(c), IR_ERR_RANGE,
             "out-of-range subscript in statement S%d: %s%s, but '%s' has "
             "shape %s (the %s subscript must be in 0..%ld)",
             c->cur ? c->cur->id : -1, c->k->vars[var]->name, ib,
             c->k->vars[var]->name, sb, ir_ordinal(bad + 1), t->dims[bad] - 1);
}

/* Row-major offset of the element var[subs...]; -1 after an error. */
static long offset(run *c, int var, int sub, int nsub) {
  const ir_tensor *t = &c->vals[var];
  long idx[IR_MAX_RANK], off = 0;
  int bad = -2;
  for (int d = 0; d < nsub; d++) {
    const lin *L = &c->P->lins[sub + d];
    long i = L->c0;
    if (L->generic >= 0) {
      int p = 0;
      i = (long)ev(c, L->generic, &p);
      if (p && bad == -2) bad = -1;
    } else {
      /* no terms at all (every subscript constant): terms may be NULL */
      for (int j = 0; j < L->nterm; j++) {
        const term *tm = &c->P->terms[L->first + j];
        i += tm->coef * c->ivals[tm->var];
      }
    }
    idx[d] = i;
    if (bad == -2 && (d >= t->rank || i < 0 || i >= t->dims[d])) bad = d;
    if (d < t->rank) off = off * t->dims[d] + i;
  }
  if (bad == -2 && nsub != t->rank) bad = nsub < t->rank ? nsub : t->rank;
  if (bad != -2) {
    range_error(c, var, idx, nsub, bad);
    return -1;
  }
  return off;
}

static double call(ir_fn fn, ir_elem type, double a, double b) {
  if (type == IR_F32) {
    float x = (float)a, y = (float)b;
    switch (fn) {
    case IR_FN_SQRT: return sqrtf(x);
    case IR_FN_EXP: return expf(x);
    case IR_FN_POW: return powf(x, y);
    case IR_FN_FABS: return fabsf(x);
    case IR_FN_FMAX: return interp_c_fmaxmin(x, y, 1); /* exact in float */
    case IR_FN_FMIN: return interp_c_fmaxmin(x, y, 0);
    }
  }
  switch (fn) {
  case IR_FN_SQRT: return sqrt(a);
  case IR_FN_EXP: return exp(a);
  case IR_FN_POW: return pow(a, b);
  case IR_FN_FABS: return fabs(a);
  case IR_FN_FMAX: return interp_c_fmaxmin(a, b, 1);
  case IR_FN_FMIN: return interp_c_fmaxmin(a, b, 0);
  }
  return 0;
}

/* a OP b (+ - * /, or 'n': -a) in integer type `type` as C computes it:
 * unsigned (and narrow) arithmetic wraps; a signed overflow of int or a
 * wider type is undefined behaviour in C, so it has no value: NaN (poison
 * where it lands).  Exact on 64-bit integers; NaN in, NaN out. */
static double int_arith(ir_elem type, int op, double a, double b) {
  if (a != a || b != b) return NAN;
  if (op == '/') {
    if (ir_elem_is_signed(type)) {
      int64_t x = (int64_t)a, y = (int64_t)b;
      if (y == -1) return int_arith(type, 'n', a, 0); /* INT_MIN / -1 overflows */
      return ir_int_value(type, (uint64_t)(x / y));
    }
    return ir_int_value(type, (uint64_t)a / (uint64_t)b);
  }
  if (ir_elem_is_signed(type) && ir_elem_bits(type) >= 32) {
    int64_t x = (int64_t)a, y = (int64_t)b, r;
    int ovf = op == '+'   ? __builtin_add_overflow(x, y, &r)
              : op == '-' ? __builtin_sub_overflow(x, y, &r)
              : op == '*' ? __builtin_mul_overflow(x, y, &r)
                          : __builtin_sub_overflow((int64_t)0, x, &r);
    if (ovf || (ir_elem_bits(type) == 32 && (r < INT32_MIN || r > INT32_MAX))) return NAN;
  }
  return ir_int_arith(type, op, a, b);
}

/* a OP b computed in `type` as C does. */
static double arith(run *c, ir_expr_kind op, ir_elem type, double a, double b) {
  double r;
  if (ir_elem_is_int(type)) {
    if (op == IR_EX_DIV && b == 0) {
      if (!c->failed) {
        c->failed = 1;
        ir_error_set(c->err, here(c), IR_ERR_RANGE, "integer division by zero in statement S%d",
                     c->cur ? c->cur->id : -1);
      }
      return 0;
    }
    return int_arith(type, op == IR_EX_ADD ? '+' : op == IR_EX_SUB ? '-' : op == IR_EX_MUL ? '*' : '/',
                     a, b);
  }
  switch (op) {
  case IR_EX_ADD: r = a + b; break;
  case IR_EX_SUB: r = a - b; break;
  case IR_EX_MUL: r = a * b; break;
  case IR_EX_DIV: r = a / b; break;
  default: r = 0; break;
  }
  return type == IR_F32 ? (double)(float)r : r;
}

static double ev(run *c, int n, int *p);

/* The value of node n (ev without the integer NaN check). */
static double ev_node(run *c, int n, int *p) {
  const node *x = &c->P->nodes[n];
  switch (x->kind) {
  case IR_EX_CONST: return conv(x->type, x->value);
  case IR_EX_VAR: {
    ir_var_kind vk = c->k->vars[x->var]->kind;
    if (vk == IR_VAR_SIZE || vk == IR_VAR_ITER) return (double)c->ivals[x->var];
    const ir_tensor *t = &c->vals[x->var];
    *p |= t->poison[0];
    return t->data[0];
  }
  case IR_EX_ELEM: {
    long off = offset(c, x->var, x->sub, x->nargs);
    if (off < 0) {
      *p = 1;
      return 0;
    }
    const ir_tensor *t = &c->vals[x->var];
    *p |= t->poison[off];
    return t->data[off];
  }
  case IR_EX_NEG: {
    double a = ev(c, x->a[0], p);
    if (ir_elem_is_int(x->type)) return int_arith(x->type, 'n', a, 0);
    return x->type == IR_F32 ? (double)(float)-a : -a;
  }
  case IR_EX_SHL:
  case IR_EX_SHR: {
    double a = ev(c, x->a[0], p);
    double b = ev(c, x->a[1], p);
    int op = x->kind == IR_EX_SHL ? 'l' : ir_elem_is_signed(x->type) ? 'a' : 'r';
    /* undefined in C: a count outside 0..bits-1, a signed left shift of
     * a negative value or one whose result does not fit (C11 6.5.7) */
    int w = ir_elem_bits(x->type);
    if (b < 0 || b >= w) return NAN;
    if (op == 'l' && ir_elem_is_signed(x->type) &&
        (a < 0 || ldexp(a, (int)b) >= ldexp(1, w - 1)))
      return NAN;
    return ir_int_arith(x->type, op, a, b);
  }
  case IR_EX_NOT: return ev(c, x->a[0], p) == 0;
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL:
  case IR_EX_DIV: {
    double a = ev(c, x->a[0], p);
    double b = ev(c, x->a[1], p);
    return arith(c, x->kind, x->type, a, b);
  }
  case IR_EX_LT: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a < b; }
  case IR_EX_LE: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a <= b; }
  case IR_EX_GT: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a > b; }
  case IR_EX_GE: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a >= b; }
  case IR_EX_EQ: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a == b; }
  case IR_EX_NE: { double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p); return a != b; }
  case IR_EX_AND:
  case IR_EX_OR: {
    int pa = 0;
    double a = ev(c, x->a[0], &pa);
    if (pa) {
      *p |= pa;
      return 0;
    }
    if (x->kind == IR_EX_AND ? a == 0 : a != 0) return x->kind == IR_EX_OR;
    return ev(c, x->a[1], p) != 0;
  }
  case IR_EX_SELECT: {
    int pc = 0;
    double cond = ev(c, x->a[0], &pc);
    if (pc) {
      *p |= pc;
      return 0;
    }
    return conv(x->type, ev(c, x->a[cond != 0 ? 1 : 2], p));
  }
  case IR_EX_CALL: {
    double a = x->nargs > 0 ? ev(c, x->a[0], p) : 0;
    double b = x->nargs > 1 ? ev(c, x->a[1], p) : 0;
    return call(x->fn, x->type, a, b);
  }
  case IR_EX_CAST: return conv(x->type, ev(c, x->a[0], p));
  case IR_EX_IMIN: {
    double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p);
    return a < b ? a : b;
  }
  case IR_EX_IMAX: {
    double a = ev(c, x->a[0], p), b = ev(c, x->a[1], p);
    return a > b ? a : b;
  }
  }
  return 0;
}

/* The value of node n and its poison bits (*p or'ed, never cleared): an
 * integer value that is NaN (undefined in C, or one no double holds: see
 * ir_elem_wrap) is poison INTERP_POISON_UNDEF. */
static double ev(run *c, int n, int *p) {
  double r = ev_node(c, n, p);
  if (r != r && ir_elem_is_int(c->P->nodes[n].type)) *p |= INTERP_POISON_UNDEF;
  return r;
}

static void assign(run *c, const cstmt *s) {
  int p = c->poisoned > 0;
  double r = ev(c, s->rhs, &p);
  long off = s->nsub ? offset(c, s->var, s->sub, s->nsub) : 0;
  if (c->failed) return;
  ir_tensor *t = &c->vals[s->var];
  if (s->op != IR_ASSIGN) {
    static const ir_expr_kind ops[] = {
        [IR_ASSIGN_ADD] = IR_EX_ADD, [IR_ASSIGN_SUB] = IR_EX_SUB,
        [IR_ASSIGN_MUL] = IR_EX_MUL, [IR_ASSIGN_DIV] = IR_EX_DIV};
    p |= t->poison[off];
    r = arith(c, ops[s->op], s->calc, conv(s->calc, t->data[off]),
              conv(s->calc, r));
  }
  t->data[off] = conv(t->elem, r);
  if (t->data[off] != t->data[off] && ir_elem_is_int(t->elem)) p |= INTERP_POISON_UNDEF;
  t->poison[off] = (unsigned char)p;
}

static int active(const run *c, const cstmt *s) {
  if (!c->mask) return 1;
  if (s->first > s->last) return 0;
  return c->P->prefix[s->last + 1] - c->P->prefix[s->first] > 0;
}

static void exec(run *c, int si) {
  while (si >= 0 && !c->failed) {
    const cstmt *s = &c->P->stmts[si];
    si = s->next;
    if (!active(c, s)) continue;
    c->cur = s;
    switch (s->kind) {
    case IR_ST_FOR: {
      int p = 0;
      long lo = (long)ev(c, s->lo, &p), hi = (long)ev(c, s->hi, &p);
      if (c->failed) return;
      if (s->step >= 0)
        for (long i = lo; i <= hi && !c->failed; i++) {
          c->ivals[s->iter] = i;
          exec(c, s->body);
          c->cur = s;
          tick(c, c->limit);
        }
      else
        for (long i = hi; i >= lo && !c->failed; i--) {
          c->ivals[s->iter] = i;
          exec(c, s->body);
          c->cur = s;
          tick(c, c->limit);
        }
      break;
    }
    case IR_ST_IF: {
      int p = 0;
      double v = ev(c, s->cond, &p);
      if (c->failed) return;
      if (p) {
        c->poisoned++;
        exec(c, s->then_body);
        exec(c, s->else_body);
        c->poisoned--;
      } else {
        exec(c, v != 0 ? s->then_body : s->else_body);
      }
      break;
    }
    case IR_ST_ASSIGN: assign(c, s); break;
    }
  }
}

int interp_run(interp_env *env, const unsigned char *mask, interp_error *err) {
  const ir_kernel *k = env->k;
  interp_error dummy;
  run c = {k, env->prog, env->ivals, env->vals, mask, 0, 0, NULL,
           err ? err : &dummy, 0, 0, 0};
  ir_error_clear(c.err);
  if (env->time_limit > 0) {
    c.limit = env->time_limit;
    c.deadline = mono_seconds() + env->time_limit;
  }
  if (mask) {
    int *pre = env->prog->prefix;
    pre[0] = 0;
    for (int i = 0; i < k->nassign; i++) pre[i + 1] = pre[i] + (mask[i] != 0);
  }
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) env->ivals[v] = env->sizes[v];
  exec(&c, env->prog->root);
  return c.failed ? -1 : 0;
}


/* ------------------------------------------------------- written vars */

typedef struct written_ctx {
  const unsigned char *mask;
  unsigned char *written;
} written_ctx;

static int mark_written(const ir_stmt *a, const ir_stmt *const *loops, int depth,
                        void *user) {
  (void)loops;
  (void)depth;
  written_ctx *w = user;
  if (!w->mask || w->mask[a->id]) w->written[a->lhs->var] = 1;
  return 0;
}

void interp_written_vars(const ir_kernel *k, const unsigned char *mask,
                         unsigned char *written) {
  memset(written, 0, (size_t)k->nvars);
  written_ctx w = {mask, written};
  ir_kernel_walk_assigns(k, mark_written, &w);
}
