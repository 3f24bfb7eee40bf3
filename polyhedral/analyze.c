/*
 * analyze.c - the polyhedral analysis proper (polyhedral.h).
 *
 * How: walk the loop program once and write, per assignment statement, its
 * iteration domain, its 2d+1 schedule and its access relations as isl text
 * (sizes become parameters P<id>, iterators I<id>, variables V<id>, scalars
 * 0-d arrays, statement S<id>, the n-th read of statement S<id> R<id>_<n>),
 * and let isl parse them.  isl then computes
 *   - value-based flow dependences (isl_union_access_info_compute_flow), one
 *     sink per read so that every dependence knows which read it feeds;
 *   - memory-based anti and output dependences (access pairs ordered by the
 *     schedule), which a loop distribution run in shared memory must respect;
 *   - for every dependence, the loop that carries it.
 * From these: reductions (self flow dependences through the accumulator
 * only), cycles between statements of the flow graph (not raisable), tasks
 * (strongly connected components of the graph of all dependences, in
 * topological order), their inputs, outputs and read/written regions.
 *
 * A local scalar or array whose accesses fall in several tasks is expanded
 * over its enclosing loops (expand.c) and the copy is analysed again.
 *
 * Every isl object lives in a `pass` and is freed with the isl_ctx at the
 * end of the pass; the result is copied into the caller's arena.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/flow.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include "polyhedral/affine.h"
#include "polyhedral/expand.h"
#include "polyhedral/keep.h"
#include "polyhedral/polyhedral.h"

#define MAXDEPTH 32

/* ---------------------------------------------------------- string builder */

/* ir/'s growable string (ir_buf), under this file's short names. */
typedef ir_buf sb;
#define sb_add ir_buf_printf
#define sb_str ir_buf_str
#define sb_reset ir_buf_reset
#define sb_free ir_buf_free

/* ---------------------------------------------------- affine expressions */

/* Write e, affine in sizes and iterators, as isl text; -1 if not affine. */
static int aff(const ir_kernel *k, const ir_expr *e, sb *b) {
  long v;
  if (ir_expr_const_int(e, &v)) {
    sb_add(b, "%ld", v);
    return 0;
  }
  switch (e->kind) {
  case IR_EX_VAR:
    if (k->vars[e->var]->kind == IR_VAR_SIZE) sb_add(b, "P%d", e->var);
    else if (k->vars[e->var]->kind == IR_VAR_ITER) sb_add(b, "I%d", e->var);
    else return -1;
    return 0;
  case IR_EX_CAST: return aff(k, e->args[0], b);
  case IR_EX_NEG:
    sb_add(b, "(0 - ");
    if (aff(k, e->args[0], b)) return -1;
    sb_add(b, ")");
    return 0;
  case IR_EX_ADD:
  case IR_EX_SUB:
    sb_add(b, "(");
    if (aff(k, e->args[0], b)) return -1;
    sb_add(b, e->kind == IR_EX_ADD ? " + " : " - ");
    if (aff(k, e->args[1], b)) return -1;
    sb_add(b, ")");
    return 0;
  case IR_EX_MUL: {
    int c = ir_expr_const_int(e->args[0], &v) ? 0 : ir_expr_const_int(e->args[1], &v) ? 1 : -1;
    if (c < 0) return -1;
    sb_add(b, "%ld*(", v);
    if (aff(k, e->args[1 - c], b)) return -1;
    sb_add(b, ")");
    return 0;
  }
  default: return -1;
  }
}

/* The kept assumptions of k (ir_assume.kept: an enclosing kept loop's
 * bounds on its iterator, a size of this body) as isl text appended to b
 * ("lo <= hi" for each leaf of lo's max tree and of hi's min tree), each
 * after " and " when b is not empty.  The body only ever runs where they
 * hold, so its dependences and size cases are those under them (the
 * verifier checks there too, verify/verify.c).  -1 if one is not affine. */
static int kept_leaves(const ir_kernel *k, const ir_expr *lo, const ir_expr *hi, sb *b) {
  if (lo->kind == IR_EX_IMAX)
    return kept_leaves(k, lo->args[0], hi, b) || kept_leaves(k, lo->args[1], hi, b);
  if (hi->kind == IR_EX_IMIN)
    return kept_leaves(k, lo, hi->args[0], b) || kept_leaves(k, lo, hi->args[1], b);
  sb_add(b, "%s", b->n ? " and " : "");
  if (aff(k, lo, b)) return -1;
  sb_add(b, " <= ");
  return aff(k, hi, b);
}

static int kept_context(const ir_kernel *k, sb *b) {
  for (int i = 0; i < k->nassumes; i++)
    if (k->assumes[i].kept && kept_leaves(k, k->assumes[i].lo, k->assumes[i].hi, b)) return -1;
  return 0;
}

/* Bounds: lo may be a max tree, hi a min tree; one constraint per leaf. */
static int bound(const ir_kernel *k, const ir_expr *e, int iter, int lower,
                 sb *b) {
  if (e->kind == (lower ? IR_EX_IMAX : IR_EX_IMIN))
    return bound(k, e->args[0], iter, lower, b) ||
           bound(k, e->args[1], iter, lower, b);
  sb_add(b, "%sI%d %s ", b->n ? " and " : "", iter, lower ? ">=" : "<=");
  return aff(k, e, b);
}

/* An affine condition (negated if neg) as isl text; -1 if data-dependent. */
static int cond(const ir_kernel *k, const ir_expr *e, int neg, sb *b) {
  switch (e->kind) {
  case IR_EX_NOT: return cond(k, e->args[0], !neg, b);
  case IR_EX_AND:
  case IR_EX_OR: {
    int conj = (e->kind == IR_EX_AND) != neg;
    sb_add(b, "(");
    if (cond(k, e->args[0], neg, b)) return -1;
    sb_add(b, conj ? " and " : " or ");
    if (cond(k, e->args[1], neg, b)) return -1;
    sb_add(b, ")");
    return 0;
  }
  case IR_EX_LT: case IR_EX_LE: case IR_EX_GT:
  case IR_EX_GE: case IR_EX_EQ: case IR_EX_NE: {
    ir_expr_kind op = e->kind;
    if (neg)
      op = op == IR_EX_LT ? IR_EX_GE : op == IR_EX_LE ? IR_EX_GT
         : op == IR_EX_GT ? IR_EX_LE : op == IR_EX_GE ? IR_EX_LT
         : op == IR_EX_EQ ? IR_EX_NE : IR_EX_EQ;
    sb l = {0}, r = {0};
    int bad = aff(k, e->args[0], &l) || aff(k, e->args[1], &r);
    if (!bad) {
      if (op == IR_EX_NE)
        sb_add(b, "(%s < %s or %s > %s)", sb_str(&l), sb_str(&r), sb_str(&l), sb_str(&r));
      else
        sb_add(b, "%s %s %s", sb_str(&l),
               op == IR_EX_LT ? "<" : op == IR_EX_LE ? "<=" : op == IR_EX_GT ? ">"
               : op == IR_EX_GE ? ">=" : "=", sb_str(&r));
    }
    sb_free(&l);
    sb_free(&r);
    return bad ? -1 : 0;
  }
  default: return -1;
  }
}

/* ----------------------------------------------------- expression helpers */

static int expr_equal(const ir_expr *a, const ir_expr *b) { return ir_expr_equal(a, b); }

static int expr_contains(const ir_expr *e, const ir_expr *x) {
  if (expr_equal(e, x)) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (expr_contains(e->args[i], x)) return 1;
  return 0;
}

