/*
 * allsizes.c - the proof for every size assignment of a task and a
 * candidate that are affine sums of products (docs/verify.md, "All
 * sizes"; issue 12).
 *
 * Both sides become a normal form: a list of terms, each a sign, a
 * multiset of scalar atoms (rank-0 inputs such as alpha, and literals
 * other than +-1, as in verify/keys.c), a product of array reads (an array
 * and affine index expressions) and a domain, an isl formula over the size
 * parameters P<var>, the output indices and the term's bound variables.
 * Every variable is a K<id> (ids fresh in one call): a form's output
 * indices ov[] are K's too, so that instantiating a form at other indices
 * is a substitution of tokens.  The value of a form at an output index o
 * is the sum over its terms of sign * atoms * the sum, over the bound
 * variables in the domain, of the product of the reads.
 *
 * Source: the task's assignments run statement by statement over all their
 * instances at once (valid when no dependence of the analysis goes from a
 * later statement back to an earlier one): `=` and `*=` with an injective
 * write replace the value where they write, `+=` and `-=` add a sum over
 * the instances that write the element (the iterators become bound
 * variables); a read of an array written earlier in the task substitutes
 * its form.  Candidate: the op kernels' meaning (interp/ops.c) for add,
 * sub, neg, mul, select on a mask leaf, dot_general, reduce (add),
 * transpose, broadcast_in_dim, reshape (1-dims only) and constants.
 * Anything else is "not within reach", with the construct named.
 *
 * Equality: terms are grouped by signature (sign, atoms, arrays read);
 * each term's map from (sizes, output index, bound variables) to (output
 * index, read indices), reads of one array in lexicographic order, must be
 * injective; then for each group the number of terms whose image holds a
 * point must be the same on both sides, at every point, for every size
 * assignment (a disjoint refinement of the images, counts compared piece
 * by piece).  Positive and negative terms are counted apart, so nothing
 * cancels, as the outcome keys of real mode count them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>

#include "polyhedral/affine.h"
#include "polyhedral/polyhedral.h"

#define AS_FACT 8      /* atoms, or reads, of one term */
#define AS_BOUND 32    /* bound variables of one term */
#define AS_TERMS 256   /* terms of one form */
#define AS_LITS 64     /* distinct literals */
#define AS_DEPTH 32    /* loops around a statement */
#define AS_ISL_OPS 20000000UL /* isl operations of one proof */

typedef struct term {
  int sign;                             /* +1 or -1 */
  int natoms;
  int atoms[AS_FACT];                   /* var id >= 0, or -1 - literal index */
  int nreads;
  int rvar[AS_FACT];                    /* array var ids */
  const char *ridx[AS_FACT][IR_MAX_RANK]; /* index expressions */
  int nk;
  int k[AS_BOUND];                      /* bound variables */
  const char *dom;                      /* NULL: true */
} term;

typedef struct form {
  int rank;
  int ov[IR_MAX_RANK]; /* output index variables */
  int n, cap;
  term *t;
} form;

/* The value of a variable the source task writes, and where it is
 * defined (NULL: everywhere, a parameter or an input). */
typedef struct state {
  form *f;
  const char *defined;
} state;

typedef struct as {
  const poly_all_sizes_task *t;
  const ir_kernel *k;
  ir_arena ar;
  int nk;            /* next K id */
  int failed;
  char *why;
  size_t nwhy;
  double lit[AS_LITS];
  int nlit;
  isl_ctx *ctx;
  ir_buf params;     /* "[P1, P4]" */
  ir_buf pos;        /* "P1 >= 0 and P4 >= 0" */
  state *st;         /* [nvars] */
} as;

/* Statement context of a source expression. */
typedef struct sctx {
  const ir_stmt *s;
  ir_assign_op op;   /* s as an accumulation (ir_stmt_accumulation) */
  const ir_expr *rhs; /* its value, or its summand */
  const char *dom;   /* the statement's domain over its K's */
  int nkid;
  const int *iters;  /* its iterators (var ids) */
  const int *kid;    /* their K ids */
  const char *f[IR_MAX_RANK]; /* the written index */
} sctx;