static int expr_uses_var(const ir_expr *e, int var) {
  if ((e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == var) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (expr_uses_var(e->args[i], var)) return 1;
  return 0;
}

static unsigned expr_ops(const ir_expr *e) {
  unsigned o = 0;
  switch (e->kind) {
  case IR_EX_ADD: o = POLY_OP_ADD; break;
  case IR_EX_SUB: o = POLY_OP_SUB; break;
  case IR_EX_MUL: o = POLY_OP_MUL; break;
  case IR_EX_DIV: o = POLY_OP_DIV; break;
  case IR_EX_NEG: o = POLY_OP_NEG; break;
  case IR_EX_LT: case IR_EX_LE: case IR_EX_GT:
  case IR_EX_GE: case IR_EX_EQ: case IR_EX_NE: o = POLY_OP_CMP; break;
  case IR_EX_AND: case IR_EX_OR: case IR_EX_NOT: o = POLY_OP_LOGIC; break;
  case IR_EX_SELECT: o = POLY_OP_SELECT; break;
  case IR_EX_SHL: o = POLY_OP_SHL; break;
  case IR_EX_SHR: o = POLY_OP_SHR; break;
  case IR_EX_CAST: o = poly_cast_converts(e) ? POLY_OP_CONVERT : 0; break;
  case IR_EX_CALL:
    switch (e->fn) {
    case IR_FN_SQRT: o = POLY_OP_SQRT; break;
    case IR_FN_EXP: o = POLY_OP_EXP; break;
    case IR_FN_POW: o = POLY_OP_POW; break;
    case IR_FN_FABS: o = POLY_OP_ABS; break;
    /* C's fmax/fmin skip a NaN operand, which maximum/minimum do not:
     * their exact programs compare (isnan is x != x) and select */
    case IR_FN_FMAX: o = POLY_OP_MAX | POLY_OP_CMP; break;
    case IR_FN_FMIN: o = POLY_OP_MIN | POLY_OP_CMP; break;
    }
    break;
  case IR_EX_ELEM: return 0; /* subscripts are index arithmetic */
  default: break;
  }
  for (int i = 0; i < e->nargs; i++) o |= expr_ops(e->args[i]);
  return o;
}

/* ---- issue 14's stencil hint ----
 * Does e read an element at a subscript `i + c` or `i - c` (c a nonzero
 * integer literal, i an iterator the write w subscripts with)?  A
 * stencil's shifted read, for which the pad ops (and, with a product and
 * a sum, the convolutions) are worth trying (POLY_OP_SHIFTED). */
static int shifted_read(const ir_kernel *k, const ir_expr *e, const ir_expr *w) {
  for (int d = 0; e->kind == IR_EX_ELEM && d < e->nargs; d++) {
    const ir_expr *x = e->args[d];
    if (x->kind != IR_EX_ADD && x->kind != IR_EX_SUB) continue;
    const ir_expr *v = x->args[0], *c = x->args[1];
    if (x->kind == IR_EX_ADD && v->kind == IR_EX_CONST) v = x->args[1], c = x->args[0];
    if (v->kind == IR_EX_VAR && k->vars[v->var]->kind == IR_VAR_ITER &&
        c->kind == IR_EX_CONST && c->is_int && c->value != 0 && expr_uses_var(w, v->var))
      return 1;
  }
  for (int i = 0; i < e->nargs; i++)
    if (shifted_read(k, e->args[i], w)) return 1;
  return 0;
}
/* ---- end ---- */

/* ---- reversed reads: POLY_OP_REVERSE when e reads an array at a
 * subscript in which a loop iterator has a negative coefficient
 * (x[n - 1 - i], durbin's r[k - i - 1]): the subscript at that iterator 1
 * less than at every var 0, for a subscript of integer arithmetic (an
 * affine one; anything else, a data subscript, is left to the checks of
 * the accesses). */
static int int_arith(const ir_expr *e) {
  switch (e->kind) {
  case IR_EX_CONST: case IR_EX_VAR: case IR_EX_NEG: case IR_EX_ADD: case IR_EX_SUB:
  case IR_EX_MUL: case IR_EX_CAST: case IR_EX_IMIN: case IR_EX_IMAX: break;
  default: return 0;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!int_arith(e->args[i])) return 0;
  return 1;
}

static unsigned reversed_reads(const ir_kernel *k, const ir_expr *e, long *vals) {
  unsigned o = 0;
  if (e->kind == IR_EX_ELEM)
    for (int s = 0; s < e->nargs && !o; s++) {
      if (!int_arith(e->args[s])) continue;
      long at0 = ir_expr_eval_int(e->args[s], vals);
      for (int v = 0; v < k->nvars && !o; v++) {
        if (k->vars[v]->kind != IR_VAR_ITER || !ir_expr_reads(e->args[s], v)) continue;
        vals[v] = 1;
        o = ir_expr_eval_int(e->args[s], vals) < at0 ? POLY_OP_REVERSE : 0;
        vals[v] = 0;
      }
    }
  for (int i = 0; i < e->nargs && !o; i++) o |= reversed_reads(k, e->args[i], vals);
  return o;
}

static unsigned expr_reversed_reads(const ir_kernel *k, const ir_expr *e) {
  long *vals = ir_calloc((size_t)k->nvars + 1, sizeof *vals);
  unsigned o = reversed_reads(k, e, vals);
  ir_free(vals);
  return o;
}
/* ---- end reversed reads */

/* The reduction operator of `lhs op= rhs`, if it is one: the accumulator
 * (lhs) appears exactly in the reduction position and nowhere else. */
static poly_red_op red_op(const ir_stmt *s) {
  const ir_expr *x = s->lhs, *r = s->rhs;
  switch (s->op) {
  case IR_ASSIGN_ADD: case IR_ASSIGN_SUB:
    return expr_contains(r, x) ? POLY_RED_NONE : POLY_RED_ADD;
  case IR_ASSIGN_MUL: case IR_ASSIGN_DIV:
    return expr_contains(r, x) ? POLY_RED_NONE : POLY_RED_MUL;
  case IR_ASSIGN: break;
  }
  const ir_expr *a = r->nargs > 0 ? r->args[0] : NULL;
  const ir_expr *b = r->nargs > 1 ? r->args[1] : NULL;
  switch (r->kind) {
  case IR_EX_ADD: case IR_EX_MUL: {
    poly_red_op op = r->kind == IR_EX_ADD ? POLY_RED_ADD : POLY_RED_MUL;
    if (expr_equal(a, x) && !expr_contains(b, x)) return op;
    if (expr_equal(b, x) && !expr_contains(a, x)) return op;
    return POLY_RED_NONE;
  }
  case IR_EX_SUB: case IR_EX_DIV:
    if (expr_equal(a, x) && !expr_contains(b, x))
      return r->kind == IR_EX_SUB ? POLY_RED_ADD : POLY_RED_MUL;
    return POLY_RED_NONE;
  case IR_EX_CALL:
    if ((r->fn == IR_FN_FMAX || r->fn == IR_FN_FMIN) &&
        ((expr_equal(a, x) && !expr_contains(b, x)) ||
         (expr_equal(b, x) && !expr_contains(a, x))))
      return r->fn == IR_FN_FMAX ? POLY_RED_MAX : POLY_RED_MIN;
    return POLY_RED_NONE;
  case IR_EX_SELECT: {
    const ir_expr *c = r->args[0], *t = r->args[1], *f = r->args[2];
    if (c->kind != IR_EX_LT && c->kind != IR_EX_LE && c->kind != IR_EX_GT &&
        c->kind != IR_EX_GE)
      return POLY_RED_NONE;
    int gt = c->kind == IR_EX_GT || c->kind == IR_EX_GE;
    const ir_expr *cx = c->args[0], *ce = c->args[1];
    if (expr_equal(ce, x)) { /* e > x is x < e */
      const ir_expr *tmp = cx;
      cx = ce;
      ce = tmp;
      gt = !gt;
    }
    if (!expr_equal(cx, x) || expr_contains(ce, x)) return POLY_RED_NONE;
    /* cond is x > e (gt) or x < e: the max picks x when x > e. */
    if (expr_equal(t, x) && expr_equal(f, ce)) return gt ? POLY_RED_MAX : POLY_RED_MIN;
    if (expr_equal(f, x) && expr_equal(t, ce)) return gt ? POLY_RED_MIN : POLY_RED_MAX;
    return POLY_RED_NONE;
  }
  default: return POLY_RED_NONE;
  }
}

/* ------------------------------------------------------------ pass state */

typedef struct rd {       /* one read access of a statement */
  int var;
  const ir_expr *e;       /* the IR_EX_VAR/IR_EX_ELEM read; lhs if implicit */
  int acc;                /* the accumulator: same element as the lhs */
  isl_map *map;           /* S<id>[..] -> V<var>[..], domain applied */
  int nosrc;              /* some instance reads a value with no writer */
} rd;

typedef struct st {       /* one assignment statement */
  const ir_stmt *s;
  int depth;
  const ir_stmt *loops[MAXDEPTH];
  int lpos[MAXDEPTH + 1]; /* schedule positions: per loop level, then own */
  int guarded;
  int prelude;            /* a local scalar set to a constant outside loops */
  isl_set *dom;
  isl_map *write;         /* S<id>[..] -> V<var>[..] */
  int nreads;
  rd *reads;
  unsigned ops;
  poly_red_op red;
} st;

typedef struct fdep {     /* a value-based flow dependence into one read */
  int a, b, n;            /* source stmt, sink stmt, read index of b */
  isl_map *map;           /* S<a>[..] -> S<b>[..] */
} fdep;

typedef struct mdep {     /* an aggregated dependence (a, b, var, kind) */
  poly_dep_kind kind;
  int a, b, var;
  isl_map *map;
} mdep;

typedef struct carried {  /* a local whose value crosses loop iterations */
  int var, iter;          /* the local, the loop (iterator) carrying it */
  const ir_stmt *reader;  /* the statement reading a value carried in */
} carried;

typedef struct pass {
  const ir_kernel *k;
  ir_arena *arena;
  isl_ctx *ctx;
  sb params;              /* "[P0, P1]" */
  int maxdepth;
  int n;                  /* nassign */
  st *sts;
  int nf, capf;
  fdep *fd;
  int nm, capm;
  mdep *md;
  ir_error err;           /* the first failure (code IR_ERR_NONE: none) */
  int *mhash, nmhash;     /* md index + 1 by (kind, a, b, var); 0: free */
  sb why;                 /* the reasons it is not raisable, "; "-joined */
  unsigned char *fadj, *madj; /* flow / all dependences, n x n */
  int *fcomp, *mcomp;     /* their strongly connected components */
  int nfc, nmc;
  int ncarried;           /* locals carrying values: not raisable */
  carried *carried;
  /* the walk */
  const ir_stmt *loops[MAXDEPTH];
  int lpos[MAXDEPTH + 1];
  int pos[MAXDEPTH + 1];
  int depth;
  sb conds;               /* affine constraints of enclosing ifs */
  int ndata;              /* enclosing data-dependent ifs */
  const ir_expr *data[MAXDEPTH];
} pass;

/* Record the pass's first failure (ir_error convention; later ones are
 * dropped): at pos in the user's source, or nowhere (internal failures). */
static void fail(pass *p, ir_pos pos, ir_err_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(pass *p, ir_pos pos, ir_err_code code, const char *fmt, ...) {
  if (p->err.code) return;
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(&p->err, pos, code, fmt, ap);
  va_end(ap);
}

/* Where statement-level position pos is, with the kernel's file when the
 * position names none. */
static ir_pos at(const pass *p, ir_pos pos) {
  if (!pos.file) pos.file = p->k->file;
  return pos;
}

static const ir_pos nowhere = {0};

static const char *vname(const pass *p, int v) { return p->k->vars[v]->name; }

/* Isl text of the access e (IR_EX_VAR or IR_EX_ELEM) from statement S<id>
 * with iterators in tuple; -1 when a subscript is not affine. */
static int access_str(pass *p, const st *s, const char *tuple, const ir_expr *e,
                      sb *b) {
  sb_add(b, "%s -> { %s -> V%d[", sb_str(&p->params), tuple, e->var);
  if (e->kind == IR_EX_ELEM)
    for (int i = 0; i < e->nargs; i++) {
      if (i) sb_add(b, ", ");
      if (aff(p->k, e->args[i], b)) {
        ir_pos pos = {s->s->pos.file, e->pos.line, e->pos.col};
        fail(p, at(p, pos), IR_ERR_INPUT,
             "the %s subscript of %s is not affine in the loop iterators and size parameters",
             ir_ordinal(i + 1),
             vname(p, e->var));
        return -1;
      }
    }
  sb_add(b, "] }");
  return 0;
}

static isl_map *read_map(pass *p, const char *text) {
  isl_map *m = isl_map_read_from_str(p->ctx, text);
  if (!m) fail(p, nowhere, IR_ERR_INTERNAL, "internal: isl rejected '%s'", text);
  return m;
}

static void tuple_of(const st *s, const char *name, sb *b) {
  sb_add(b, "%s[", name);
  for (int d = 0; d < s->depth; d++)
    sb_add(b, "%sI%d", d ? ", " : "", s->loops[d]->iter);
  sb_add(b, "]");
}

static void add_read(pass *p, st *s, const ir_expr *e, int implicit) {
  s->reads = ir_realloc(s->reads, sizeof(rd) * (size_t)(s->nreads + 1));
  rd *r = &s->reads[s->nreads++];
  memset(r, 0, sizeof *r);
  r->var = e->var;
  r->e = e;
  r->acc = implicit || expr_equal(e, s->s->lhs);
  sb t = {0}, a = {0};
  tuple_of(s, ir_arena_printf(p->arena, "S%d", s->s->id), &t);
  if (access_str(p, s, sb_str(&t), e, &a) == 0) {
    r->map = read_map(p, sb_str(&a));
    if (r->map) r->map = isl_map_intersect_domain(r->map, isl_set_copy(s->dom));
  }
  sb_free(&t);
  sb_free(&a);
}

static void collect_reads(pass *p, st *s, const ir_expr *e) {
  if (e->kind == IR_EX_ELEM) {
    add_read(p, s, e, 0);
    return;
  }
  if (e->kind == IR_EX_VAR) {
    ir_var_kind vk = p->k->vars[e->var]->kind;
    if (vk != IR_VAR_SIZE && vk != IR_VAR_ITER) add_read(p, s, e, 0);
    return;
  }
  for (int i = 0; i < e->nargs; i++) collect_reads(p, s, e->args[i]);
}

static int is_const_rhs(const ir_expr *e) {
  if (e->kind == IR_EX_CONST) return 1;
  if (e->kind == IR_EX_NEG || e->kind == IR_EX_CAST) return is_const_rhs(e->args[0]);
  return 0;
}

static void add_stmt(pass *p, const ir_stmt *s) {
  if (s->id < 0 || s->id >= p->n || p->sts[s->id].s) {
    fail(p, nowhere, IR_ERR_INTERNAL, "internal: assignment ids are not 0..%d", p->n - 1);
    return;
  }
  st *t = &p->sts[s->id];
  t->s = s;
  t->depth = p->depth;
  memcpy(t->loops, p->loops, sizeof(p->loops[0]) * (size_t)p->depth);
  memcpy(t->lpos, p->lpos, sizeof(int) * (size_t)p->depth);
  t->lpos[p->depth] = p->pos[p->depth] - 1;
  t->guarded = p->ndata > 0;
  if (p->depth > p->maxdepth) p->maxdepth = p->depth;

  sb b = {0}, c = {0};
  for (int d = 0; d < p->depth; d++) {
    const ir_stmt *l = p->loops[d];
    if (bound(p->k, l->lo, l->iter, 1, &c) || bound(p->k, l->hi, l->iter, 0, &c)) {
      fail(p, at(p, l->pos), IR_ERR_INPUT,
           "the bounds of the loop over %s are not affine in the enclosing iterators and size "
           "parameters",
           vname(p, l->iter));
      break;
    }
  }
  if (p->conds.n) sb_add(&c, "%s%s", c.n ? " and " : "", sb_str(&p->conds));
  sb_add(&b, "%s -> { ", sb_str(&p->params));
  tuple_of(t, ir_arena_printf(p->arena, "S%d", s->id), &b);
  if (c.n) sb_add(&b, " : %s", sb_str(&c));
  sb_add(&b, " }");
  if (!p->err.code) {
    t->dom = isl_set_read_from_str(p->ctx, sb_str(&b));
    if (!t->dom) fail(p, nowhere, IR_ERR_INTERNAL, "internal: isl rejected '%s'", sb_str(&b));
  }
  sb_reset(&b);
  if (!p->err.code) {
    sb tu = {0};
    tuple_of(t, ir_arena_printf(p->arena, "S%d", s->id), &tu);
    if (access_str(p, t, sb_str(&tu), s->lhs, &b) == 0) {
      t->write = read_map(p, sb_str(&b));
      if (t->write) t->write = isl_map_intersect_domain(t->write, isl_set_copy(t->dom));
    }
    sb_free(&tu);
  }
  sb_free(&b);
  sb_free(&c);
  if (p->err.code) return;

  /* Reads: the subscript-free scalars and elements of the rhs, the lhs for
   * a compound assignment, and the data conditions around the statement. */
  if (s->op != IR_ASSIGN) add_read(p, t, s->lhs, 1);
  collect_reads(p, t, s->rhs);
  for (int i = 0; i < p->ndata; i++) collect_reads(p, t, p->data[i]);

  t->ops = expr_ops(s->rhs) | expr_reversed_reads(p->k, s->rhs);
  for (int i = 0; i < p->ndata; i++) t->ops |= expr_ops(p->data[i]) | POLY_OP_SELECT;
  static const unsigned compound[] = {0, POLY_OP_ADD, POLY_OP_SUB, POLY_OP_MUL, POLY_OP_DIV};
  t->ops |= compound[s->op];
  if (shifted_read(p->k, s->rhs, s->lhs)) t->ops |= POLY_OP_SHIFTED;
  t->red = red_op(s);
  if (t->red == POLY_RED_MAX && s->rhs->kind == IR_EX_SELECT) t->ops |= POLY_OP_MAX;
  if (t->red == POLY_RED_MIN && s->rhs->kind == IR_EX_SELECT) t->ops |= POLY_OP_MIN;

  const ir_var *lv = p->k->vars[s->lhs->var];
  t->prelude = p->depth == 0 && !t->guarded && s->lhs->kind == IR_EX_VAR &&
               lv->kind == IR_VAR_LOCAL && s->op == IR_ASSIGN && is_const_rhs(s->rhs);
}

static void walk(pass *p, const ir_stmt *s) {
  for (; s && !p->err.code; s = s->next) {
    int at = p->pos[p->depth]++;
    switch (s->kind) {
    case IR_ST_FOR:
      if (p->depth == MAXDEPTH) {
        fail(p, nowhere, IR_ERR_RANGE, "loops nested deeper than %d", MAXDEPTH);
        return;
      }
      p->loops[p->depth] = s;
      p->lpos[p->depth] = at;
      p->depth++;
      p->pos[p->depth] = 0;
      walk(p, s->body);
      p->depth--;
      break;
    case IR_ST_IF: {
      size_t mark = p->conds.n;
      sb c = {0};
      if (cond(p->k, s->cond, 0, &c) == 0) {
        sb_add(&p->conds, "%s%s", mark ? " and " : "", sb_str(&c));
        walk(p, s->then_body);
        p->conds.n = mark;
        p->conds.s[mark] = 0;
        sb_reset(&c);
        if (s->else_body && cond(p->k, s->cond, 1, &c) == 0) {
          sb_add(&p->conds, "%s%s", mark ? " and " : "", sb_str(&c));
          walk(p, s->else_body);
          p->conds.n = mark;
          p->conds.s[mark] = 0;
        }
      } else {
        if (p->ndata == MAXDEPTH) {
          fail(p, nowhere, IR_ERR_RANGE, "conditions nested deeper than %d", MAXDEPTH);
          sb_free(&c);
          return;
        }
        p->data[p->ndata++] = s->cond;
        walk(p, s->then_body);
        walk(p, s->else_body);
        p->ndata--;
      }
      sb_free(&c);
      break;
    }
    case IR_ST_ASSIGN: add_stmt(p, s); break;
    }
  }
}

/* The schedule of statement t under tuple name `name` (S<id> or R<id>_<n>). */
static isl_map *schedule(pass *p, const st *t, const char *name) {
  sb b = {0};
  sb_add(&b, "%s -> { ", sb_str(&p->params));
  tuple_of(t, name, &b);
  sb_add(&b, " -> [");
  for (int d = 0; d < t->depth; d++)
    sb_add(&b, "%d, %sI%d, ", t->lpos[d], t->loops[d]->step < 0 ? "-" : "",
           t->loops[d]->iter);
  sb_add(&b, "%d", t->lpos[t->depth]);
  for (int d = t->depth; d < p->maxdepth; d++) sb_add(&b, ", 0, 0");
  sb_add(&b, "] }");
  isl_map *m = read_map(p, sb_str(&b));
  sb_free(&b);
  return m;
}

/* -------------------------------------------------------- dependences */

static int common_loops(const st *a, const st *b) {
  int c = 0;
  while (c < a->depth && c < b->depth && a->loops[c] == b->loops[c]) c++;
  return c;
}

/* Which common loops carry the dependence m: bit d set if some pair of
 * instances agrees on loops 0..d-1 and differs on loop d.  *indep: some
 * pair agrees on every common loop. */
static unsigned carried_levels(__isl_keep isl_map *m, int ncommon, int *indep) {
  unsigned levels = 0;
  isl_map *eq = isl_map_copy(m);
  for (int d = 0; d < ncommon; d++) {
    isl_map *lt = isl_map_order_lt(isl_map_copy(eq), isl_dim_in, d, isl_dim_out, d);
    isl_map *gt = isl_map_order_gt(isl_map_copy(eq), isl_dim_in, d, isl_dim_out, d);
    if (isl_map_is_empty(lt) == isl_bool_false || isl_map_is_empty(gt) == isl_bool_false)
      levels |= 1u << d;
    isl_map_free(lt);
    isl_map_free(gt);
    eq = isl_map_equate(eq, isl_dim_in, d, isl_dim_out, d);
  }
  *indep = isl_map_is_empty(eq) == isl_bool_false;
  isl_map_free(eq);
  return levels;
}

/* The distance at common loop l of the instances of m carried by it (equal
 * on loops 0..l-1, different on loop l; negative for a downward loop): 1
 * with *v when it is one constant, else 0. */
static int carried_distance(__isl_keep isl_map *m, int l, long *v) {
  isl_map *c = isl_map_copy(m);
  for (int d = 0; d < l; d++) c = isl_map_equate(c, isl_dim_in, d, isl_dim_out, d);
  isl_map *lt = isl_map_order_lt(isl_map_copy(c), isl_dim_in, l, isl_dim_out, l);
  c = isl_map_union(lt, isl_map_order_gt(c, isl_dim_in, l, isl_dim_out, l));
  isl_size nin = isl_map_dim(c, isl_dim_in), nout = isl_map_dim(c, isl_dim_out);
  if (nin < 0 || nout < 0) {
    isl_map_free(c);
    return 0;
  }
  c = isl_map_project_out(c, isl_dim_in, (unsigned)l + 1, (unsigned)(nin - l - 1));
  c = isl_map_project_out(c, isl_dim_in, 0, (unsigned)l);
  c = isl_map_project_out(c, isl_dim_out, (unsigned)l + 1, (unsigned)(nout - l - 1));
  c = isl_map_project_out(c, isl_dim_out, 0, (unsigned)l);
  c = isl_map_reset_tuple_id(c, isl_dim_in);
  c = isl_map_reset_tuple_id(c, isl_dim_out);
  isl_set *delta = isl_map_deltas(c);
  isl_val *val = isl_set_plain_get_val_if_fixed(delta, isl_dim_set, 0);
  int ok = val && isl_val_is_int(val) == isl_bool_true;
  if (ok) *v = isl_val_get_num_si(val);
  isl_val_free(val);
  isl_set_free(delta);
  return ok;
}

static int parse_stmt_name(const char *name, int *n) {
  int id = -1;
  *n = -1;
  if (!name) return -1;
  if (name[0] == 'S') id = atoi(name + 1);
  else if (name[0] == 'R' && sscanf(name, "R%d_%d", &id, n) != 2) return -1;
  return id;
}

typedef struct collect_ctx {
  pass *p;
  int nosrc; /* collecting no-source reads instead of dependences */
} collect_ctx;

/* m with its size parameters where the kernel's kept assumptions hold
 * (kept_context: the enclosing kept loops' bounds on their iterators,
 * sizes of this body).  The body runs nowhere else, so a dependence only
 * outside them is none (lu's inner A[i][j] -= A[i][k] * A[k][j], k < j,
 * reads A[i][j] at k = i only where i < j, and j < i holds).  The
 * dependences are computed for every value of the parameters and each
 * value's on its own, so restricting them afterwards is the same as
 * computing them there; the domains stay whole (the tasks' regions and
 * masks as before). */
static __isl_give isl_map *kept_restrict(pass *p, __isl_take isl_map *m) {
  sb b = {0}, c = {0};
  int bad = kept_context(p->k, &c);
  if (bad || !c.n) {
    if (bad) fail(p, nowhere, IR_ERR_INPUT, "the bounds of an enclosing kept loop are not affine");
    sb_free(&c);
    return m;
  }
  sb_add(&b, "%s -> { : %s }", sb_str(&p->params), sb_str(&c));
  isl_set *ctx = isl_set_read_from_str(p->ctx, sb_str(&b));
  sb_free(&b);
  sb_free(&c);
  return ctx ? isl_map_intersect_params(m, ctx) : m;
}

static isl_stat collect_flow(__isl_take isl_map *m, void *user) {
  collect_ctx *c = user;
  pass *p = c->p;
  m = kept_restrict(p, m);
  int na, nb;
  int a = parse_stmt_name(isl_map_get_tuple_name(m, isl_dim_in), &na);
  int b = parse_stmt_name(isl_map_get_tuple_name(m, c->nosrc ? isl_dim_in : isl_dim_out), &nb);
  if (c->nosrc) {
    if (b >= 0 && b < p->n && nb >= 0 && nb < p->sts[b].nreads &&
        isl_map_is_empty(m) == isl_bool_false)
      p->sts[b].reads[nb].nosrc = 1;
    isl_map_free(m);
    return isl_stat_ok;
  }
  if (a < 0 || a >= p->n || b < 0 || b >= p->n || nb < 0 || nb >= p->sts[b].nreads ||
      isl_map_is_empty(m) != isl_bool_false) {
    isl_map_free(m);
    return isl_stat_ok;
  }
  char name[32];
  snprintf(name, sizeof name, "S%d", b);
  m = isl_map_set_tuple_name(m, isl_dim_out, name);
  if (p->nf == p->capf) {
    p->capf = p->capf ? 2 * p->capf : 32;
    p->fd = ir_realloc(p->fd, sizeof(fdep) * (size_t)p->capf);
  }
  p->fd[p->nf++] = (fdep){a, b, nb, m};
  return isl_stat_ok;
}

/* The slot of (kind, a, b, var) in p->mhash: its entry or the free slot
 * where it goes (open addressing; the table is kept at most half full). */
static int mdep_slot(const pass *p, poly_dep_kind kind, int a, int b, int var) {
  unsigned h = (unsigned)kind * 0x9e3779b1u;
  h = (h ^ (unsigned)a) * 0x85ebca6bu;
  h = (h ^ (unsigned)b) * 0xc2b2ae35u;
  h = (h ^ (unsigned)var) * 0x27d4eb2fu;
  int mask = p->nmhash - 1, i = (int)(h & (unsigned)mask);
  for (;; i = (i + 1) & mask) {
    int e = p->mhash[i];
    if (!e) return i;
    const mdep *d = &p->md[e - 1];
    if (d->kind == kind && d->a == a && d->b == b && d->var == var) return i;
  }
}

/* Add m to the aggregated dependence (kind, a, b, var): a hash table finds
 * it, so n statements with n*n dependences cost n*n, not n^4. */
static void add_mdep(pass *p, poly_dep_kind kind, int a, int b, int var,
                     __isl_take isl_map *m) {
  if (2 * (p->nm + 1) > p->nmhash) { /* grow and rehash */
    p->nmhash = p->nmhash ? 2 * p->nmhash : 64;
    ir_free(p->mhash);
    p->mhash = ir_calloc((size_t)p->nmhash, sizeof(int));
    for (int i = 0; i < p->nm; i++) {
      const mdep *d = &p->md[i];
      p->mhash[mdep_slot(p, d->kind, d->a, d->b, d->var)] = i + 1;
    }
  }
  int slot = mdep_slot(p, kind, a, b, var);
  if (p->mhash[slot]) {
    mdep *d = &p->md[p->mhash[slot] - 1];
    d->map = isl_map_union(d->map, m);
    return;
  }
  if (p->nm == p->capm) {
    p->capm = p->capm ? 2 * p->capm : 32;
    p->md = ir_realloc(p->md, sizeof(mdep) * (size_t)p->capm);
  }
  p->md[p->nm++] = (mdep){kind, a, b, var, m};
  p->mhash[slot] = p->nm;
}

typedef struct mem_ctx {
  pass *p;
  poly_dep_kind kind;
  int var;
} mem_ctx;

static isl_stat collect_mem(__isl_take isl_map *m, void *user) {
  mem_ctx *c = user;
  m = kept_restrict(c->p, m);
  int n;
  int a = parse_stmt_name(isl_map_get_tuple_name(m, isl_dim_in), &n);
  int b = parse_stmt_name(isl_map_get_tuple_name(m, isl_dim_out), &n);
  if (a < 0 || b < 0 || a >= c->p->n || b >= c->p->n ||
      isl_map_is_empty(m) != isl_bool_false) {
    isl_map_free(m);
    return isl_stat_ok;
  }
  add_mdep(c->p, c->kind, a, b, c->var, m);
  return isl_stat_ok;
}

/* Value-based flow dependences, one sink per read. */
static void flow_deps(pass *p) {
  isl_space *sp = isl_set_get_space(p->sts[0].dom);
  isl_union_map *sink = isl_union_map_empty(isl_space_params(isl_space_copy(sp)));
  isl_union_map *must = isl_union_map_empty(isl_space_params(isl_space_copy(sp)));
  isl_union_map *may = isl_union_map_empty(isl_space_params(isl_space_copy(sp)));
  isl_union_map *sched = isl_union_map_empty(isl_space_params(sp));
  for (int i = 0; i < p->n; i++) {
    st *t = &p->sts[i];
    char name[48];
    snprintf(name, sizeof name, "S%d", i);
    sched = isl_union_map_add_map(sched, schedule(p, t, name));
    if (t->guarded) may = isl_union_map_add_map(may, isl_map_copy(t->write));
    else must = isl_union_map_add_map(must, isl_map_copy(t->write));
    for (int r = 0; r < t->nreads; r++) {
      snprintf(name, sizeof name, "R%d_%d", i, r);
      isl_map *m = isl_map_set_tuple_name(isl_map_copy(t->reads[r].map), isl_dim_in, name);
      sink = isl_union_map_add_map(sink, m);
      sched = isl_union_map_add_map(sched, schedule(p, t, name));
    }
  }
  isl_union_access_info *ai = isl_union_access_info_from_sink(sink);
  ai = isl_union_access_info_set_must_source(ai, must);
  ai = isl_union_access_info_set_may_source(ai, may);
  ai = isl_union_access_info_set_schedule_map(ai, sched);
  isl_union_flow *flow = isl_union_access_info_compute_flow(ai);
  if (!flow) {
    fail(p, nowhere, IR_ERR_INTERNAL, "internal: isl could not compute the flow dependences");
    return;
  }
  collect_ctx c = {p, 0};
  isl_union_map *dep = isl_union_flow_get_may_dependence(flow);
  isl_union_map_foreach_map(dep, collect_flow, &c);
  isl_union_map_free(dep);
  c.nosrc = 1;
  isl_union_map *nos = isl_union_flow_get_may_no_source(flow);
  isl_union_map_foreach_map(nos, collect_flow, &c);
  isl_union_map_free(nos);
  isl_union_flow_free(flow);

  /* aggregate per (source, sink, variable) */
  for (int i = 0; i < p->nf; i++) {
    fdep *f = &p->fd[i];
    add_mdep(p, POLY_DEP_FLOW, f->a, f->b, p->sts[f->b].reads[f->n].var,
             isl_map_copy(f->map));
  }
}

/* Memory-based anti and output dependences, per variable.  The execution
 * order is built per variable over the statements that write it (the
 * sinks of both kinds) and those that access it, not over every pair of
 * statements: statements that share no variable cost nothing. */
static void mem_deps(pass *p) {
  isl_space *sp = isl_set_get_space(p->sts[0].dom);
  for (int v = 0; v < p->k->nvars && !p->err.code; v++) {
    isl_union_map *R = NULL, *W = NULL;
    isl_union_map *sched = isl_union_map_empty(isl_space_params(isl_space_copy(sp)));
    for (int i = 0; i < p->n; i++) {
      st *t = &p->sts[i];
      int uses = 0;
      if (t->s->lhs->var == v) {
        isl_union_map *m = isl_union_map_from_map(isl_map_copy(t->write));
        W = W ? isl_union_map_union(W, m) : m;
        uses = 1;
      }
      for (int r = 0; r < t->nreads; r++)
        if (t->reads[r].var == v) {
          isl_union_map *m = isl_union_map_from_map(isl_map_copy(t->reads[r].map));
          R = R ? isl_union_map_union(R, m) : m;
          uses = 1;
        }
      if (uses) {
        char name[32];
        snprintf(name, sizeof name, "S%d", i);
        sched = isl_union_map_add_map(sched, schedule(p, t, name));
      }
    }
    isl_union_map *order = NULL;
    if (W) order = isl_union_map_lex_lt_union_map(isl_union_map_copy(sched), isl_union_map_copy(sched));
    isl_union_map_free(sched);
    if (W) {
      isl_union_map *rev = isl_union_map_reverse(isl_union_map_copy(W));
      mem_ctx c = {p, POLY_DEP_OUTPUT, v};
      isl_union_map *out = isl_union_map_apply_range(isl_union_map_copy(W), isl_union_map_copy(rev));
      out = isl_union_map_intersect(out, isl_union_map_copy(order));
      isl_union_map_foreach_map(out, collect_mem, &c);
      isl_union_map_free(out);
      if (R) {
        c.kind = POLY_DEP_ANTI;
        isl_union_map *anti = isl_union_map_apply_range(isl_union_map_copy(R), isl_union_map_copy(rev));
        anti = isl_union_map_intersect(anti, isl_union_map_copy(order));
        isl_union_map_foreach_map(anti, collect_mem, &c);
        isl_union_map_free(anti);
      }
      isl_union_map_free(rev);
    }
    isl_union_map_free(order);
    isl_union_map_free(R);
    isl_union_map_free(W);
  }
  isl_space_free(sp);
}

/* ------------------------------------------------------------- graphs */

/* Tarjan's strongly connected components over adjacency matrix adj (n*n);
 * comp[i] = component index. Returns the number of components. */
typedef struct tarjan {
  int n, *idx, *low, *stack, sp, *on, next, ncomp, *comp;
  const unsigned char *adj;
} tarjan;

static void strong(tarjan *t, int v) {
  t->idx[v] = t->low[v] = t->next++;
  t->stack[t->sp++] = v;
  t->on[v] = 1;
  for (int w = 0; w < t->n; w++) {
    if (!t->adj[v * t->n + w]) continue;
    if (t->idx[w] < 0) {
      strong(t, w);
      if (t->low[w] < t->low[v]) t->low[v] = t->low[w];
    } else if (t->on[w] && t->idx[w] < t->low[v]) {
      t->low[v] = t->idx[w];
    }
  }
  if (t->low[v] == t->idx[v]) {
    int w;
    do {
      w = t->stack[--t->sp];
      t->on[w] = 0;
      t->comp[w] = t->ncomp;
    } while (w != v);
    t->ncomp++;
  }
}

static int scc(int n, const unsigned char *adj, int *comp) {
  tarjan t = {n, ir_malloc(sizeof(int) * (size_t)n), ir_malloc(sizeof(int) * (size_t)n),
              ir_malloc(sizeof(int) * (size_t)n), 0, ir_calloc((size_t)n, sizeof(int)),
              0, 0, comp, adj};
  for (int i = 0; i < n; i++) t.idx[i] = -1;
  for (int i = 0; i < n; i++)
    if (t.idx[i] < 0) strong(&t, i);
  ir_free(t.idx);
  ir_free(t.low);
  ir_free(t.stack);
  ir_free(t.on);
  return t.ncomp;
}

/* ------------------------------------------------------------- regions */

/* An arena array v of n elements of size elem with room for one more: the
 * same v, or a copy with twice the capacity (first: the first capacity). */
static void *arena_room(ir_arena *arena, void *v, int n, int *cap, size_t elem, int first) {
  if (n < *cap) return v;
  *cap = *cap ? *cap * 2 : first;
  void *nv = ir_arena_alloc(arena, elem * (size_t)*cap);
  if (n) memcpy(nv, v, elem * (size_t)n);
  return nv;
}

typedef struct cons_ctx {
  pass *p;
  int rank;
  poly_constraint *cons;
  int n, cap;
  int bad;
} cons_ctx;

static isl_stat take_constraint(__isl_take isl_constraint *c, void *user) {
  cons_ctx *cc = user;
  cc->cons = arena_room(cc->p->arena, cc->cons, cc->n, &cc->cap, sizeof *cc->cons, 8);
  poly_constraint *k = &cc->cons[cc->n++];
  k->is_eq = isl_constraint_is_equality(c) == isl_bool_true;
  k->rank = cc->rank;
  k->dim = IR_NEW_N(cc->p->arena, long, cc->rank > 0 ? cc->rank : 1);
  for (int d = 0; d < cc->rank; d++) {
    isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_set, d);
    k->dim[d] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_size np = isl_constraint_dim(c, isl_dim_param);
  k->pvar = IR_NEW_N(cc->p->arena, int, np > 0 ? np : 1);
  k->pcoef = IR_NEW_N(cc->p->arena, long, np > 0 ? np : 1);
  isl_space *sp = isl_constraint_get_space(c);
  for (int i = 0; i < np; i++) {
    isl_val *v = isl_constraint_get_coefficient_val(c, isl_dim_param, i);
    long co = isl_val_get_num_si(v);
    isl_val_free(v);
    const char *nm = isl_space_get_dim_name(sp, isl_dim_param, i);
    if (!co || !nm || nm[0] != 'P') continue;
    k->pvar[k->nparams] = atoi(nm + 1);
    k->pcoef[k->nparams++] = co;
  }
  isl_space_free(sp);
  isl_val *v = isl_constraint_get_constant_val(c);
  k->c0 = isl_val_get_num_si(v);
  isl_val_free(v);
  isl_constraint_free(c);
  return isl_stat_ok;
}

/* "i0 >= i1", "i0 == m - 1": the first dim term on the left. */
static void constraint_text(const pass *p, const poly_constraint *c, sb *b) {
  int first = -1;
  for (int d = 0; d < c->rank && first < 0; d++)
    if (c->dim[d]) first = d;
  int sign = 1;
  const char *rel = c->is_eq ? "==" : ">=";
  if (first >= 0 && c->dim[first] < 0) {
    sign = -1;
    if (!c->is_eq) rel = "<=";
  }
  /* left: sign*dim[first]*x_first ; right: -(sign * rest).  A constraint
   * on parameters only is written "rest >= 0" (rsign 1). */
  int rsign = first < 0 ? 1 : -sign;
  long c0 = rsign * c->c0;
  if (first < 0) {
    first = -2;
  } else {
    long co = sign * c->dim[first];
    if (co == 1) sb_add(b, "i%d", first);
    else sb_add(b, "%ld*i%d", co, first);
  }
  /* strict forms: x >= r + 1 is x > r, x <= r - 1 is x < r */
  if (!c->is_eq && first >= 0) {
    if (rel[0] == '>' && c0 == 1) { rel = ">"; c0 = 0; }
    else if (rel[0] == '<' && c0 == -1) { rel = "<"; c0 = 0; }
  }
  sb r = {0};
  for (int d = 0; d < c->rank; d++) {
    if (d == first || !c->dim[d]) continue;
    long co = rsign * c->dim[d];
    sb_add(&r, "%s%s%ld*i%d", r.n ? (co < 0 ? " - " : " + ") : (co < 0 ? "-" : ""), "",
           co < 0 ? -co : co, d);
  }
  for (int i = 0; i < c->nparams; i++) {
    long co = rsign * c->pcoef[i];
    sb_add(&r, "%s%ld*%s", r.n ? (co < 0 ? " - " : " + ") : (co < 0 ? "-" : ""),
           co < 0 ? -co : co, vname(p, c->pvar[i]));
  }
  if (c0 || !r.n)
    sb_add(&r, "%s%ld", r.n ? (c0 < 0 ? " - " : " + ") : (c0 < 0 ? "-" : ""), c0 < 0 ? -c0 : c0);
  /* "1*x" reads badly */
  char *s = r.s;
  for (char *q = s; q && (q = strstr(q, "1*")) != NULL;) {
    if (q == s || q[-1] == ' ' || q[-1] == '-') memmove(q, q + 2, strlen(q + 2) + 1);
    else q += 2;
  }
  if (first == -2) sb_add(b, "%s %s 0", sb_str(&r), rel);
  else sb_add(b, " %s %s", rel, sb_str(&r));
  sb_free(&r);
}

static int first_dim(const poly_constraint *c) {
  for (int d = 0; d < c->rank; d++)
    if (c->dim[d]) return d;
  return c->rank;
}

typedef struct bset_ctx {
  pass *p;
  int rank;
  poly_mask *masks;
  int n, cap;
  int opaque;
} bset_ctx;

static isl_stat take_bset(__isl_take isl_basic_set *bs, void *user) {
  bset_ctx *bc = user;
  if (isl_basic_set_dim(bs, isl_dim_div) > 0) bc->opaque = 1;
  bc->masks = arena_room(bc->p->arena, bc->masks, bc->n, &bc->cap, sizeof *bc->masks, 4);
  cons_ctx cc = {bc->p, bc->rank, NULL, 0, 0, 0};
  isl_basic_set_foreach_constraint(bs, take_constraint, &cc);
  isl_basic_set_free(bs);
  /* present constraints by their first dim: "i0 == m - 1 and i1 == m - 1" */
  for (int i = 1; i < cc.n; i++)
    for (int j = i; j > 0 && first_dim(&cc.cons[j - 1]) > first_dim(&cc.cons[j]); j--) {
      poly_constraint t = cc.cons[j];
      cc.cons[j] = cc.cons[j - 1];
      cc.cons[j - 1] = t;
    }
  poly_mask *m = &bc->masks[bc->n++];
  m->ncons = cc.n;
  m->cons = cc.cons;
  sb t = {0};
  for (int i = 0; i < cc.n; i++) {
    if (i) sb_add(&t, " and ");
    constraint_text(bc->p, &cc.cons[i], &t);
  }
  m->text = ir_arena_strdup(bc->p->arena, t.n ? sb_str(&t) : "true");
  sb_free(&t);
  return isl_stat_ok;
}

static const char *isl_text(pass *p, __isl_keep isl_set *s) {
  char *t = isl_set_to_str(s);
  const char *r = ir_arena_strdup(p->arena, t ? t : "?");
  free(t);
  return r;
}

/* The box of variable v: 0 <= x_d < dim_d; NULL if a dim is not affine. */
static __isl_give isl_set *box_of(pass *p, int v) {
  const ir_var *var = p->k->vars[v];
  sb b = {0};
  sb_add(&b, "%s -> { V%d[", sb_str(&p->params), v);
  for (int d = 0; d < var->rank; d++) sb_add(&b, "%so%d", d ? ", " : "", d);
  sb_add(&b, "]");
  for (int d = 0; d < var->rank; d++) {
    sb_add(&b, "%s0 <= o%d < ", d ? " and " : " : ", d);
    if (!var->dims[d] || aff(p->k, var->dims[d], &b)) {
      sb_free(&b);
      return NULL;
    }
  }
  sb_add(&b, " }");
  isl_set *s = isl_set_read_from_str(p->ctx, sb_str(&b));
  sb_free(&b);
  return s;
}

/* The size parameters' context: every size >= lo. */
static __isl_give isl_set *context(pass *p, int lo) {
  sb b = {0};
  sb_add(&b, "%s -> { : ", sb_str(&p->params));
  int any = 0;
  for (int v = 0; v < p->k->nvars; v++)
    if (p->k->vars[v]->kind == IR_VAR_SIZE) sb_add(&b, "%sP%d >= %d", any++ ? " and " : "", v, lo);
  if (!any) sb_add(&b, "1 = 1");
  sb_add(&b, " }");
  isl_set *s = isl_set_read_from_str(p->ctx, sb_str(&b));
  sb_free(&b);
  return s;
}

/* Describe region r (taken) of a box of `rank` dims (box taken; NULL: a
 * dim is not affine), in the box's coordinates.  Masks assume sizes >= 1,
 * except in strict mode.  strict (written regions whose old values the task
 * does not read): the region is "whole" only when it is the whole box at
 * every size assignment (sizes >= 0), so a write guarded by a size
 * condition (n > 2, a loop empty at some sizes) is a mask whose constraints
 * keep that condition (sizes >= 0); otherwise the box is compared only under the
 * parameter values for which the region is not empty ("read only when
 * m >= 2" is not a mask of elements). */
static poly_region region_in(pass *p, __isl_take isl_set *box, int rank, __isl_take isl_set *r,
                             int strict) {
  poly_region out = {POLY_REGION_NONE, 0, NULL, "none", NULL};
  if (!r) {
    isl_set_free(box);
    return out;
  }
  int whole = 0;
  isl_set *r0keep = isl_set_copy(r);
  if (strict && box) {
    isl_set *ctx0 = context(p, 0);
    isl_set *b0 = isl_set_intersect_params(isl_set_copy(box), isl_set_copy(ctx0));
    isl_set *r0 = isl_set_intersect_params(isl_set_copy(r), ctx0);
    whole = isl_set_is_subset(b0, r0) == isl_bool_true;
    isl_set_free(b0);
    isl_set_free(r0);
  }
  isl_set *ctx = context(p, 1);
  r = isl_set_coalesce(isl_set_intersect_params(r, isl_set_copy(ctx)));
  if (isl_set_is_empty(r) != isl_bool_false) {
    isl_set_free(r);
    isl_set_free(ctx);
    isl_set_free(box);
    isl_set_free(r0keep);
    return out;
  }
  out.isl = isl_text(p, r);
  if (box && !strict) {
    box = isl_set_intersect_params(box, isl_set_params(isl_set_copy(r)));
    whole = isl_set_is_subset(box, r) == isl_bool_true;
  } else if (box) { /* the masks keep the size conditions (sizes >= 0) */
    isl_set_free(r);
    r = isl_set_coalesce(isl_set_intersect_params(isl_set_copy(r0keep), context(p, 0)));
    box = isl_set_intersect_params(box, context(p, 0));
  }
  isl_set_free(ctx);
  isl_set_free(r0keep);
  if (whole) {
    out.kind = POLY_REGION_BOX;
    out.text = "whole";
    isl_set_free(r);
    isl_set_free(box);
    return out;
  }
  if (box) r = isl_set_coalesce(isl_set_gist(r, box));
  bset_ctx bc = {p, rank, NULL, 0, 0, 0};
  isl_set_foreach_basic_set(r, take_bset, &bc);
  isl_set_free(r);
  out.kind = bc.opaque || !box ? POLY_REGION_OPAQUE : POLY_REGION_MASK;
  out.nmasks = bc.n;
  out.masks = bc.masks;
  if (out.kind == POLY_REGION_OPAQUE) {
    out.text = out.isl;
  } else if (bc.n == 1) {
    out.text = bc.masks[0].text;
  } else {
    sb t = {0};
    for (int i = 0; i < bc.n; i++)
      sb_add(&t, "%s(%s)", i ? " or " : "", bc.masks[i].text);
    out.text = ir_arena_strdup(p->arena, sb_str(&t));
    sb_free(&t);
  }
  return out;
}

/* Describe region r (taken) of variable v. */
static poly_region region(pass *p, int v, __isl_take isl_set *r, int strict) {
  return region_in(p, box_of(p, v), p->k->vars[v]->rank, r, strict);
}

/* ------------------------------------------------------ value spaces */

/* The box [0, P_0) x ... of a set over n dims (tuple reset) for the given
 * size parameter var ids (given). */
/* Add the extent of dim symbol v to b: its parameter P<v>, or the value
 * of a constant extent (IR_VAR_EXTENT, not an isl parameter). */
static void sb_extent(sb *b, const pass *p, int v) {
  if (p->k->vars[v]->kind == IR_VAR_EXTENT) sb_add(b, "%ld", p->k->vars[v]->value);
  else sb_add(b, "P%d", v);
}

static __isl_give isl_set *box_over(pass *p, int n, const int *dims) {
  sb b = {0};
  sb_add(&b, "%s -> { [", sb_str(&p->params));
  for (int e = 0; e < n; e++) sb_add(&b, "%so%d", e ? ", " : "", e);
  sb_add(&b, "]");
  for (int e = 0; e < n; e++) {
    sb_add(&b, "%s0 <= o%d < ", e ? " and " : " : ", e);
    sb_extent(&b, p, dims[e]);
  }
  sb_add(&b, " }");
  isl_set *box = isl_set_read_from_str(p->ctx, sb_str(&b));
  sb_free(&b);
  return box;
}

/* The value space of statement i (see poly_stmt): the extent of each loop,
 * the iteration points within that box, the value space's dims and
 * extents, the points it runs over, and those that write an element's
 * final value in the task (lastw: the instances that are last writers,
 * union over the task's statements; kept). */
static void value_space(pass *p, poly_analysis *a, int i, __isl_keep isl_union_set *lastw) {
  st *t = &p->sts[i];
  poly_stmt *s = &a->stmts[i];
  s->nspace = -1;
  /* each loop's extent: the size parameter P with 0 <= it < P, or a
   * constant extent's symbol (loops to 3 over w[3]) */
  s->loop_dims = IR_NEW_N(p->arena, int, t->depth ? t->depth : 1);
  isl_set *full = isl_set_reset_tuple_id(isl_set_copy(t->dom));
  int all = 1;
  for (int d = 0; d < t->depth; d++) {
    s->loop_dims[d] = -1;
    for (int v = 0; v < p->k->nvars && s->loop_dims[d] < 0; v++) {
      if (p->k->vars[v]->kind != IR_VAR_SIZE && p->k->vars[v]->kind != IR_VAR_EXTENT) continue;
      sb b = {0};
      sb_add(&b, "%s -> { [", sb_str(&p->params));
      for (int e = 0; e < t->depth; e++) sb_add(&b, "%so%d", e ? ", " : "", e);
      sb_add(&b, "] : 0 <= o%d < ", d);
      sb_extent(&b, p, v);
      sb_add(&b, " }");
      isl_set *bx = isl_set_read_from_str(p->ctx, sb_str(&b));
      sb_free(&b);
      if (bx && isl_set_is_subset(full, bx) == isl_bool_true) s->loop_dims[d] = v;
      isl_set_free(bx);
    }
    all &= s->loop_dims[d] >= 0;
  }
  if (all) s->points = region_in(p, box_over(p, t->depth, s->loop_dims), t->depth,
                                 isl_set_copy(full), 0);
  isl_set_free(full);
  /* the value space: the loops that do not carry the reduction */
  const poly_reduction *r = NULL;
  for (int j = 0; j < a->nreductions; j++)
    if (a->reductions[j].stmt == i) r = &a->reductions[j];
  int keep[MAXDEPTH], nk = 0, ok = 1;
  for (int d = 0; d < t->depth; d++) {
    int red = 0;
    for (int j = 0; r && j < r->niters; j++) red |= r->iters[j] == t->loops[d]->iter;
    if (!red) {
      keep[nk++] = d;
      ok &= s->loop_dims[d] >= 0;
    }
  }
  if (nk > IR_MAX_RANK || !ok) return;
  /* project the reduction dims out of the domain and the last writers */
  isl_set *dom = isl_set_reset_tuple_id(isl_set_copy(t->dom));
  isl_set *last = NULL;
  if (!t->guarded)
    last = isl_set_reset_tuple_id(isl_union_set_extract_set(lastw, isl_set_get_space(t->dom)));
  for (int d = t->depth - 1, k = nk - 1; d >= 0; d--) {
    if (k >= 0 && keep[k] == d) {
      k--;
      continue;
    }
    dom = isl_set_project_out(dom, isl_dim_set, (unsigned)d, 1);
    if (last) last = isl_set_project_out(last, isl_dim_set, (unsigned)d, 1);
  }
  s->nspace = nk;
  s->space_iters = IR_NEW_N(p->arena, int, nk ? nk : 1);
  s->space_dims = IR_NEW_N(p->arena, int, nk ? nk : 1);
  for (int e = 0; e < nk; e++) {
    s->space_iters[e] = t->loops[keep[e]]->iter;
    s->space_dims[e] = s->loop_dims[keep[e]];
  }
  s->space = region_in(p, box_over(p, nk, s->space_dims), nk, dom, 0);
  if (last) s->last = region_in(p, box_over(p, nk, s->space_dims), nk, last, 0);
}

/* The value spaces of the statements of every task. */
static void value_spaces(pass *p, poly_analysis *a) {
  for (int i = 0; i < a->nstmts; i++) {
    a->stmts[i].nspace = -1;
    a->stmts[i].space = a->stmts[i].last = a->stmts[i].points =
        (poly_region){POLY_REGION_NONE, 0, NULL, "none", NULL};
  }
  for (int ti = 0; ti < a->ntasks; ti++) {
    const poly_task *T = &a->tasks[ti];
    isl_union_map *sched = NULL, *wr = NULL;
    char name[32];
    for (int j = 0; j < T->nstmts; j++) {
      st *t = &p->sts[T->stmts[j]];
      snprintf(name, sizeof name, "S%d", T->stmts[j]);
      isl_union_map *m1 = isl_union_map_from_map(schedule(p, t, name));
      isl_union_map *m2 = isl_union_map_from_map(isl_map_copy(t->write));
      sched = sched ? isl_union_map_union(sched, m1) : m1;
      wr = wr ? isl_union_map_union(wr, m2) : m2;
    }
    if (!sched) continue;
    /* element -> schedule of its last writer -> that instance */
    isl_union_map *e2s = isl_union_map_apply_range(isl_union_map_reverse(wr),
                                                   isl_union_map_copy(sched));
    e2s = isl_union_map_lexmax(e2s);
    isl_union_map *e2i = isl_union_map_apply_range(e2s, isl_union_map_reverse(sched));
    isl_union_set *lastw = isl_union_map_range(e2i);
    for (int j = 0; j < T->nstmts; j++) value_space(p, a, T->stmts[j], lastw);
    isl_union_set_free(lastw);
  }
}

/* ----------------------------------------------------------- the pass */

static void pass_free(pass *p) {
  for (int i = 0; i < p->n; i++) {
    st *t = &p->sts[i];
    isl_set_free(t->dom);
    isl_map_free(t->write);
    for (int r = 0; r < t->nreads; r++) isl_map_free(t->reads[r].map);
    ir_free(t->reads);
  }
  for (int i = 0; i < p->nf; i++) isl_map_free(p->fd[i].map);
  for (int i = 0; i < p->nm; i++) isl_map_free(p->md[i].map);
  ir_free(p->fd);
  ir_free(p->md);
  ir_free(p->mhash);
  ir_free(p->sts);
  ir_free(p->carried);
  sb_free(&p->params);
  sb_free(&p->conds);
  sb_free(&p->why);
  ir_free(p->fadj);
  ir_free(p->madj);
  ir_free(p->fcomp);
  ir_free(p->mcomp);
  if (p->ctx) {
    ir_budget_on_expire(NULL, NULL);
    isl_ctx_free(p->ctx);
    p->ctx = NULL;
  }
}

static const char *pos_str(pass *p, const ir_stmt *s) {
  return ir_arena_printf(p->arena, "S%d (%s:%d:%d)", s->id,
                         s->pos.file ? s->pos.file : (p->k->file ? p->k->file : "?"),
                         s->pos.line, s->pos.col);
}

/* Is name an element of the ", "-separated list b? */
static int in_list(const sb *b, const char *name) {
  size_t n = strlen(name);
  for (const char *q = b->s; q && (q = strstr(q, name)) != NULL; q += n)
    if ((q == b->s || q[-1] == ' ') && (q[n] == ',' || q[n] == 0)) return 1;
  return 0;
}

static void add_reason(poly_analysis *a, pass *p, sb *why, const char *text,
                       const int *stmts, int n) {
  sb_add(why, "%s%s", why->n ? "; " : "", text);
  int *ns = IR_NEW_N(p->arena, int, a->nreason_stmts + n);
  if (a->nreason_stmts) memcpy(ns, a->reason_stmts, sizeof(int) * (size_t)a->nreason_stmts);
  int m = a->nreason_stmts;
  for (int i = 0; i < n; i++) {
    int dup = 0;
    for (int j = 0; j < m; j++) dup |= ns[j] == stmts[i];
    if (!dup) ns[m++] = stmts[i];
  }
  a->reason_stmts = ns;
  a->nreason_stmts = m;
}

/* ------------------------------------------------ must-write before read
 *
 * A local may become a per-iteration value (an array over its enclosing
 * loops) only when, in every iteration, each read of it is preceded on
 * every path by a write of the same element in that iteration.  The walk
 * below keeps the elements surely written so far (`v`, or `v[s..]` with
 * subscripts compared as expressions: inside one iteration every iterator
 * is fixed).  An if adds what both branches write; a nested loop adds
 * nothing after it unless its constant bounds make it run (what it writes
 * under its own iterator is dropped anyway); the reads of a condition come
 * before either branch. */

typedef struct mw {
  int var;
  const ir_expr **done;    /* lhs of the writes surely made so far */
  int n, cap;
  const ir_stmt *bad;      /* first statement with a read not covered */
} mw;

static int mw_covered(const mw *m, const ir_expr *e) {
  for (int i = 0; i < m->n; i++)
    if (expr_equal(m->done[i], e)) return 1;
  return 0;
}

static void mw_add(mw *m, const ir_expr *lhs) {
  if (mw_covered(m, lhs)) return;
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 8;
    m->done = ir_realloc(m->done, sizeof(m->done[0]) * (size_t)m->cap);
  }
  m->done[m->n++] = lhs;
}

/* Checks the reads of e (made by statement s) against the writes so far. */
static void mw_reads(mw *m, const ir_expr *e, const ir_stmt *s) {
  if (m->bad || !e) return;
  if ((e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == m->var &&
      !mw_covered(m, e)) {
    m->bad = s;
    return;
  }
  for (int i = 0; i < e->nargs; i++) mw_reads(m, e->args[i], s);
}

/* The first assignment in s (and the statements after it), or NULL. */
static const ir_stmt *first_assign(const ir_stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) return s;
    const ir_stmt *r = first_assign(s->body);
    if (!r) r = first_assign(s->then_body);
    if (!r) r = first_assign(s->else_body);
    if (r) return r;
  }
  return NULL;
}

/* Does the loop surely run at least once?  Only constant bounds are known. */
static int surely_runs(const ir_stmt *l) {
  long lo, hi;
  return ir_expr_const_int(l->lo, &lo) && ir_expr_const_int(l->hi, &hi) && lo <= hi;
}

/* One pass over the statement list s in order, updating m. */
static void mw_walk(mw *m, const ir_stmt *s) {
  for (; s && !m->bad; s = s->next) {
    switch (s->kind) {
    case IR_ST_ASSIGN:
      if (s->op != IR_ASSIGN) mw_reads(m, s->lhs, s);
      mw_reads(m, s->rhs, s);
      if (s->lhs->kind == IR_EX_ELEM)
        for (int i = 0; i < s->lhs->nargs; i++) mw_reads(m, s->lhs->args[i], s);
      if (s->lhs->var == m->var) mw_add(m, s->lhs);
      break;
    case IR_ST_IF: {
      const ir_stmt *in = first_assign(s->then_body);
      if (!in) in = first_assign(s->else_body);
      if (!in) break; /* assigns nothing: reads nothing that matters */
      mw_reads(m, s->cond, in);
      int mark = m->n;
      mw_walk(m, s->then_body);
      int nthen = m->n - mark;
      const ir_expr **then = ir_malloc(sizeof(then[0]) * (size_t)(nthen ? nthen : 1));
      if (nthen) memcpy(then, m->done + mark, sizeof(then[0]) * (size_t)nthen);
      m->n = mark;
      mw_walk(m, s->else_body);
      /* keep what both branches wrote */
      int keep = mark;
      for (int i = 0; i < nthen; i++) {
        int both = 0;
        for (int j = mark; j < m->n && !both; j++) both = expr_equal(then[i], m->done[j]);
        if (both) then[keep++ - mark] = then[i];
      }
      if (keep > mark) memcpy(m->done + mark, then, sizeof(then[0]) * (size_t)(keep - mark));
      m->n = keep;
      ir_free(then);
      break;
    }
    case IR_ST_FOR: {
      int mark = m->n;
      mw_walk(m, s->body);
      if (!surely_runs(s)) {
        m->n = mark;
        break;
      }
      int keep = mark; /* writes that do not name the loop's own iterator */
      for (int i = mark; i < m->n; i++)
        if (!expr_uses_var(m->done[i], s->iter)) m->done[keep++] = m->done[i];
      m->n = keep;
      break;
    }
    }
  }
}