static void fail(as *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(as *c, const char *fmt, ...) {
  if (c->failed) return;
  c->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  if (c->why && c->nwhy) vsnprintf(c->why, c->nwhy, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------ text */

static const char *kname(as *c, int id) { return ir_arena_printf(&c->ar, "K%d", id); }

/* s with every token <prefix><digits> whose number is from[i] replaced by
 * to[i] (other tokens kept). */
static const char *subst(as *c, const char *s, char prefix, int n, const int *from,
                         const char *const *to) {
  if (!s) return NULL;
  ir_buf b = {0};
  for (const char *p = s; *p;) {
    int start = *p == prefix && p[1] >= '0' && p[1] <= '9' &&
                (p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                             (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')));
    if (!start) {
      ir_buf_add(&b, p, 1);
      p++;
      continue;
    }
    char *end;
    long id = strtol(p + 1, &end, 10);
    int i = 0;
    while (i < n && from[i] != id) i++;
    if (i < n) ir_buf_puts(&b, to[i]);
    else ir_buf_add(&b, p, (size_t)(end - p));
    p = end;
  }
  const char *r = ir_arena_strdup(&c->ar, ir_buf_str(&b));
  ir_buf_free(&b);
  return r;
}

/* "(a) and (b)"; NULL is true. */
static const char *and_text(as *c, const char *a, const char *b) {
  if (!a) return b;
  if (!b) return a;
  return ir_arena_printf(&c->ar, "(%s) and (%s)", a, b);
}

/* The affine expression e as text over P and K names (iterators mapped by
 * the statement context); NULL (and failed) if not affine. */
static const char *aff_text(as *c, const ir_expr *e, const int *iters, int depth,
                            const int *kid) {
  ir_buf b = {0};
  if (poly_aff_text(c->k, e, &b)) {
    ir_buf_free(&b);
    fail(c, "a subscript or bound that is not affine");
    return NULL;
  }
  const char *to[AS_DEPTH];
  for (int d = 0; d < depth; d++) to[d] = kname(c, kid[d]);
  const char *r = subst(c, ir_buf_str(&b), 'I', depth, iters, to);
  ir_buf_free(&b);
  return ir_arena_printf(&c->ar, "(%s)", r);
}

/* "0 <= idx_d < dim_d and ..." for variable v at indices idx; NULL for a
 * scalar. */
static const char *var_box(as *c, int v, const char *const *idx) {
  const ir_var *var = c->k->vars[v];
  const char *r = NULL;
  for (int d = 0; d < var->rank; d++) {
    ir_buf b = {0};
    if (poly_aff_text(c->k, var->dims[d], &b)) {
      ir_buf_free(&b);
      fail(c, "%s has a dim that is not affine in the sizes", var->name);
      return NULL;
    }
    r = and_text(c, r, ir_arena_printf(&c->ar, "0 <= %s < %s", idx[d], ir_buf_str(&b)));
    ir_buf_free(&b);
  }
  return r;
}

/* The box of a candidate type at output variables ov. */
static const char *type_box(as *c, const ir_type *ty, const int *ov) {
  const char *r = NULL;
  for (int d = 0; d < ty->rank; d++)
    r = and_text(c, r, ty->dims[d] == IR_DIM_ONE ? ir_arena_printf(&c->ar, "K%d = 0", ov[d])
                                             : ir_arena_printf(&c->ar, "0 <= K%d < P%d", ov[d],
                                                               ty->dims[d]));
  return r;
}

/* ------------------------------------------------------------ isl */

/* Is "{ [vars] : text }" empty for every size assignment?  1 yes, 0 no,
 * -1 (failed) on an isl error. */
static int set_empty(as *c, int nv, const int *vars, const char *text) {
  ir_buf b = {0};
  ir_buf_printf(&b, "%s -> { [", ir_buf_str(&c->params));
  for (int i = 0; i < nv; i++) ir_buf_printf(&b, "%sK%d", i ? ", " : "", vars[i]);
  ir_buf_printf(&b, "] : %s and (%s) }", ir_buf_str(&c->pos), text ? text : "1 = 1");
  isl_set *s = isl_set_read_from_str(c->ctx, ir_buf_str(&b));
  ir_buf_free(&b);
  int r = s ? isl_set_is_empty(s) : -1;
  isl_set_free(s);
  if (r < 0) fail(c, "an isl failure (or its operation budget ran out)");
  return r;
}

/* ------------------------------------------------------------ forms */

static form *form_new(as *c, int rank) {
  form *f = IR_NEW(&c->ar, form);
  f->rank = rank;
  for (int d = 0; d < rank; d++) f->ov[d] = c->nk++;
  return f;
}

static void push(as *c, form *f, const term *t) {
  if (c->failed) return;
  if (f->n == AS_TERMS) {
    fail(c, "more than %d terms", AS_TERMS);
    return;
  }
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 8;
    term *nt = IR_NEW_N(&c->ar, term, cap);
    if (f->n) memcpy(nt, f->t, sizeof(term) * (size_t)f->n);
    f->t = nt;
    f->cap = cap;
  }
  f->t[f->n++] = *t;
}

static int literal(as *c, double v) {
  for (int i = 0; i < c->nlit; i++)
    if (c->lit[i] == v) return -1 - i;
  if (c->nlit == AS_LITS) {
    fail(c, "more than %d literals", AS_LITS);
    return -1;
  }
  c->lit[c->nlit] = v;
  return -1 - c->nlit++;
}

/* A term for the constant v (none for 0): sign, and |v| as an atom unless
 * it is 1. */
static void push_const(as *c, form *f, double v, const char *dom) {
  if (v == 0) return;
  if (!isfinite(v)) {
    fail(c, "a literal that is not finite");
    return;
  }
  term t;
  memset(&t, 0, sizeof t);
  t.sign = v < 0 ? -1 : 1;
  if (v < 0) v = -v;
  if (v != 1) t.atoms[t.natoms++] = literal(c, v);
  t.dom = dom;
  push(c, f, &t);
}

/* Term t with its output variables ov[0..nov) replaced by the texts to[]
 * and its bound variables renamed to fresh ones. */
static void inst(as *c, const term *t, int nov, const int *ov, const char *const *to,
                 term *out) {
  int from[IR_MAX_RANK + AS_BOUND];
  const char *tt[IR_MAX_RANK + AS_BOUND];
  int n = 0;
  *out = *t;
  for (int d = 0; d < nov; d++) {
    from[n] = ov[d];
    tt[n++] = to[d];
  }
  for (int j = 0; j < t->nk; j++) {
    out->k[j] = c->nk++;
    from[n] = t->k[j];
    tt[n++] = kname(c, out->k[j]);
  }
  out->dom = subst(c, t->dom, 'K', n, from, tt);
  for (int r = 0; r < t->nreads; r++)
    for (int d = 0; d < c->k->vars[t->rvar[r]]->rank; d++)
      out->ridx[r][d] = subst(c, t->ridx[r][d], 'K', n, from, tt);
}

/* Every term of x instantiated at to[] (x's output variables), with dom
 * and bound variables kb[0..nkb) added, pushed to out with sign s. */
static void inst_all(as *c, const form *x, const char *const *to, const char *dom, int nkb,
                     const int *kb, int s, form *out) {
  for (int i = 0; i < x->n && !c->failed; i++) {
    term t;
    inst(c, &x->t[i], x->rank, x->ov, to, &t);
    t.sign *= s;
    t.dom = and_text(c, t.dom, dom);
    if (t.nk + nkb > AS_BOUND) {
      fail(c, "more than %d bound variables in a term", AS_BOUND);
      return;
    }
    for (int j = 0; j < nkb; j++) t.k[t.nk++] = kb[j];
    push(c, out, &t);
  }
}

/* The product of two terms (both already over the same indices). */
static void product(as *c, const term *a, const term *b, term *out) {
  if (a->natoms + b->natoms > AS_FACT || a->nreads + b->nreads > AS_FACT ||
      a->nk + b->nk > AS_BOUND) {
    fail(c, "a product of more than %d factors", AS_FACT);
    return;
  }
  *out = *a;
  out->sign = a->sign * b->sign;
  for (int i = 0; i < b->natoms; i++) out->atoms[out->natoms++] = b->atoms[i];
  for (int i = 0; i < b->nreads; i++) {
    out->rvar[out->nreads] = b->rvar[i];
    memcpy(out->ridx[out->nreads++], b->ridx[i], sizeof b->ridx[i]);
  }
  for (int i = 0; i < b->nk; i++) out->k[out->nk++] = b->k[i];
  out->dom = and_text(c, a->dom, b->dom);
}

/* x * y (both of rank 0 or over the same output variables) into out. */
static void mul_forms(as *c, const form *x, const form *y, form *out) {
  for (int i = 0; i < x->n && !c->failed; i++)
    for (int j = 0; j < y->n && !c->failed; j++) {
      term t;
      product(c, &x->t[i], &y->t[j], &t);
      push(c, out, &t);
    }
}

/* ------------------------------------------------------------ source */

static int is_input(as *c, int v) {
  for (int i = 0; i < c->t->nin; i++)
    if (c->t->in_vars[i] == v) return 1;
  return 0;
}

static int is_param(as *c, int v) {
  ir_var_kind k = c->k->vars[v]->kind;
  return k == IR_VAR_ARRAY || k == IR_VAR_SCALAR;
}

/* A term reading v at idx (an atom for a scalar). */
static void read_term(as *c, int v, const char *const *idx, term *t) {
  memset(t, 0, sizeof *t);
  t->sign = 1;
  if (c->k->vars[v]->rank == 0) {
    t->atoms[t->natoms++] = v;
  } else {
    t->rvar[0] = v;
    for (int d = 0; d < c->k->vars[v]->rank; d++) t->ridx[0][d] = idx[d];
    t->nreads = 1;
  }
}

/* The state of v, made on first use: a parameter or an input holds its
 * old value everywhere, a local nothing (defined nowhere). */
static state *get_state(as *c, int v) {
  state *s = &c->st[v];
  if (s->f) return s;
  const ir_var *var = c->k->vars[v];
  s->f = form_new(c, var->rank);
  const char *idx[IR_MAX_RANK];
  for (int d = 0; d < var->rank; d++) idx[d] = kname(c, s->f->ov[d]);
  if (is_param(c, v) || is_input(c, v)) {
    term t;
    read_term(c, v, idx, &t);
    t.dom = var_box(c, v, idx);
    push(c, s->f, &t);
    s->defined = NULL;
  } else {
    s->defined = "1 = 0";
  }
  return s;
}

/* Check an access to v at idx by every instance of the statement: within
 * v's box, and (for a local) where it is defined. */
static void check_access(as *c, const sctx *x, int v, const char *const *idx) {
  const ir_var *var = c->k->vars[v];
  const char *box = var_box(c, v, idx);
  if (c->failed) return;
  if (box && set_empty(c, x->nkid, x->kid, and_text(c, x->dom, ir_arena_printf(&c->ar, "not (%s)", box))) != 1) {
    fail(c, "an access to %s may be out of its bounds", var->name);
    return;
  }
  const state *s = &c->st[v];
  if (s->f && s->defined) {
    const char *to[IR_MAX_RANK];
    for (int d = 0; d < var->rank; d++) to[d] = idx[d];
    const char *def = subst(c, s->defined, 'K', var->rank, s->f->ov, to);
    if (set_empty(c, x->nkid, x->kid, and_text(c, x->dom, ir_arena_printf(&c->ar, "not (%s)", def))) != 1)
      fail(c, "%s is read where the task has not written it", var->name);
  }
}

static void src_expr(as *c, const ir_expr *e, const sctx *x, form *out);

/* A read of variable v (rank 0 or an element) inside statement x. */
static void src_read(as *c, const ir_expr *e, const sctx *x, form *out) {
  int v = e->var;
  const ir_var *var = c->k->vars[v];
  if (!ir_elem_is_float(var->elem)) {
    fail(c, "%s is not floating point", var->name);
    return;
  }
  const char *idx[IR_MAX_RANK];
  for (int d = 0; d < var->rank; d++)
    if (!(idx[d] = aff_text(c, e->args[d], x->iters, x->nkid, x->kid))) return;
  const ir_expr *lhs = x->s->lhs;
  if (v == lhs->var) {
    if (x->op == IR_ASSIGN_ADD || x->op == IR_ASSIGN_SUB) {
      fail(c, "an accumulation into %s that reads %s", var->name, var->name);
      return;
    }
    for (int d = 0; d < var->rank; d++)
      if (strcmp(idx[d], x->f[d])) {
        fail(c, "a statement reads %s at another element than it writes", var->name);
        return;
      }
  }
  check_access(c, x, v, idx);
  if (c->failed) return;
  if (c->st[v].f) {
    inst_all(c, c->st[v].f, idx, NULL, 0, NULL, 1, out);
  } else if (is_param(c, v) || is_input(c, v)) {
    term t;
    read_term(c, v, idx, &t);
    push(c, out, &t);
  } else {
    fail(c, "%s is read before the task writes it", var->name);
  }
}

/* The value of a data expression of statement x as a rank-0 form. */
static void src_expr(as *c, const ir_expr *e, const sctx *x, form *out) {
  if (c->failed) return;
  switch (e->kind) {
  case IR_EX_CONST: push_const(c, out, e->value, NULL); return;
  case IR_EX_VAR: {
    ir_var_kind k = c->k->vars[e->var]->kind;
    if (k == IR_VAR_SIZE || k == IR_VAR_ITER) {
      fail(c, "an integer index used as a value");
      return;
    }
    src_read(c, e, x, out);
    return;
  }
  case IR_EX_ELEM: src_read(c, e, x, out); return;
  case IR_EX_NEG:
  case IR_EX_ADD:
  case IR_EX_SUB: {
    form *a = form_new(c, 0);
    src_expr(c, e->args[0], x, a);
    for (int i = 0; i < a->n; i++) push(c, out, &a->t[i]);
    if (e->kind == IR_EX_NEG) {
      for (int i = out->n - a->n; i < out->n; i++) out->t[i].sign = -out->t[i].sign;
      return;
    }
    form *b = form_new(c, 0);
    src_expr(c, e->args[1], x, b);
    for (int i = 0; i < b->n; i++) {
      term t = b->t[i];
      if (e->kind == IR_EX_SUB) t.sign = -t.sign;
      push(c, out, &t);
    }
    return;
  }
  case IR_EX_MUL: {
    form *a = form_new(c, 0), *b = form_new(c, 0);
    src_expr(c, e->args[0], x, a);
    src_expr(c, e->args[1], x, b);
    mul_forms(c, a, b, out);
    return;
  }
  case IR_EX_CAST:
    if (e->type != e->args[0]->type) {
      fail(c, "a cast (a rounding, or an integer value)");
      return;
    }
    src_expr(c, e->args[0], x, out);
    return;
  case IR_EX_DIV: fail(c, "a division"); return;
  case IR_EX_CALL: fail(c, "a call of %s", ir_fn_name(e->fn)); return;
  case IR_EX_SELECT: fail(c, "a select (?:)"); return;
  default: fail(c, "a comparison or logic in a value"); return;
  }
}

/* Run assignment s (selected) over its domain dom (I names of iters). */
static void src_stmt(as *c, const ir_stmt *s, const int *iters, int depth, const char *dom) {
  int kid[AS_DEPTH];
  const char *to[AS_DEPTH];
  for (int d = 0; d < depth; d++) {
    kid[d] = c->nk++;
    to[d] = kname(c, kid[d]);
  }
  sctx x;
  memset(&x, 0, sizeof x);
  x.s = s;
  x.op = ir_stmt_accumulation(s, &x.rhs);
  x.dom = subst(c, dom, 'I', depth, iters, to);
  x.nkid = depth;
  x.iters = iters;
  x.kid = kid;
  int v = s->lhs->var;
  const ir_var *var = c->k->vars[v];
  if (var->kind == IR_VAR_SCALAR || !ir_elem_is_float(var->elem)) {
    fail(c, "a write to %s", var->name);
    return;
  }
  for (int d = 0; d < var->rank; d++) {
    ir_buf b = {0};
    if (poly_aff_text(c->k, s->lhs->args[d], &b)) {
      ir_buf_free(&b);
      fail(c, "a subscript that is not affine");
      return;
    }
    x.f[d] = ir_arena_printf(&c->ar, "(%s)", subst(c, ir_buf_str(&b), 'I', depth, iters, to));
    ir_buf_free(&b);
  }
  state *st = get_state(c, v);
  form *old = st->f;
  /* the rhs: its reads see the statement's iterators as K names */
  form *e = form_new(c, 0);
  src_expr(c, x.rhs, &x, e);
  if (c->failed) return;
  /* W: the elements the statement writes, over old's output variables */
  const char *eqs = NULL;
  for (int d = 0; d < var->rank; d++)
    eqs = and_text(c, eqs, ir_arena_printf(&c->ar, "K%d = %s", old->ov[d], x.f[d]));
  ir_buf w = {0};
  if (depth) {
    ir_buf_puts(&w, "exists (");
    for (int d = 0; d < depth; d++) ir_buf_printf(&w, "%sK%d", d ? ", " : "", kid[d]);
    ir_buf_printf(&w, " : %s)", and_text(c, and_text(c, x.dom, eqs), "1 = 1"));
  } else {
    ir_buf_printf(&w, "(%s)", and_text(c, and_text(c, x.dom, eqs), "1 = 1"));
  }
  const char *W = ir_arena_strdup(&c->ar, ir_buf_str(&w));
  ir_buf_free(&w);
  if (x.op == IR_ASSIGN_DIV) {
    fail(c, "a division (/=)");
    return;
  }
  if (x.op == IR_ASSIGN_ADD || x.op == IR_ASSIGN_SUB || x.op == IR_ASSIGN_MUL)
    check_access(c, &x, v, x.f);
  else {
    const char *box = var_box(c, v, x.f);
    if (box && set_empty(c, depth, kid, and_text(c, x.dom, ir_arena_printf(&c->ar, "not (%s)", box))) != 1)
      fail(c, "a write to %s may be out of its bounds", var->name);
  }
  if (c->failed) return;
  form *nf = form_new(c, 0);
  memcpy(nf->ov, old->ov, sizeof nf->ov);
  nf->rank = old->rank;
  const char *wdom = and_text(c, x.dom, eqs);
  if (x.op == IR_ASSIGN_ADD || x.op == IR_ASSIGN_SUB) {
    for (int i = 0; i < old->n; i++) push(c, nf, &old->t[i]);
    inst_all(c, e, NULL, wdom, depth, kid, x.op == IR_ASSIGN_SUB ? -1 : 1, nf);
  } else {
    /* one instance per element: the map from instances to elements is
     * injective */
    ir_buf m = {0};
    ir_buf_printf(&m, "%s -> { [", ir_buf_str(&c->params));
    for (int d = 0; d < depth; d++) ir_buf_printf(&m, "%sK%d", d ? ", " : "", kid[d]);
    ir_buf_puts(&m, "] -> [");
    for (int d = 0; d < var->rank; d++) ir_buf_printf(&m, "%s%s", d ? ", " : "", x.f[d]);
    ir_buf_printf(&m, "] : %s and (%s) }", ir_buf_str(&c->pos), x.dom ? x.dom : "1 = 1");
    isl_map *mp = isl_map_read_from_str(c->ctx, ir_buf_str(&m));
    ir_buf_free(&m);
    int inj = mp ? isl_map_is_injective(mp) : -1;
    isl_map_free(mp);
    if (inj != 1) {
      fail(c, "a statement writes an element of %s more than once", var->name);
      return;
    }
    const char *keep = ir_arena_printf(&c->ar, "not (%s)", W);
    for (int i = 0; i < old->n && !c->failed; i++) {
      term t = old->t[i];
      t.dom = and_text(c, t.dom, keep);
      push(c, nf, &t);
    }
    form *val = e;
    if (x.op == IR_ASSIGN_MUL) {
      form *o = form_new(c, 0);
      inst_all(c, old, x.f, NULL, 0, NULL, 1, o);
      val = form_new(c, 0);
      mul_forms(c, o, e, val);
    }
    /* e's terms over the statement's K's, which become bound variables of
     * the written element (one instance each) */
    for (int i = 0; i < val->n && !c->failed; i++) {
      term t = val->t[i];
      t.dom = and_text(c, t.dom, wdom);
      if (t.nk + depth > AS_BOUND) {
        fail(c, "more than %d bound variables in a term", AS_BOUND);
        return;
      }
      for (int d = 0; d < depth; d++) t.k[t.nk++] = kid[d];
      push(c, nf, &t);
    }
    if (st->defined) st->defined = ir_arena_printf(&c->ar, "(%s) or (%s)", st->defined, W);
  }
  st->f = nf;
}

/* Does the list s hold an assignment of the task? */
static int selected(as *c, const ir_stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) {
      if (!c->t->mask || c->t->mask[s->id]) return 1;
    } else if (selected(c, s->body) || selected(c, s->then_body) || selected(c, s->else_body)) {
      return 1;
    }
  }
  return 0;
}

/* Walk the kernel's statements in textual order, running the selected
 * ones; dom: the affine conditions and loop bounds around (I names). */
static void src_walk(as *c, const ir_stmt *s, int *iters, int depth, const char *dom) {
  for (; s && !c->failed; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) {
      if (c->t->mask && !c->t->mask[s->id]) continue;
      src_stmt(c, s, iters, depth, dom);
    } else if (s->kind == IR_ST_FOR) {
      if (depth == AS_DEPTH) {
        fail(c, "more than %d loops", AS_DEPTH);
        return;
      }
      ir_buf b = {0};
      if (poly_bound_text(c->k, s->lo, s->iter, 1, &b) ||
          poly_bound_text(c->k, s->hi, s->iter, 0, &b)) {
        ir_buf_free(&b);
        fail(c, "a loop bound that is not affine");
        return;
      }
      iters[depth] = s->iter;
      src_walk(c, s->body, iters, depth + 1, and_text(c, dom, ir_arena_strdup(&c->ar, ir_buf_str(&b))));
      ir_buf_free(&b);
    } else {
      for (int neg = 0; neg < 2; neg++) {
        ir_buf b = {0};
        int data = poly_cond_text(c->k, s->cond, neg, &b);
        const char *cd = ir_arena_strdup(&c->ar, ir_buf_str(&b));
        ir_buf_free(&b);
        const ir_stmt *body = neg ? s->else_body : s->then_body;
        if (data) {
          if (selected(c, s->then_body) || selected(c, s->else_body)) {
            fail(c, "a data-dependent if");
            return;
          }
          break;
        }
        src_walk(c, body, iters, depth, and_text(c, dom, cd));
      }
    }
  }
}

/* ------------------------------------------------------------ candidate */

static void cand(as *c, const ir_tnode *n, form *out);

/* The texts at which an operand of type ty is read in a result over ov
 * (rank R), broadcast as the elementwise kernels do (trailing dims
 * aligned; a dim of 1 against a larger one reads index 0). */
static void bcast_to(as *c, const ir_type *ty, const ir_type *res, const int *ov,
                     const char **to) {
  for (int j = 0; j < ty->rank; j++) {
    int rd = j + res->rank - ty->rank;
    to[j] = ty->dims[j] == IR_DIM_ONE && res->dims[rd] != IR_DIM_ONE ? "0" : kname(c, ov[rd]);
  }
}

/* A mask's constraints at the index texts idx, as a formula. */
static const char *mask_text(as *c, const ir_mask *m, int rank, const char *const *idx) {
  const char *r = NULL;
  for (int i = 0; i < m->ncons; i++) {
    const ir_mask_con *mc = &m->cons[i];
    ir_buf b = {0};
    for (int d = 0; d < rank; d++)
      if (mc->coef[d]) ir_buf_printf(&b, "%d*%s + ", mc->coef[d], idx[d]);
    for (int q = 0; q < IR_MASK_MAX_SYMS; q++)
      if (mc->pcoef[q]) ir_buf_printf(&b, "%d*P%d + ", mc->pcoef[q], mc->sym[q]);
    ir_buf_printf(&b, "%d %s 0", mc->c, mc->eq ? "=" : ">=");
    r = and_text(c, r, ir_arena_strdup(&c->ar, ir_buf_str(&b)));
    ir_buf_free(&b);
  }
  return r ? r : "1 = 1";
}

/* The operands of an op node bound to its kernel: forms and types (a
 * constant operand is a rank-0 form). */
typedef struct kargs {
  poly_binding b;
  form *f[INTERP_MAX_ARGS];
  ir_type ty[INTERP_MAX_ARGS];
  int mask[INTERP_MAX_ARGS]; /* a mask leaf: no form (a select's predicate only) */
} kargs;

static int cand_args(as *c, const ir_tnode *n, kargs *ka) {
  memset(ka, 0, sizeof *ka);
  if (!c->t->bind || c->t->bind(c->t->bind_user, n, &ka->b) || !ka->b.kernel) {
    fail(c, "op %s has no kernel binding", n->op->name);
    return -1;
  }
  for (int i = 0; i < ka->b.nargs && !c->failed; i++) {
    if (ka->b.args[i] >= 0 && ka->b.args[i] < n->nops) {
      const ir_tnode *o = n->ops[ka->b.args[i]];
      ka->ty[i] = o->type;
      ka->f[i] = form_new(c, o->type.rank);
      ka->mask[i] = o->kind == IR_TN_MASK;
      if (!ka->mask[i]) cand(c, o, ka->f[i]);
    } else {
      ka->ty[i].elem = n->type.elem;
      ka->f[i] = form_new(c, 0);
      push_const(c, ka->f[i], ka->b.kconst[i], NULL);
    }
  }
  return c->failed ? -1 : 0;
}

/* Operand i of ka read elementwise into out (over out's indices), sign s,
 * with dom added. */
static void cand_elementwise(as *c, const kargs *ka, int i, const ir_type *res, int s,
                             const char *dom, form *out) {
  const char *to[IR_MAX_RANK];
  bcast_to(c, &ka->ty[i], res, out->ov, to);
  inst_all(c, ka->f[i], to, dom, 0, NULL, s, out);
}

/* select(p, a, b): a where the mask p holds, b where it does not. */
static void cand_select(as *c, const ir_tnode *n, const kargs *ka, form *out, const char *box) {
  const ir_tnode *p = ka->b.args[0] >= 0 ? n->ops[ka->b.args[0]] : NULL;
  const char *to[IR_MAX_RANK];
  if (!p || p->kind != IR_TN_MASK) {
    fail(c, "a select whose predicate is not a mask");
    return;
  }
  bcast_to(c, &p->type, &n->type, out->ov, to);
  const char *m = mask_text(c, p->mask, p->type.rank, to);
  cand_elementwise(c, ka, 1, &n->type, 1, and_text(c, box, m), out);
  cand_elementwise(c, ka, 2, &n->type, 1, and_text(c, box, ir_arena_printf(&c->ar, "not (%s)", m)),
                   out);
}

/* dot_general(l, r): batch dims carried to out's leading indices,
 * contracting dims summed over fresh bound indices, the free dims of l
 * then r on out's remaining indices. */
static void cand_dot_general(as *c, const kargs *ka, form *out, const char *box) {
  const interp_attr *at = ka->b.attrs;
  const interp_attr *lb = &at[0], *rb = &at[1], *lc = &at[2], *rc = &at[3];
  const char *to[IR_MAX_RANK], *to2[IR_MAX_RANK];
  int kb[IR_MAX_RANK], nkb = 0, r = 0;
  for (int i = 0; i < lb->n; i++) {
    to[lb->v[i]] = kname(c, out->ov[r]);
    to2[rb->v[i]] = kname(c, out->ov[r++]);
  }
  for (int i = 0; i < lc->n; i++) {
    kb[nkb] = c->nk++;
    to[lc->v[i]] = to2[rc->v[i]] = kname(c, kb[nkb++]);
  }
  for (int side = 0; side < 2; side++) {
    const interp_attr *bt = side ? rb : lb, *ct = side ? rc : lc;
    const char **tt = side ? to2 : to;
    for (int d = 0; d < ka->ty[side].rank; d++) {
      int used = 0;
      for (int i = 0; i < bt->n; i++) used |= bt->v[i] == d;
      for (int i = 0; i < ct->n; i++) used |= ct->v[i] == d;
      if (!used) tt[d] = kname(c, out->ov[r++]);
    }
  }
  form *a = form_new(c, 0), *b = form_new(c, 0);
  inst_all(c, ka->f[0], to, box, nkb, kb, 1, a);
  inst_all(c, ka->f[1], to2, NULL, 0, NULL, 1, b);
  mul_forms(c, a, b, out);
}

/* reduce(x, init): a sum over the reduced dims plus init, or, for a
 * product over dims of extent 1, init times the one element. */
static void cand_reduce(as *c, const kargs *ka, form *out, const char *box) {
  const interp_attr *at = ka->b.attrs;
  const char *to[IR_MAX_RANK];
  int ones = 1;
  for (int i = 0; i < at[0].n; i++) ones &= ka->ty[0].dims[at[0].v[i]] == IR_DIM_ONE;
  if (at[1].v[0] == INTERP_BODY_MUL && ones) {
    int r = 0;
    for (int d = 0; d < ka->ty[0].rank; d++) {
      int red = 0;
      for (int i = 0; i < at[0].n; i++) red |= at[0].v[i] == d;
      to[d] = red ? "0" : kname(c, out->ov[r]);
      r += !red || at[2].v[0] != 0;
    }
    form *a = form_new(c, 0), *b = form_new(c, 0);
    inst_all(c, ka->f[0], to, box, 0, NULL, 1, a);
    inst_all(c, ka->f[1], NULL, NULL, 0, NULL, 1, b);
    mul_forms(c, a, b, out);
    return;
  }
  if (at[1].v[0] != INTERP_BODY_ADD) {
    fail(c, "a reduce whose body is %s", interp_body_name((interp_body)at[1].v[0]));
    return;
  }
  int kb[IR_MAX_RANK], nkb = 0, r = 0;
  for (int d = 0; d < ka->ty[0].rank; d++) {
    int red = 0;
    for (int i = 0; i < at[0].n; i++) red |= at[0].v[i] == d;
    if (red) {
      kb[nkb] = c->nk++;
      to[d] = kname(c, kb[nkb++]);
      r += at[2].v[0] != 0;
    } else {
      to[d] = kname(c, out->ov[r++]);
    }
  }
  inst_all(c, ka->f[0], to, box, nkb, kb, 1, out);
  inst_all(c, ka->f[1], NULL, box, 0, NULL, 1, out);
}

/* reshape(x) that only adds or drops dims of 1: the other dims keep their
 * order, so every index carries over. */
static void cand_reshape(as *c, const ir_tnode *n, const kargs *ka, form *out, const char *box) {
  const ir_type *res = &n->type;
  const char *to[IR_MAX_RANK];
  int j = 0;
  for (int d = 0; d < res->rank; d++) {
    if (res->dims[d] == IR_DIM_ONE) continue;
    while (j < ka->ty[0].rank && ka->ty[0].dims[j] == IR_DIM_ONE) to[j++] = "0";
    if (j == ka->ty[0].rank || ka->ty[0].dims[j] != res->dims[d]) {
      fail(c, "a reshape other than adding or dropping dims of 1");
      return;
    }
    to[j++] = kname(c, out->ov[d]);
  }
  while (j < ka->ty[0].rank && ka->ty[0].dims[j] == IR_DIM_ONE) to[j++] = "0";
  if (j != ka->ty[0].rank) {
    fail(c, "a reshape other than adding or dropping dims of 1");
    return;
  }
  inst_all(c, ka->f[0], to, box, 0, NULL, 1, out);
}

/* The op node n as a form over out's output variables: its operands'
 * forms combined as the op's kernel combines their elements. */
static void cand_op(as *c, const ir_tnode *n, form *out, const char *box) {
  kargs ka;
  if (cand_args(c, n, &ka)) return;
  const char *kn = ka.b.kernel;
  const interp_attr *at = ka.b.attrs;
  const ir_type *res = &n->type;
  const char *to[IR_MAX_RANK];
  for (int i = 0; i < ka.b.nargs; i++)
    if (ka.mask[i] && (i || strcmp(kn, "select"))) {
      fail(c, "a mask used as a value (%s)", kn);
      return;
    }
  if (!strcmp(kn, "add") || !strcmp(kn, "sub")) {
    cand_elementwise(c, &ka, 0, res, 1, box, out);
    cand_elementwise(c, &ka, 1, res, kn[0] == 's' ? -1 : 1, box, out);
  } else if (!strcmp(kn, "neg")) {
    cand_elementwise(c, &ka, 0, res, -1, box, out);
  } else if (!strcmp(kn, "mul")) {
    form *a = form_new(c, 0), *b = form_new(c, 0);
    memcpy(a->ov, out->ov, sizeof a->ov);
    memcpy(b->ov, out->ov, sizeof b->ov);
    cand_elementwise(c, &ka, 0, res, 1, box, a);
    cand_elementwise(c, &ka, 1, res, 1, NULL, b);
    mul_forms(c, a, b, out);
  } else if (!strcmp(kn, "select")) {
    cand_select(c, n, &ka, out, box);
  } else if (!strcmp(kn, "dot_general")) {
    cand_dot_general(c, &ka, out, box);
  } else if (!strcmp(kn, "reduce")) {
    cand_reduce(c, &ka, out, box);
  } else if (!strcmp(kn, "transpose")) {
    for (int d = 0; d < res->rank; d++) to[at[0].v[d]] = kname(c, out->ov[d]);
    inst_all(c, ka.f[0], to, box, 0, NULL, 1, out);
  } else if (!strcmp(kn, "broadcast_in_dim")) {
    for (int j = 0; j < ka.ty[0].rank; j++) {
      int rd = at[0].v[j];
      to[j] = ka.ty[0].dims[j] == IR_DIM_ONE && res->dims[rd] != IR_DIM_ONE ? "0"
                                                                            : kname(c, out->ov[rd]);
    }
    inst_all(c, ka.f[0], to, box, 0, NULL, 1, out);
  } else if (!strcmp(kn, "reshape")) {
    cand_reshape(c, n, &ka, out, box);
  } else if (!strcmp(kn, "constant") || !strcmp(kn, "fill")) {
    push_const(c, out, at[0].d, box);
  } else if (!strcmp(kn, "fill_scalar")) {
    inst_all(c, ka.f[0], NULL, box, 0, NULL, 1, out);
  } else {
    fail(c, "op %s (kernel %s)", n->op->name, kn);
  }
}

/* The candidate term n as a form over out's output variables. */
static void cand(as *c, const ir_tnode *n, form *out) {
  if (c->failed) return;
  const char *box = type_box(c, &n->type, out->ov);
  switch (n->kind) {
  case IR_TN_ARG: {
    if (n->arg < 0 || n->arg >= c->k->nvars || !is_input(c, n->arg)) {
      fail(c, "an argument that is not an input");
      return;
    }
    const char *idx[IR_MAX_RANK];
    for (int d = 0; d < n->type.rank; d++) idx[d] = kname(c, out->ov[d]);
    if (c->k->vars[n->arg]->rank != n->type.rank) {
      fail(c, "an argument of another rank than its variable");
      return;
    }
    term t;
    read_term(c, n->arg, idx, &t);
    t.dom = box;
    push(c, out, &t);
    return;
  }
  case IR_TN_CONST: push_const(c, out, n->value, box); return;
  case IR_TN_MASK: fail(c, "a mask used as a value"); return;
  case IR_TN_OP: cand_op(c, n, out, box); return;
  }
}

/* ------------------------------------------------------------ comparison */

/* The disjoint pieces of one signature's images on one side, with the
 * number of terms whose image holds each piece. */
typedef struct side {
  int bad; /* an isl failure: nothing may be concluded */
  int n, cap;
  isl_set **p;
  int *cnt;
} side;

typedef struct group {
  char *key;
  side s[2];
} group;

static void side_push(side *s, isl_set *p, int cnt) {
  int e = p ? isl_set_is_empty(p) : -1;
  if (e != 0) {
    if (e < 0) s->bad = 1;
    isl_set_free(p);
    return;
  }
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->p = ir_realloc(s->p, sizeof(isl_set *) * (size_t)s->cap);
    s->cnt = ir_realloc(s->cnt, sizeof(int) * (size_t)s->cap);
  }
  s->p[s->n] = p;
  s->cnt[s->n++] = cnt;
}