/* The first statement of body (one iteration of a loop) that reads local
 * var before writing it in that iteration, or NULL. */
static const ir_stmt *read_before_write(const ir_stmt *body, int var) {
  mw m = {var, NULL, 0, 0, NULL};
  mw_walk(&m, body);
  ir_free(m.done);
  return m.bad;
}

/* Locals that must be expanded: accessed (outside the prelude) by
 * statements in different components of the flow graph, all inside loops,
 * each iteration writing them before reading them (read_before_write) and
 * no write under a data-dependent if.  A local that reads a value of an
 * earlier iteration goes to p->carried (not raisable) and then nothing is
 * expanded.  Fills want[] (in arena) and returns how many. */
static int plan_expansion(pass *p, const int *fcomp, poly_expansion **want) {
  const ir_kernel *k = p->k;
  int nw = 0;
  poly_expansion *w = IR_NEW_N(p->arena, poly_expansion, k->nvars);
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *var = k->vars[v];
    if (var->kind != IR_VAR_LOCAL && var->kind != IR_VAR_LOCAL_ARRAY) continue;
    int comp = -1, split = 0, outside = 0, first = -1, guarded = 0;
    int ncommon = MAXDEPTH;
    for (int i = 0; i < p->n; i++) {
      const st *t = &p->sts[i];
      if (t->prelude) continue;
      int uses = t->s->lhs->var == v;
      for (int r = 0; r < t->nreads; r++) uses |= t->reads[r].var == v;
      if (!uses) continue;
      if (t->depth == 0) outside = 1;
      if (t->guarded && t->s->lhs->var == v) guarded = 1;
      if (comp >= 0 && fcomp[i] != comp) split = 1;
      comp = fcomp[i];
      if (first < 0) {
        first = i;
        ncommon = t->depth;
      } else {
        int c = common_loops(&p->sts[first], t);
        if (c < ncommon) ncommon = c;
      }
    }
    if (!split || outside || ncommon == 0) continue;
    int *iters = IR_NEW_N(p->arena, int, ncommon);
    int nl = 0;
    for (int d = 0; d < ncommon; d++) {
      const ir_stmt *l = p->sts[first].loops[d];
      /* skip loops whose iterator already indexes the variable */
      int indexed = 0;
      for (int i = 0; i < p->n && !indexed; i++) {
        const st *t = &p->sts[i];
        if (t->s->lhs->var == v && expr_uses_var(t->s->lhs, l->iter)) indexed = 1;
        for (int r = 0; r < t->nreads; r++)
          if (t->reads[r].var == v && expr_uses_var(t->reads[r].e, l->iter)) indexed = 1;
      }
      if (indexed) continue;
      long lo;
      sb hb = {0};
      int ok = ir_expr_const_int(l->lo, &lo) && lo >= 0 && aff(k, l->hi, &hb) == 0 &&
               !strstr(sb_str(&hb), "I");
      sb_free(&hb);
      if (!ok) {
        nl = 0; /* triangular or shifted loop: leave v as it is */
        break;
      }
      iters[nl++] = l->iter;
    }
    if (!nl || nl + var->rank > IR_MAX_RANK) continue;
    const ir_stmt *inner = p->sts[first].loops[ncommon - 1];
    const ir_stmt *bad = read_before_write(inner->body, v);
    if (bad) { /* a value carried across iterations: not a temporary */
      p->carried = ir_realloc(p->carried, sizeof(p->carried[0]) * (size_t)(p->ncarried + 1));
      p->carried[p->ncarried++] = (carried){v, inner->iter, bad};
      continue;
    }
    /* A write under a data-dependent if may not happen: its task would
     * leave the other elements undefined instead of keeping the values of
     * the other writers.  Unexpanded, every statement touching v stays in
     * one task (v's anti and output dependences join them). */
    if (guarded) continue;
    w[nw].var = v;
    w[nw].old_rank = var->rank;
    w[nw].nloops = nl;
    w[nw].iters = iters;
    nw++;
  }
  *want = w;
  return p->ncarried ? 0 : nw; /* refused: the analysis goes on unexpanded */
}

/* ---------------------------------------------------- the pass's phases */

/* The budget's hook (ir_budget_on_expire: at the deadline, or with the
 * memory use past --memory): isl stops at its next operation. */
static void abort_isl(void *ctx) { isl_ctx_abort(ctx); }

/* Set-up: the isl context, the statements' domains and accesses (the
 * walk), the flow and memory dependences.  Returns 0, or -1 with p->err
 * set. */
static int pass_build(pass *p) {
  const ir_kernel *k = p->k;
  p->ctx = isl_ctx_alloc();
  isl_options_set_on_error(p->ctx, ISL_ON_ERROR_CONTINUE);
  /* at the deadline isl's operations fail (run: budget_out) */
  ir_budget_on_expire(abort_isl, p->ctx);
  /* the work budget (--work) as a count of isl's operations (tableau
   * pivots), one element of work each, so that a huge analysis ends at the
   * same point on any machine (budget_out); a pass does not spend the
   * budget: its operations are not counted out of it (isl does not say how
   * many it made) */
  long left = ir_work_left();
  if (left >= 0) isl_ctx_set_max_operations(p->ctx, (unsigned long)left + 1);
  p->sts = ir_calloc((size_t)p->n, sizeof(st));
  sb_add(&p->params, "[");
  int np = 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sb_add(&p->params, "%sP%d", np++ ? ", " : "", v);
  sb_add(&p->params, "]");
  walk(p, k->body);
  for (int i = 0; i < p->n && !p->err.code; i++)
    if (!p->sts[i].s) fail(p, nowhere, IR_ERR_INTERNAL, "internal: assignment %d not found in the body", i);
  for (int i = 0; i < p->n && !p->err.code; i++) {
    if (!p->sts[i].dom || !p->sts[i].write) fail(p, nowhere, IR_ERR_INTERNAL, "internal: isl failed on S%d", i);
    for (int r = 0; r < p->sts[i].nreads; r++)
      if (!p->sts[i].reads[r].map) fail(p, nowhere, IR_ERR_INTERNAL, "internal: isl failed on a read of S%d", i);
  }
  if (!p->err.code) flow_deps(p);
  if (!p->err.code) mem_deps(p);
  /* a prelude local written elsewhere too is not a constant */
  for (int i = 0; i < p->n && !p->err.code; i++) {
    if (!p->sts[i].prelude) continue;
    for (int j = 0; j < p->n; j++)
      if (j != i && p->sts[j].s->lhs->var == p->sts[i].s->lhs->var) p->sts[i].prelude = 0;
  }
  return p->err.code ? -1 : 0;
}