/* Add the image img (taken) to the refinement of s: each piece splits
 * into its part in img (one more term) and the rest; the points of img in
 * no piece are a new piece of count 1. */
static void side_add(side *s, isl_set *img) {
  side old = *s;
  memset(s, 0, sizeof *s);
  s->bad = old.bad;
  isl_set *rest = isl_set_copy(img);
  for (int i = 0; i < old.n; i++) {
    side_push(s, isl_set_intersect(isl_set_copy(old.p[i]), isl_set_copy(img)), old.cnt[i] + 1);
    rest = isl_set_subtract(rest, isl_set_copy(old.p[i]));
    side_push(s, isl_set_subtract(old.p[i], isl_set_copy(img)), old.cnt[i]);
  }
  side_push(s, rest, 1);
  isl_set_free(img);
  ir_free(old.p);
  ir_free(old.cnt);
}

/* Lexicographic a <= b of two index tuples of rank r. */
static const char *lex_le(as *c, const char *const *a, const char *const *b, int r) {
  ir_buf t = {0};
  for (int d = 0; d <= r; d++) {
    ir_buf_puts(&t, d ? " or (" : "(");
    for (int e = 0; e < d; e++) ir_buf_printf(&t, "%s%s = %s", e ? " and " : "", a[e], b[e]);
    if (d < r) ir_buf_printf(&t, "%s%s < %s", d ? " and " : "", a[d], b[d]);
    if (d == r && r == 0) ir_buf_puts(&t, "1 = 1");
    ir_buf_puts(&t, ")");
  }
  const char *s = ir_arena_strdup(&c->ar, ir_buf_str(&t));
  ir_buf_free(&t);
  return s;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Add term t of form f (side sd) to its group, within the compared domain
 * cmp (over f's output variables). */
static void add_term(as *c, const form *f, const term *t0, const char *cmp, int sd, group **gs,
                     int *ng) {
  term t = *t0;
  /* output variables as O0.., so that both sides share them */
  const char *on[IR_MAX_RANK];
  for (int d = 0; d < f->rank; d++) on[d] = ir_arena_printf(&c->ar, "O%d", d);
  term u;
  inst(c, &t, f->rank, f->ov, on, &u);
  const char *dom = and_text(c, u.dom, subst(c, cmp, 'K', f->rank, f->ov, on));
  /* reads sorted by array; pairs of reads of one array are ordered
   * lexicographically by splitting the domain */
  int ord[AS_FACT];
  for (int i = 0; i < u.nreads; i++) ord[i] = i;
  for (int i = 1; i < u.nreads; i++)
    for (int j = i; j > 0 && u.rvar[ord[j - 1]] > u.rvar[ord[j]]; j--) {
      int x = ord[j];
      ord[j] = ord[j - 1];
      ord[j - 1] = x;
    }
  int pair[AS_FACT], npair = 0;
  for (int i = 0; i < u.nreads; i++) {
    int same = 1;
    while (i + same < u.nreads && u.rvar[ord[i + same]] == u.rvar[ord[i]]) same++;
    if (same > 2) {
      fail(c, "more than two reads of %s in one product", c->k->vars[u.rvar[ord[i]]]->name);
      return;
    }
    if (same == 2) pair[npair++] = i;
    i += same - 1;
  }
  if (npair > 3) {
    fail(c, "more than three arrays read twice in one product");
    return;
  }
  int at[AS_FACT];
  memcpy(at, u.atoms, sizeof(int) * (size_t)u.natoms);
  qsort(at, (size_t)u.natoms, sizeof(int), cmp_int);
  ir_buf key = {0};
  ir_buf_printf(&key, "%c", u.sign > 0 ? '+' : '-');
  for (int i = 0; i < u.natoms; i++) {
    if (at[i] >= 0) ir_buf_printf(&key, " %s", c->k->vars[at[i]]->name);
    else ir_buf_printf(&key, " %.17g", c->lit[-1 - at[i]]);
  }
  ir_buf_puts(&key, " |");
  for (int i = 0; i < u.nreads; i++) ir_buf_printf(&key, " %s", c->k->vars[u.rvar[ord[i]]]->name);
  isl_map *all = NULL;
  for (int piece = 0; piece < (1 << npair) && !c->failed; piece++) {
    int o[AS_FACT];
    memcpy(o, ord, sizeof o);
    const char *pd = dom;
    for (int q = 0; q < npair; q++) {
      int i = pair[q], rk = c->k->vars[u.rvar[o[i]]]->rank;
      const char *le = lex_le(c, u.ridx[o[i]], u.ridx[o[i + 1]], rk);
      if (piece & (1 << q)) {
        pd = and_text(c, pd, ir_arena_printf(&c->ar, "not (%s)", le));
        int x = o[i];
        o[i] = o[i + 1];
        o[i + 1] = x;
      } else {
        pd = and_text(c, pd, le);
      }
    }
    ir_buf m = {0};
    ir_buf_printf(&m, "%s -> { [", ir_buf_str(&c->params));
    int nd = 0;
    for (int d = 0; d < f->rank; d++) ir_buf_printf(&m, "%sO%d", nd++ ? ", " : "", d);
    for (int j = 0; j < u.nk; j++) ir_buf_printf(&m, "%sK%d", nd++ ? ", " : "", u.k[j]);
    ir_buf_puts(&m, "] -> [");
    nd = 0;
    for (int d = 0; d < f->rank; d++) ir_buf_printf(&m, "%sO%d", nd++ ? ", " : "", d);
    for (int i = 0; i < u.nreads; i++)
      for (int d = 0; d < c->k->vars[u.rvar[o[i]]]->rank; d++)
        ir_buf_printf(&m, "%s%s", nd++ ? ", " : "", u.ridx[o[i]][d]);
    ir_buf_printf(&m, "] : %s and (%s) }", ir_buf_str(&c->pos), pd ? pd : "1 = 1");
    isl_map *mp = isl_map_read_from_str(c->ctx, ir_buf_str(&m));
    ir_buf_free(&m);
    if (!mp) {
      fail(c, "an isl failure");
      break;
    }
    all = all ? isl_map_union(all, mp) : mp;
  }
  if (c->failed || !all) {
    isl_map_free(all);
    ir_buf_free(&key);
    return;
  }
  int inj = isl_map_is_injective(all);
  if (inj != 1) {
    isl_map_free(all);
    ir_buf_free(&key);
    fail(c, inj < 0 ? "an isl failure"
                    : "a sum whose terms repeat a product of reads (not injective)");
    return;
  }
  isl_set *img = isl_map_range(all);
  int g = 0;
  while (g < *ng && strcmp((*gs)[g].key, ir_buf_str(&key))) g++;
  if (g == *ng) {
    *gs = ir_realloc(*gs, sizeof(group) * (size_t)(*ng + 1));
    memset(&(*gs)[g], 0, sizeof(group));
    (*gs)[g].key = ir_buf_take(&key);
    (*ng)++;
  }
  ir_buf_free(&key);
  side_add(&(*gs)[g].s[sd], img);
}

/* Do the two sides of every group hold the same pieces with the same
 * counts?  1 yes, 0 no (why says which group), -1 on an isl failure. */
static int groups_equal(as *c, group *gs, int ng) {
  for (int g = 0; g < ng; g++) {
    if (gs[g].s[0].bad || gs[g].s[1].bad) return -1;
    int maxc = 0;
    for (int sd = 0; sd < 2; sd++)
      for (int i = 0; i < gs[g].s[sd].n; i++)
        if (gs[g].s[sd].cnt[i] > maxc) maxc = gs[g].s[sd].cnt[i];
    for (int cnt = 1; cnt <= maxc; cnt++) {
      isl_set *u[2] = {NULL, NULL};
      for (int sd = 0; sd < 2; sd++)
        for (int i = 0; i < gs[g].s[sd].n; i++)
          if (gs[g].s[sd].cnt[i] == cnt)
            u[sd] = u[sd] ? isl_set_union(u[sd], isl_set_copy(gs[g].s[sd].p[i]))
                          : isl_set_copy(gs[g].s[sd].p[i]);
      int eq = u[0] && u[1] ? isl_set_is_equal(u[0], u[1]) : 0;
      isl_set_free(u[0]);
      isl_set_free(u[1]);
      if (eq != 1) {
        if (eq < 0) return -1;
        fail(c, "the normal forms differ (terms %s)", gs[g].key);
        return 0;
      }
    }
  }
  return 1;
}

/* ------------------------------------------------------------ entry */

int poly_all_sizes(const poly_all_sizes_task *t, char *why, size_t n) {
  if (why && n) why[0] = 0;
  if (!t || !t->a || !t->a->kernel || !t->cand) {
    if (why && n) snprintf(why, n, "no analysis or no candidate");
    return 0;
  }
  as c;
  memset(&c, 0, sizeof c);
  c.t = t;
  c.k = t->a->kernel;
  c.why = why;
  c.nwhy = n;
  ir_arena_init(&c.ar);
  c.st = IR_NEW_N(&c.ar, state, c.k->nvars + 1);
  /* statement by statement is the program's order only when no
   * dependence goes from a later statement back to an earlier one */
  for (int i = 0; i < t->a->ndeps; i++) {
    const poly_dep *d = &t->a->deps[i];
    if ((!t->mask || (t->mask[d->src] && t->mask[d->dst])) && d->src > d->dst)
      fail(&c, "a dependence from S%d back to S%d (statement by statement is not the "
               "program's order)", d->src, d->dst);
  }
  const ir_var *ov = c.k->vars[t->out_var];
  if (!c.failed && (ov->rank != t->cand->type.rank || !ir_elem_is_float(ov->elem)))
    fail(&c, "an output of another rank or not floating point");
  if (c.failed) {
    ir_arena_free(&c.ar);
    return 0;
  }
  c.ctx = isl_ctx_alloc();
  isl_options_set_on_error(c.ctx, ISL_ON_ERROR_CONTINUE);
  /* a budget of isl operations, not of time: the answer is deterministic,
   * and running out is an isl failure, never a proof */
  isl_ctx_set_max_operations(c.ctx, AS_ISL_OPS);
  ir_buf_puts(&c.params, "[");
  int np = 0;
  for (int v = 0; v < c.k->nvars; v++)
    if (c.k->vars[v]->kind == IR_VAR_SIZE) {
      ir_buf_printf(&c.params, "%sP%d", np ? ", " : "", v);
      ir_buf_printf(&c.pos, "%sP%d >= 0", np++ ? " and " : "", v);
    } else if (c.k->vars[v]->kind == IR_VAR_EXTENT) { /* a dim symbol, pinned */
      ir_buf_printf(&c.params, "%sP%d", np ? ", " : "", v);
      ir_buf_printf(&c.pos, "%sP%d = %ld", np++ ? " and " : "", v, c.k->vars[v]->value);
    }
  ir_buf_puts(&c.params, "]");
  if (!np) ir_buf_puts(&c.pos, "1 = 1");
  /* the output's dims are the candidate's at every size */
  for (int d = 0; !c.failed && d < ov->rank; d++) {
    ir_buf b = {0};
    int dim = t->cand->type.dims[d];
    if (poly_aff_text(c.k, ov->dims[d], &b)) fail(&c, "an output dim that is not affine");
    else if (set_empty(&c, 0, NULL, dim == IR_DIM_ONE
                                          ? ir_arena_printf(&c.ar, "%s != 1", ir_buf_str(&b))
                                          : ir_arena_printf(&c.ar, "%s != P%d", ir_buf_str(&b), dim)) != 1)
      fail(&c, "an output dim that is not the candidate's");
    ir_buf_free(&b);
  }
  int iters[AS_DEPTH];
  src_walk(&c, c.k->body, iters, 0, NULL);
  state *so = get_state(&c, t->out_var);
  form *cf = form_new(&c, ov->rank);
  cand(&c, t->cand, cf);
  int ok = 0;
  if (!c.failed) {
    /* compared: the whole box of a parameter or an input, else where the
     * task writes the local */
    const char *idx[IR_MAX_RANK];
    for (int d = 0; d < ov->rank; d++) idx[d] = kname(&c, so->f->ov[d]);
    const char *cmp = var_box(&c, t->out_var, idx);
    if (so->defined) cmp = and_text(&c, cmp, so->defined);
    group *gs = NULL;
    int ng = 0;
    for (int i = 0; i < so->f->n && !c.failed; i++)
      add_term(&c, so->f, &so->f->t[i], cmp, 0, &gs, &ng);
    /* the candidate's output variables stand where the source's do */
    const char *cto[IR_MAX_RANK];
    for (int d = 0; d < ov->rank; d++) cto[d] = kname(&c, cf->ov[d]);
    const char *ccmp = subst(&c, cmp, 'K', ov->rank, so->f->ov, cto);
    for (int i = 0; i < cf->n && !c.failed; i++) add_term(&c, cf, &cf->t[i], ccmp, 1, &gs, &ng);
    if (!c.failed) {
      int r = groups_equal(&c, gs, ng);
      if (r < 0) fail(&c, "an isl failure");
      ok = r == 1;
    }
    for (int g = 0; g < ng; g++) {
      for (int sd = 0; sd < 2; sd++) {
        for (int i = 0; i < gs[g].s[sd].n; i++) isl_set_free(gs[g].s[sd].p[i]);
        ir_free(gs[g].s[sd].p);
        ir_free(gs[g].s[sd].cnt);
      }
      ir_free(gs[g].key);
    }
    ir_free(gs);
  }
  if (!ok && !c.failed) fail(&c, "not within reach");
  ir_buf_free(&c.params);
  ir_buf_free(&c.pos);
  isl_ctx_free(c.ctx);
  ir_arena_free(&c.ar);
  return ok && !c.failed;
}