/* The statement graphs (prelude statements left out): flow dependences
 * (fadj, components fcomp) and all dependences (madj, components mcomp). */
static void pass_graphs(pass *p) {
  int n = p->n;
  p->fadj = ir_calloc((size_t)n * (size_t)n, 1);
  p->madj = ir_calloc((size_t)n * (size_t)n, 1);
  for (int i = 0; i < p->nm; i++) {
    mdep *d = &p->md[i];
    if (d->a == d->b || p->sts[d->a].prelude || p->sts[d->b].prelude) continue;
    p->madj[d->a * n + d->b] = 1;
    if (d->kind == POLY_DEP_FLOW) p->fadj[d->a * n + d->b] = 1;
  }
  p->fcomp = ir_malloc(sizeof(int) * (size_t)n);
  p->mcomp = ir_malloc(sizeof(int) * (size_t)n);
  p->nfc = scc(n, p->fadj, p->fcomp);
  p->nmc = scc(n, p->madj, p->mcomp);
}

/* The statements and the dependences (flow, then anti, then output) into
 * the result, with the loop carrying each dependence. */
static void copy_stmts(pass *p, poly_analysis *a) {
  int n = p->n;
  ir_arena *arena = p->arena;
  a->kernel = p->k;
  a->params = ir_arena_strdup(arena, sb_str(&p->params));
  a->nstmts = n;
  a->stmts = IR_NEW_N(arena, poly_stmt, n);
  for (int i = 0; i < n; i++) {
    st *t = &p->sts[i];
    poly_stmt *s = &a->stmts[i];
    s->id = i;
    s->stmt = t->s;
    s->depth = t->depth;
    s->loops = IR_NEW_N(arena, const ir_stmt *, t->depth ? t->depth : 1);
    memcpy(s->loops, t->loops, sizeof(t->loops[0]) * (size_t)t->depth);
    s->guarded = t->guarded;
    s->ops = t->ops;
    s->domain = isl_text(p, t->dom);
    s->task = -1;
    if (t->prelude) {
      int *pr = IR_NEW_N(arena, int, a->nprelude + 1);
      if (a->nprelude) memcpy(pr, a->prelude, sizeof(int) * (size_t)a->nprelude);
      pr[a->nprelude++] = i;
      a->prelude = pr;
    }
  }
  a->deps = IR_NEW_N(arena, poly_dep, p->nm ? p->nm : 1);
  for (int kind = POLY_DEP_FLOW; kind <= POLY_DEP_OUTPUT; kind++)
    for (int i = 0; i < p->nm; i++) {
      mdep *d = &p->md[i];
      if ((int)d->kind != kind) continue;
      poly_dep *o = &a->deps[a->ndeps++];
      o->kind = d->kind;
      o->src = d->a;
      o->dst = d->b;
      o->var = d->var;
      int c = common_loops(&p->sts[d->a], &p->sts[d->b]);
      unsigned lv = carried_levels(d->map, c, &o->independent);
      o->ncommon = c;
      o->levels = lv;
      o->distance = IR_NEW_N(arena, long, c ? c : 1);
      for (int l = 0; l < c; l++) /* flow only: the kept loops need no more */
        if (d->kind == POLY_DEP_FLOW && (lv & (1u << l)) &&
            carried_distance(d->map, l, &o->distance[l]))
          o->fixed |= 1u << l;
      o->carried = -1;
      o->iter = -1;
      for (int l = 0; l < c; l++)
        if (lv & (1u << l)) {
          o->carried = l;
          o->iter = p->sts[d->a].loops[l]->iter;
          break;
        }
      char *t = isl_map_to_str(d->map);
      o->rel = ir_arena_strdup(arena, t ? t : "?");
      free(t);
    }
}

/* Statement i's self flow dependences: a reduction (through the
 * accumulator only, with a reduction operator) into a->reductions, or a
 * recurrence into the reasons. */
static void stmt_reduction(pass *p, poly_analysis *a, int i) {
  st *t = &p->sts[i];
  unsigned acc_levels = 0, other_levels = 0;
  int other_var = -1;
  for (int f = 0; f < p->nf; f++) {
    fdep *d = &p->fd[f];
    if (d->a != i || d->b != i) continue;
    int indep;
    unsigned lv = carried_levels(d->map, t->depth, &indep);
    if (t->reads[d->n].acc) acc_levels |= lv;
    else {
      other_levels |= lv;
      other_var = t->reads[d->n].var;
    }
  }
  if (t->red != POLY_RED_NONE)
    for (int l = 0; l < t->depth; l++)
      if ((acc_levels & ~other_levels & (1u << l)) &&
          !expr_uses_var(t->s->lhs, t->loops[l]->iter))
        a->stmts[i].red_levels |= 1u << l;
  int outer = -1;
  unsigned all = acc_levels | other_levels;
  for (int l = 0; l < t->depth; l++)
    if (all & (1u << l)) {
      outer = l;
      break;
    }
  if (outer < 0) return;
  const char *it = vname(p, t->loops[outer]->iter);
  if (other_levels) {
    add_reason(a, p, &p->why,
               ir_arena_printf(p->arena, "%s reads %s values that it wrote itself in "
                               "earlier iterations of loop %s (a recurrence, not a "
                               "reduction)", pos_str(p, t->s), vname(p, other_var), it),
               &i, 1);
    return;
  }
  if (t->red == POLY_RED_NONE || expr_uses_var(t->s->lhs, t->loops[outer]->iter)) {
    add_reason(a, p, &p->why,
               ir_arena_printf(p->arena, "%s updates %s from its own value of an earlier "
                               "iteration of loop %s in a way that is not a reduction "
                               "(+, *, max, min)", pos_str(p, t->s),
                               vname(p, t->s->lhs->var), it),
               &i, 1);
    return;
  }
  poly_reduction *r = &a->reductions[a->nreductions++];
  r->stmt = i;
  r->op = t->red;
  r->var = t->s->lhs->var;
  r->iter = t->loops[outer]->iter;
  r->iters = IR_NEW_N(p->arena, int, t->depth);
  for (int l = 0; l < t->depth; l++)
    if ((acc_levels & (1u << l)) && !expr_uses_var(t->s->lhs, t->loops[l]->iter))
      r->iters[r->niters++] = t->loops[l]->iter;
  static const unsigned bit[] = {0, POLY_OP_RED_ADD, POLY_OP_RED_MUL, POLY_OP_RED_MAX,
                                 POLY_OP_RED_MIN};
  a->stmts[i].ops |= bit[r->op];
}

/* Cycles of the flow graph between statements: each a reason. */
static void flow_cycles(pass *p, poly_analysis *a) {
  int n = p->n;
  int *members = ir_malloc(sizeof(int) * (size_t)n);
  for (int c = 0; c < p->nfc; c++) {
    int nmem = 0;
    for (int i = 0; i < n; i++)
      if (p->fcomp[i] == c && !p->sts[i].prelude) members[nmem++] = i;
    if (nmem < 2) continue;
    sb txt = {0}, vars = {0}, loops = {0};
    for (int j = 0; j < nmem; j++)
      sb_add(&txt, "%s%s", j ? (j == nmem - 1 ? " and " : ", ") : "",
             pos_str(p, p->sts[members[j]].s));
    for (int i = 0; i < a->ndeps; i++) {
      poly_dep *d = &a->deps[i];
      if (d->kind != POLY_DEP_FLOW || d->src == d->dst || p->fcomp[d->src] != c ||
          p->fcomp[d->dst] != c)
        continue;
      const char *vn = vname(p, d->var);
      if (!in_list(&vars, vn)) sb_add(&vars, "%s%s", vars.n ? ", " : "", vn);
      if (d->iter >= 0 && !in_list(&loops, vname(p, d->iter)))
        sb_add(&loops, "%s%s", loops.n ? ", " : "", vname(p, d->iter));
    }
    add_reason(a, p, &p->why,
               ir_arena_printf(p->arena, "%s depend on each other through %s, carried by "
                               "loop %s: no loop distribution separates them",
                               sb_str(&txt), sb_str(&vars), loops.n ? sb_str(&loops) : "?"),
               members, nmem);
    sb_free(&txt);
    sb_free(&vars);
    sb_free(&loops);
  }
  ir_free(members);
}

/* Locals that carry a value from one loop iteration to the next: those
 * whose expansion was refused, then those a flow dependence shows (each a
 * reason). */
static void carried_locals(pass *p, poly_analysis *a) {
  for (int c = 0; c < p->ncarried; c++) {
    const carried *x = &p->carried[c];
    const char *v = vname(p, x->var), *it = vname(p, x->iter);
    add_reason(a, p, &p->why,
               ir_arena_printf(p->arena, "%s reads %s where it is not surely written earlier in the same "
                               "iteration of loop %s: a recurrence carried by loop %s "
                               "through %s (its value comes from an earlier iteration)",
                               pos_str(p, x->reader), v, it, it, v),
               &x->reader->id, 1);
  }
  /* a local read in a later iteration than the other statement that wrote
   * it (not a reduction's accumulator, which is its own statement): the
   * same scalar or element is reused by every iteration and carries a
   * value from one to the next */
  for (int f = 0; f < p->nf; f++) {
    fdep *d = &p->fd[f];
    int v = p->sts[d->b].reads[d->n].var;
    ir_var_kind vk = p->k->vars[v]->kind;
    if (d->a == d->b || (vk != IR_VAR_LOCAL && vk != IR_VAR_LOCAL_ARRAY) ||
        p->sts[d->a].prelude)
      continue;
    int dup = 0;
    for (int c = 0; c < p->ncarried; c++) dup |= p->carried[c].var == v;
    if (dup) continue;
    int indep, c = common_loops(&p->sts[d->a], &p->sts[d->b]);
    unsigned lv = carried_levels(d->map, c, &indep);
    if (!lv) continue;
    int l = 0;
    while (!(lv & (1u << l))) l++;
    /* an element indexed by the loop (tmp[i - 1]) is another element at each
     * iteration: loop distribution keeps all of them */
    if (expr_uses_var(p->sts[d->b].reads[d->n].e, p->sts[d->a].loops[l]->iter)) continue;
    /* isl takes a write under a data-dependent if as a may-write; when
     * every iteration surely writes v before reading it, no value of an
     * earlier iteration is read (if/else writing v in both branches) */
    if (!read_before_write(p->sts[d->a].loops[l]->body, v)) continue;
    const ir_stmt *reader = p->sts[d->b].s;
    p->carried = ir_realloc(p->carried, sizeof(p->carried[0]) * (size_t)(p->ncarried + 1));
    p->carried[p->ncarried++] = (carried){v, p->sts[d->a].loops[l]->iter, reader};
    const char *vn = vname(p, v), *it = vname(p, p->sts[d->a].loops[l]->iter);
    add_reason(a, p, &p->why,
               ir_arena_printf(p->arena, "%s reads %s written by %s in an earlier iteration "
                               "of loop %s: a recurrence carried by loop %s through %s",
                               pos_str(p, reader), vn, pos_str(p, p->sts[d->a].s), it, it,
                               vn),
               &reader->id, 1);
  }
}

/* Tasks: the components of the full dependence graph, in topological
 * order, ties broken by the first statement id. */
static void order_tasks(pass *p, poly_analysis *a) {
  int n = p->n, nmc = p->nmc;
  const int *mcomp = p->mcomp;
  int *order = ir_malloc(sizeof(int) * (size_t)(nmc ? nmc : 1));
  int *done = ir_calloc((size_t)(nmc ? nmc : 1), sizeof(int));
  int *first = ir_malloc(sizeof(int) * (size_t)(nmc ? nmc : 1));
  int *has = ir_calloc((size_t)(nmc ? nmc : 1), sizeof(int));
  for (int c = 0; c < nmc; c++) first[c] = n;
  for (int i = 0; i < n; i++) {
    if (p->sts[i].prelude) continue;
    has[mcomp[i]] = 1;
    if (i < first[mcomp[i]]) first[mcomp[i]] = i;
  }
  int nt = 0;
  for (;;) {
    int best = -1;
    for (int c = 0; c < nmc; c++) {
      if (done[c] || !has[c]) continue;
      int ready = 1;
      for (int x = 0; x < n && ready; x++)
        for (int y = 0; y < n && ready; y++)
          if (p->madj[x * n + y] && mcomp[y] == c && mcomp[x] != c && !done[mcomp[x]])
            ready = 0;
      if (ready && (best < 0 || first[c] < first[best])) best = c;
    }
    if (best < 0) break;
    done[best] = 1;
    order[nt++] = best;
  }
  a->ntasks = nt;
  a->tasks = IR_NEW_N(p->arena, poly_task, nt ? nt : 1);
  for (int t = 0; t < nt; t++) {
    poly_task *T = &a->tasks[t];
    T->index = t;
    T->stmts = IR_NEW_N(p->arena, int, n);
    for (int i = 0; i < n; i++)
      if (!p->sts[i].prelude && mcomp[i] == order[t]) {
        T->stmts[T->nstmts++] = i;
        a->stmts[i].task = t;
        T->ops |= a->stmts[i].ops;
      }
    T->reductions = IR_NEW_N(p->arena, int, a->nreductions ? a->nreductions : 1);
    for (int r = 0; r < a->nreductions; r++)
      if (a->stmts[a->reductions[r].stmt].task == t) T->reductions[T->nreductions++] = r;
  }
  ir_free(order);
  ir_free(done);
  ir_free(first);
  ir_free(has);
}

/* What task t reads and writes of variable v: the regions (*R, *W; NULL
 * when none) and the input flags and constant value in *in. */
static void task_var_access(pass *p, poly_analysis *a, int t, int v, isl_set **R,
                            isl_set **W, poly_input *in) {
  const poly_task *T = &a->tasks[t];
  for (int j = 0; j < T->nstmts; j++) {
    st *s = &p->sts[T->stmts[j]];
    if (s->s->lhs->var == v) {
      isl_set *w = isl_map_range(isl_map_copy(s->write));
      *W = *W ? isl_set_union(*W, w) : w;
    }
    for (int r = 0; r < s->nreads; r++) {
      if (s->reads[r].var != v) continue;
      isl_set *x = isl_map_range(isl_map_copy(s->reads[r].map));
      *R = *R ? isl_set_union(*R, x) : x;
      if (s->reads[r].nosrc) in->flags |= POLY_IN_LIVEIN;
      for (int f = 0; f < p->nf; f++) {
        fdep *d = &p->fd[f];
        if (d->b != T->stmts[j] || d->n != r) continue;
        if (p->sts[d->a].prelude) {
          in->flags |= POLY_IN_CONST;
          const ir_expr *c = p->sts[d->a].s->rhs;
          double sign = 1;
          while (c->kind == IR_EX_NEG || c->kind == IR_EX_CAST) {
            if (c->kind == IR_EX_NEG) sign = -sign;
            c = c->args[0];
          }
          in->has_value = 1;
          in->value = sign * c->value;
        } else if (a->stmts[d->a].task != t) {
          in->flags |= POLY_IN_TASK;
          if (a->stmts[d->a].task > in->from_task) in->from_task = a->stmts[d->a].task;
        }
      }
    }
  }
}

/* Task t's output of variable v (written region ac->write): the later
 * tasks that read it, sorted; added to the task's outputs when it is a
 * parameter or read later, and then, if partial, where its old values come
 * from goes into *in. */
static void task_output(pass *p, poly_analysis *a, int t, const poly_access *ac,
                        poly_input *in) {
  poly_task *T = &a->tasks[t];
  int v = ac->var;
  poly_output o = {v, 0, 0, NULL, ac->write};
  if (p->k->vars[v]->kind == IR_VAR_ARRAY || p->k->vars[v]->kind == IR_VAR_SCALAR)
    o.flags |= POLY_OUT_PARAM;
  o.readers = IR_NEW_N(p->arena, int, a->ntasks);
  for (int f = 0; f < p->nf; f++) {
    fdep *d = &p->fd[f];
    int tb = a->stmts[d->b].task;
    if (a->stmts[d->a].task != t || tb == t || tb < 0 || p->sts[d->b].reads[d->n].var != v)
      continue;
    int dup = 0;
    for (int x = 0; x < o.nreaders; x++) dup |= o.readers[x] == tb;
    if (!dup) o.readers[o.nreaders++] = tb;
  }
  for (int x = 1; x < o.nreaders; x++) /* sort: insertion */
    for (int y = x; y > 0 && o.readers[y - 1] > o.readers[y]; y--) {
      int tmp = o.readers[y];
      o.readers[y] = o.readers[y - 1];
      o.readers[y - 1] = tmp;
    }
  if (o.nreaders) o.flags |= POLY_OUT_READ;
  if (ac->write.kind != POLY_REGION_BOX) o.flags |= POLY_OUT_PARTIAL;
  if (!(o.flags & (POLY_OUT_PARAM | POLY_OUT_READ))) return;
  T->outputs[T->noutputs++] = o;
  if (!(o.flags & POLY_OUT_PARTIAL)) return;
  /* old values outside the written region: from the latest earlier task
   * that wrote v, else from the kernel's start */
  int from = -1;
  for (int u = 0; u < t; u++)
    for (int j = 0; j < a->tasks[u].nstmts; j++)
      if (p->sts[a->tasks[u].stmts[j]].s->lhs->var == v) from = u;
  in->flags |= POLY_IN_OUTSIDE | (from >= 0 ? POLY_IN_TASK : POLY_IN_LIVEIN);
  if (from > in->from_task) in->from_task = from;
}

/* Inputs, outputs and read/written regions of every task. */
static void task_io(pass *p, poly_analysis *a) {
  const ir_kernel *k = p->k;
  for (int t = 0; t < a->ntasks; t++) {
    poly_task *T = &a->tasks[t];
    T->inputs = IR_NEW_N(p->arena, poly_input, k->nvars);
    T->outputs = IR_NEW_N(p->arena, poly_output, k->nvars);
    T->access = IR_NEW_N(p->arena, poly_access, k->nvars);
    for (int v = 0; v < k->nvars; v++) {
      isl_set *R = NULL, *W = NULL;
      poly_input in = {v, 0, -1, 0, 0};
      task_var_access(p, a, t, v, &R, &W, &in);
      if (!R && !W) continue;
      int written = W != NULL;
      if (W && (in.flags & (POLY_IN_LIVEIN | POLY_IN_TASK))) in.flags |= POLY_IN_OLD;
      poly_access *ac = &T->access[T->naccess++];
      ac->var = v;
      ac->read = region(p, v, R, 0);
      /* When the task has the old value anyway (it reads it), a write that
       * is whole wherever it is not empty stays whole: the candidate keeps
       * the old values at the sizes where nothing is written, and the
       * verifier compares every element at every size case. */
      ac->write = region(p, v, W, !(in.flags & POLY_IN_OLD));
      if (written) task_output(p, a, t, ac, &in);
      if (in.flags) T->inputs[T->ninputs++] = in;
    }
  }
}

/* Has isl spent the operations it was given (isl_ctx_set_max_operations)?
 * isl says so only in the error of the operation that ran out, which a
 * later error can replace (the parser's "syntax error" around it); so ask
 * again: the count stays spent, and reading a set with a constraint to
 * satisfy takes a tableau pivot, which then fails with isl_error_quota. */
static int quota_spent(pass *p) {
  if (!isl_ctx_get_max_operations(p->ctx)) return 0;
  isl_ctx_reset_error(p->ctx);
  isl_set *probe = isl_set_read_from_str(p->ctx, "{ [x] : x >= 1 }");
  isl_bool empty = isl_set_is_empty(probe);
  isl_set_free(probe);
  return empty == isl_bool_error && isl_ctx_last_error(p->ctx) == isl_error_quota;
}

/* Did a budget run out during pass p: the time or the memory budget (isl
 * aborted by abort_isl) or the work budget (isl's operations spent,
 * quota_spent)?  Then a says which (a->out_of_budget), p is freed and 1 is
 * returned: whatever isl answered after the stop is not looked at. */
static int budget_out(pass *p, poly_analysis *a) {
  if (!p->ctx) return 0;
  if (isl_ctx_aborted(p->ctx))
    a->error = ir_budget_memory_out() ? "memory budget exhausted (--memory)"
                                      : "time budget exhausted (--timeout)";
  else if (quota_spent(p))
    a->error = ir_arena_printf(p->arena, "work budget exhausted (--work) after %lu isl operations",
                               isl_ctx_get_max_operations(p->ctx));
  else
    return 0;
  a->out_of_budget = 1;
  pass_free(p);
  return 1;
}

/* One analysis of kernel k into a.  With allow_expand, stops after the flow
 * graph if a local must be expanded and returns 1 with *want filled. */
static int run(const ir_kernel *k, ir_arena *arena, poly_analysis *a, int allow_expand,
               poly_expansion **want, int *nwant) {
  pass P;
  memset(&P, 0, sizeof P);
  pass *p = &P;
  p->k = k;
  p->arena = arena;
  p->n = k->nassign;
  if (p->n <= 0) {
    a->error = "the kernel has no assignment statements";
    return 0;
  }
  int failed = pass_build(p);
  if (budget_out(p, a)) return 0;
  if (failed) {
    char buf[640];
    a->error = ir_arena_strdup(arena, ir_error_str(&p->err, buf, sizeof buf));
    pass_free(p);
    return 0;
  }
  pass_graphs(p);
  if (budget_out(p, a)) return 0;
  if (allow_expand && (*nwant = plan_expansion(p, p->fcomp, want)) != 0) {
    pass_free(p);
    return 1;
  }
  copy_stmts(p, a);
  a->reductions = IR_NEW_N(arena, poly_reduction, p->n);
  for (int i = 0; i < p->n; i++) stmt_reduction(p, a, i);
  flow_cycles(p, a);
  carried_locals(p, a);
  a->raisable = p->why.n == 0;
  a->reason = p->why.n ? ir_arena_strdup(arena, sb_str(&p->why)) : NULL;
  order_tasks(p, a);
  task_io(p, a);
  value_spaces(p, a);
  if (budget_out(p, a)) return 0;
  pass_free(p);
  poly_keep_loops(a, arena);
  return 0;
}

/* One analysis of k, with the local expansion it asks for. */
static poly_analysis *analyze(const ir_kernel *k, ir_arena *arena) {
  poly_analysis *a = IR_NEW(arena, poly_analysis);
  a->kernel = k;
  poly_expansion *want = NULL;
  int nwant = 0;
  if (run(k, arena, a, 1, &want, &nwant) == 1) {
    const ir_kernel *x = poly_expand_kernel(k, want, nwant, arena);
    memset(a, 0, sizeof *a);
    a->kernel = x;
    a->transformed = 1;
    a->expanded = want;
    a->nexpanded = nwant;
    run(x, arena, a, 0, NULL, NULL);
  }
  if (a->error) a->raisable = 0;
  return a;
}

poly_analysis *poly_analyze(const ir_kernel *k, ir_arena *arena) {
  if (!k) return NULL;
  const char *was = ir_budget_phase_name();
  ir_budget_phase("analysis");
  poly_analysis *a = analyze(k, arena);
  ir_budget_phase(was);
  return a;
}

/* Is range(m) (taken) inside the box of its variable v at every size
 * assignment with sizes >= 1?  1 yes, 0 no or unknown. */
static int map_in_box(pass *p, __isl_take isl_map *m, int v) {
  isl_set *box = box_of(p, v);
  isl_set *r = isl_set_intersect_params(isl_map_range(m), context(p, 1));
  int in = box && r && isl_set_is_subset(r, box) == isl_bool_true;
  isl_set_free(box);
  isl_set_free(r);
  return in;
}

int poly_accesses_in_range(const ir_kernel *k) {
  if (!k || k->nassign <= 0) return 0;
  pass P;
  memset(&P, 0, sizeof P);
  pass *p = &P;
  ir_arena arena;
  ir_arena_init(&arena);
  p->k = k;
  p->arena = &arena;
  p->n = k->nassign;
  int in = pass_build(p) == 0;
  for (int i = 0; i < p->n && in; i++) {
    const st *t = &p->sts[i];
    in = map_in_box(p, isl_map_copy(t->write), t->s->lhs->var);
    for (int r = 0; r < t->nreads && in; r++)
      in = map_in_box(p, isl_map_copy(t->reads[r].map), t->reads[r].var);
  }
  pass_free(p);
  ir_arena_free(&arena);
  return in;
}

int poly_task_of(const poly_analysis *a, int stmt) {
  if (!a || stmt < 0 || stmt >= a->nstmts) return -1;
  return a->stmts[stmt].task;
}

int poly_cast_converts(const ir_expr *e) {
  if (e->kind != IR_EX_CAST) return 0;
  ir_elem to = e->type, from = e->args[0]->type;
  if (to == IR_I1 || from == IR_I1) return 0;
  if (ir_elem_is_int(to) && ir_elem_is_int(from)) return 1;
  /* int and floating: only integer element data other than int (an index
   * converted to double stays the fill of a constant, as before) */
  return (ir_elem_is_int(to) && to != IR_I32) || (ir_elem_is_int(from) && from != IR_I32);
}

const char *poly_op_name(unsigned bit) {
  static const char *names[POLY_OP_NBITS] = {
      "add", "sub", "mul", "div", "neg", "sqrt", "exp", "pow", "abs", "max",
      "min", "compare", "select", "logic", "reduce_add", "reduce_mul",
      "reduce_max", "reduce_min", "shift_left", "shift_right", "convert",
      "shifted_read", "reverse"};
  for (int i = 0; i < POLY_OP_NBITS; i++)
    if (bit == 1u << i) return names[i];
  return "?";
}

const char *poly_red_name(poly_red_op op) {
  switch (op) {
  case POLY_RED_ADD: return "+";
  case POLY_RED_MUL: return "*";
  case POLY_RED_MAX: return "max";
  case POLY_RED_MIN: return "min";
  default: return "none";
  }
}

/* ------------------------------------------------------------ size cases */

/* The parameter sets whose arrangement splits the size space (sizes >= 0)
 * into the cases a task and a candidate distinguish, collected as isl text
 * over the kernel's size parameters. */
typedef struct cases_pass {
  const ir_kernel *k;
  isl_ctx *ctx;
  sb params;
  isl_set **sets;
  int nsets, cap;
  int bad; /* an isl failure */
} cases_pass;

/* Add the parameter projection of the set written as text.  Returns 0, or
 * -1 (c->bad set) when isl does not read it. */
static void cases_keep(cases_pass *c, __isl_take isl_set *params) {
  if (c->nsets == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->sets = ir_realloc(c->sets, sizeof(isl_set *) * (size_t)c->cap);
  }
  c->sets[c->nsets++] = params;
}

/* The parameter projection of the set in text; with pairs, also, for each
 * of its dims, the sizes at which it holds two points that differ there:
 * a window that holds one element at the smallest sizes (i < j < n - 1
 * at n = i + 3) gets a case where it holds two, so a candidate whose mask
 * is one point (j == i + 1) is not checked at windows of one point only. */
static int cases_push_pairs(cases_pass *c, const char *text, int pairs) {
  isl_set *s = isl_set_read_from_str(c->ctx, text);
  if (!s) {
    c->bad = 1;
    return -1;
  }
  int n = pairs ? (int)isl_set_dim(s, isl_dim_set) : 0;
  for (int d = 0; d < n; d++) {
    isl_map *m = isl_map_from_domain_and_range(isl_set_copy(s), isl_set_copy(s));
    m = isl_map_order_lt(m, isl_dim_in, d, isl_dim_out, d);
    isl_set *p = m ? isl_map_params(m) : NULL;
    if (!p) {
      c->bad = 1;
      break;
    }
    cases_keep(c, p);
  }
  cases_keep(c, isl_set_params(s));
  return 0;
}


/* Add the parameter projection of "{ [it...] : cons }" (text over P and I
 * names; iters: the iterator ids of the tuple). */
static void cases_add_pairs(cases_pass *c, const int *iters, int n, const char *cons,
                            int pairs) {
  sb b = {0};
  sb_add(&b, "%s -> { [", sb_str(&c->params));
  for (int d = 0; d < n; d++) sb_add(&b, "%sI%d", d ? ", " : "", iters[d]);
  sb_add(&b, "]%s%s }", cons[0] ? " : " : "", cons);
  cases_push_pairs(c, sb_str(&b), pairs);
  sb_free(&b);
}

static void cases_add(cases_pass *c, const int *iters, int n, const char *cons) {
  cases_add_pairs(c, iters, n, cons, 0);
}

/* Both sides of every affine comparison in e, within domain text dom. */
static void cases_conds(cases_pass *c, const ir_expr *e, const int *iters, int n,
                        const char *dom) {
  if (!e) return;
  for (int i = 0; i < e->nargs; i++) cases_conds(c, e->args[i], iters, n, dom);
  if (e->kind < IR_EX_LT || e->kind > IR_EX_NE) return;
  for (int neg = 0; neg < 2; neg++) {
    sb t = {0};
    sb_add(&t, "%s%s", dom, dom[0] ? " and " : "");
    if (!cond(c->k, e, neg, &t)) cases_add(c, iters, n, sb_str(&t));
    sb_free(&t);
  }
}

/* Does the list s hold an assignment selected by mask (NULL: all)? */
static int cases_selected(const ir_stmt *s, const unsigned char *mask) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) {
      if (!mask || mask[s->id]) return 1;
    } else if (cases_selected(s->body, mask) || cases_selected(s->then_body, mask) ||
               cases_selected(s->else_body, mask)) {
      return 1;
    }
  }
  return 0;
}

/* Walk statements: each selected assignment adds the parameter sets of its
 * domain at every loop depth (where the loops are not empty) and of both
 * sides of each affine condition it evaluates. */
static void cases_walk(cases_pass *c, const ir_stmt *s, const unsigned char *mask,
                       int *iters, int depth, sb *dom) {
  for (; s; s = s->next) {
    size_t mark = dom->n;
    if (s->kind == IR_ST_ASSIGN) {
      if (mask && !mask[s->id]) continue;
      cases_add_pairs(c, iters, depth, sb_str(dom), 1);
      cases_conds(c, s->lhs, iters, depth, sb_str(dom));
      cases_conds(c, s->rhs, iters, depth, sb_str(dom));
    } else if (s->kind == IR_ST_FOR) {
      if (depth >= MAXDEPTH || !cases_selected(s->body, mask)) continue;
      cases_add(c, iters, depth, sb_str(dom));
      sb bnd = {0};
      if (bound(c->k, s->lo, s->iter, 1, &bnd) || bound(c->k, s->hi, s->iter, 0, &bnd)) {
        sb_free(&bnd);
        continue; /* not affine: analysis refuses such kernels anyway */
      }
      sb_add(dom, "%s%s", dom->n ? " and " : "", sb_str(&bnd));
      sb_free(&bnd);
      iters[depth] = s->iter;
      cases_walk(c, s->body, mask, iters, depth + 1, dom);
    } else {
      for (int neg = 0; neg < 2; neg++) {
        const ir_stmt *body = neg ? s->else_body : s->then_body;
        sb t = {0};
        int affine = !cond(c->k, s->cond, neg, &t);
        if (affine) sb_add(dom, "%s%s", dom->n ? " and " : "", sb_str(&t));
        sb_free(&t);
        cases_walk(c, body, mask, iters, depth, dom);
        dom->n = mark;
        if (dom->s) dom->s[mark] = 0;
      }
    }
    dom->n = mark;
    if (dom->s) dom->s[mark] = 0;
  }
}

/* One mask constraint as isl text over o0..: "expr >= 0" (negated: < 0). */
static void mask_con_text(const ir_mask_con *mc, int rank, int neg, sb *b) {
  sb e = {0};
  for (int d = 0; d < rank; d++)
    if (mc->coef[d]) sb_add(&e, "%s%d*o%d", e.n ? " + " : "", mc->coef[d], d);
  for (int q = 0; q < IR_MASK_MAX_SYMS; q++)
    if (mc->pcoef[q]) sb_add(&e, "%s%d*P%d", e.n ? " + " : "", mc->pcoef[q], mc->sym[q]);
  sb_add(&e, "%s%d", e.n ? " + " : "", mc->c);
  if (!neg) sb_add(b, "%s %s 0", sb_str(&e), mc->eq ? "=" : ">=");
  else if (mc->eq) sb_add(b, "(%s < 0 or %s > 0)", sb_str(&e), sb_str(&e));
  else sb_add(b, "%s < 0", sb_str(&e));
  sb_free(&e);
}

/* The parameter sets of a candidate's mask over its box: the box, the mask,
 * and both sides of each constraint. */
static void cases_mask(cases_pass *c, const ir_tnode *m) {
  sb box = {0};
  sb_add(&box, "%s -> { [", sb_str(&c->params));
  for (int d = 0; d < m->type.rank; d++) sb_add(&box, "%so%d", d ? ", " : "", d);
  sb_add(&box, "] : ");
  for (int d = 0; d < m->type.rank; d++) {
    if (m->type.dims[d] == IR_DIM_ONE) sb_add(&box, "0 <= o%d < 1 and ", d);
    else sb_add(&box, "0 <= o%d < P%d and ", d, m->type.dims[d]);
  }
  for (int i = -2; i < 2 * m->mask->ncons; i++) {
    sb t = {0};
    sb_add(&t, "%s", sb_str(&box));
    if (i == -2) { /* the mask, where it holds two points along a dim */
      for (int j = 0; j < m->mask->ncons; j++) {
        if (j) sb_add(&t, " and ");
        mask_con_text(&m->mask->cons[j], m->type.rank, 0, &t);
      }
      if (!m->mask->ncons) sb_add(&t, "1 = 1");
    } else if (i < 0) {
      sb_add(&t, "1 = 1");
    } else {
      mask_con_text(&m->mask->cons[i / 2], m->type.rank, i % 2, &t);
    }
    sb_add(&t, " }");
    int bad = cases_push_pairs(c, sb_str(&t), i == -2);
    sb_free(&t);
    if (bad) break;
  }
  sb_free(&box);
}

/* The representative of a non-empty parameter set (taken): the point with
 * the smallest sum of sizes, then the lexicographic minimum.  Fills
 * out[var id] for every size parameter; -1 on failure. */
static int cell_point(cases_pass *c, __isl_take isl_set *cell, long *out) {
  int np = (int)isl_set_dim(cell, isl_dim_param);
  sb b = {0};
  sb_add(&b, "%s -> { [s] : s = 0", sb_str(&c->params));
  for (int v = 0; v < c->k->nvars; v++)
    if (c->k->vars[v]->kind == IR_VAR_SIZE) sb_add(&b, " + P%d", v);
  sb_add(&b, " }");
  isl_set *sum = isl_set_read_from_str(c->ctx, sb_str(&b));
  sb_free(&b);
  isl_set *x = isl_set_intersect_params(sum, cell);
  int *var = ir_calloc((size_t)np + 1, sizeof(int));
  for (int i = 0; x && i < np; i++) {
    const char *nm = isl_set_get_dim_name(x, isl_dim_param, (unsigned)i);
    var[i] = nm && nm[0] == 'P' ? atoi(nm + 1) : -1;
  }
  x = isl_set_move_dims(x, isl_dim_set, 1, isl_dim_param, 0, (unsigned)np);
  x = isl_set_lexmin(x);
  isl_point *pt = x ? isl_set_sample_point(x) : NULL;
  int ok = pt && !isl_point_is_void(pt) ? 0 : -1;
  for (int i = 0; !ok && i < np; i++) {
    isl_val *val = isl_point_get_coordinate_val(pt, isl_dim_set, 1 + i);
    if (var[i] >= 0 && val) out[var[i]] = isl_val_get_num_si(val);
    isl_val_free(val);
  }
  isl_point_free(pt);
  ir_free(var);
  return ok;
}

int poly_size_cases_build(const ir_kernel *k, const unsigned char *mask, int nmasks,
                          const ir_tnode *const *masks, int budget, poly_size_cases *out) {
  memset(out, 0, sizeof *out);
  cases_pass c;
  memset(&c, 0, sizeof c);
  c.k = k;
  c.ctx = isl_ctx_alloc();
  isl_options_set_on_error(c.ctx, ISL_ON_ERROR_CONTINUE);
  sb_add(&c.params, "[");
  int np = 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sb_add(&c.params, "%sP%d", np++ ? ", " : "", v);
  sb_add(&c.params, "]");
  int iters[MAXDEPTH];
  sb dom = {0};
  cases_walk(&c, k->body, mask, iters, 0, &dom);
  sb_free(&dom);
  for (int i = 0; i < nmasks; i++)
    if (masks[i] && masks[i]->kind == IR_TN_MASK && masks[i]->mask) cases_mask(&c, masks[i]);
  /* the arrangement: refine the cells by each set (inside, outside) */
  sb u = {0};
  sb_add(&u, "%s -> { : 1 = 1", sb_str(&c.params));
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sb_add(&u, " and P%d >= 0", v);
  if (kept_context(k, &u)) c.bad = 1; /* the body runs only where they hold */
  sb_add(&u, " }");
  int ncells = 1, cap = budget > 0 ? budget : 1;
  isl_set **cells = ir_calloc((size_t)cap * 2 + 2, sizeof(isl_set *));
  cells[0] = isl_set_read_from_str(c.ctx, sb_str(&u));
  sb_free(&u);
  if (!cells[0]) c.bad = 1;
  int over = 0;
  for (int si = 0; si < c.nsets && !c.bad && !over; si++) {
    isl_set **next = ir_calloc((size_t)cap * 2 + 2, sizeof(isl_set *));
    int nn = 0;
    for (int ci = 0; ci < ncells; ci++) {
      isl_set *in = isl_set_intersect(isl_set_copy(cells[ci]), isl_set_copy(c.sets[si]));
      isl_set *outs = isl_set_subtract(isl_set_copy(cells[ci]), isl_set_copy(c.sets[si]));
      isl_set *two[2] = {in, outs};
      for (int h = 0; h < 2; h++) {
        isl_bool e = two[h] ? isl_set_is_empty(two[h]) : isl_bool_error;
        if (e == isl_bool_error) c.bad = 1;
        if (e != isl_bool_false) {
          isl_set_free(two[h]);
          continue;
        }
        next[nn++] = isl_set_coalesce(two[h]);
      }
    }
    if (nn > cap) { /* over budget: keep the coarser cells */
      over = 1;
      out->left_out = nn - ncells;
      for (int i = 0; i < nn; i++) isl_set_free(next[i]);
      ir_free(next);
      break;
    }
    for (int ci = 0; ci < ncells; ci++) isl_set_free(cells[ci]);
    ir_free(cells);
    cells = next;
    ncells = nn;
  }
  if (!c.bad) {
    out->cases = ir_calloc((size_t)ncells * (size_t)k->nvars + 1, sizeof(long));
    for (int ci = 0; ci < ncells; ci++) {
      long *cs = out->cases + (long)out->ncases * k->nvars;
      if (cell_point(&c, isl_set_copy(cells[ci]), cs) == 0) out->ncases++;
      else out->left_out++;
    }
  }
  for (int ci = 0; ci < ncells; ci++) isl_set_free(cells[ci]);
  ir_free(cells);
  for (int i = 0; i < c.nsets; i++) isl_set_free(c.sets[i]);
  ir_free(c.sets);
  sb_free(&c.params);
  isl_ctx_free(c.ctx);
  if (c.bad) {
    poly_size_cases_free(out);
    return -1;
  }
  return 0;
}

void poly_size_cases_free(poly_size_cases *sc) {
  ir_free(sc->cases);
  memset(sc, 0, sizeof *sc);
}

/* ------------------------------------------------- affine text (affine.h) */

int poly_aff_text(const ir_kernel *k, const ir_expr *e, ir_buf *b) { return aff(k, e, b); }

int poly_bound_text(const ir_kernel *k, const ir_expr *e, int iter, int lower, ir_buf *b) {
  return bound(k, e, iter, lower, b);
}

int poly_cond_text(const ir_kernel *k, const ir_expr *e, int neg, ir_buf *b) {
  return cond(k, e, neg, b);
}
