/*
 * gen.c - the grammar generator: typed productions from an op and operand
 * types, plus printing of dialects.
 *
 * gram_productions unifies the operand patterns with the operand types (a
 * dim variable binds to a size symbol; two occurrences unify only if they
 * are the same symbol), then walks the attributes depth first, drawing each
 * value from its domain (permutations in lexicographic order, subsets in
 * bitmask order, partial matchings of dim pairs, increasing broadcast maps,
 * enum indices), and computes and checks the result type of every complete
 * choice.  Everything lives on the stack: no allocation per call.
 */
#include <string.h>

#include "grammar/grammar.h"
#include "interp/ops.h"
#include "grammar/kernels.h"

typedef struct gen {
  const gram_op *op;
  const ir_type *ops;
  const ir_type *target;
  ir_elem elem;             /* T */
  int dim[GRAM_MAX_VARS];   /* scalar dim variables */
  int bound[GRAM_MAX_VARS];
  int lrank[GRAM_MAX_VARS]; /* list variables */
  int ldims[GRAM_MAX_VARS][IR_MAX_RANK];
  int have_pre;             /* the result is known before the attributes */
  ir_type pre;
  ir_attr attrs[IR_TP_MAX_ATTRS];
  gram_prod *out;
  int cap, count;
  gram_stats *st;
  const ir_attr *given;     /* values of window attributes, or NULL */
} gen;

static void reject(gen *g) {
  if (g->st) {
    g->st->enumerated++;
    g->st->rejected++;
  }
}

/* ------------------------------------------------------------ unification */

static int unify_pat(gen *g, const gram_pat *p, const ir_type *t) {
  if (p->fixed_elem && t->elem != p->elem) return -1;
  if (p->any) return 0;
  if (p->ell >= 0) {
    int v = p->ell;
    if (g->bound[v]) {
      if (g->lrank[v] != t->rank) return -1;
      for (int i = 0; i < t->rank; i++)
        if (g->ldims[v][i] != t->dims[i]) return -1;
    } else {
      g->bound[v] = 1;
      g->lrank[v] = t->rank;
      for (int i = 0; i < t->rank; i++) g->ldims[v][i] = t->dims[i];
    }
    return 0;
  }
  if (t->rank != p->rank) return -1;
  for (int i = 0; i < p->rank; i++) {
    int v = p->dims[i];
    if (v < 0) {
      if (t->dims[i] != IR_DIM_ONE) return -1;
    } else if (g->bound[v]) {
      if (g->dim[v] != t->dims[i]) return -1;
    } else {
      g->bound[v] = 1;
      g->dim[v] = t->dims[i];
    }
  }
  return 0;
}

static int rank_ok(const gram_op *op, int rank) {
  return rank >= op->minrank && rank <= op->maxrank;
}

/* numpy/CHLO broadcasting of operands args[0..n-1]; eq: ranks must agree. */
static int broadcast(gen *g, const int *args, int n, int eq, ir_type *r) {
  int rank = 0;
  for (int i = 0; i < n; i++) {
    const ir_type *t = &g->ops[args[i]];
    if (eq && i && t->rank != rank) return -1;
    if (t->rank > rank) rank = t->rank;
  }
  r->rank = rank;
  for (int d = 0; d < rank; d++) {
    int dim = IR_DIM_ONE;
    for (int i = 0; i < n; i++) {
      const ir_type *t = &g->ops[args[i]];
      int k = d - (rank - t->rank);
      if (k < 0) continue;
      int x = t->dims[k];
      if (x == IR_DIM_ONE) continue;
      if (dim != IR_DIM_ONE && dim != x) return -1;
      dim = x;
    }
    r->dims[d] = dim;
  }
  return 0;
}

/* The element count of t as a sorted list of non-1 symbols. */
static int symbag(const ir_type *t, int *out) {
  int n = 0;
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != IR_DIM_ONE) {
      int x = t->dims[i], j = n++;
      while (j > 0 && out[j - 1] > x) {
        out[j] = out[j - 1];
        j--;
      }
      out[j] = x;
    }
  return n;
}

static int in_list(const ir_attr *a, int start, int step, int x) {
  for (int i = start; i < a->n; i += step)
    if (a->v[i] == x) return 1;
  return 0;
}

/* The result type of the complete choice in g->attrs, or -1. */
static int result_type(gen *g, ir_type *r) {
  const gram_op *op = g->op;
  if (g->have_pre) {
    *r = g->pre;
    return 0;
  }
  r->elem = op->res_pat.fixed_elem ? op->res_pat.elem : g->elem;
  const ir_type *x = &g->ops[op->res_args[0]];
  switch (op->res) {
  case GRAM_RES_PERMUTE: {
    const ir_attr *p = &g->attrs[op->res_args[1]];
    if (p->n != x->rank) return -1;
    r->rank = x->rank;
    for (int i = 0; i < x->rank; i++) r->dims[i] = x->dims[p->v[i]];
    return 0;
  }
  case GRAM_RES_REDUCE:
  case GRAM_RES_REDUCE1: {
    const ir_attr *s = &g->attrs[op->res_args[1]];
    r->rank = 0;
    for (int i = 0; i < x->rank; i++) {
      if (!in_list(s, 0, 1, i)) r->dims[r->rank++] = x->dims[i];
      else if (op->res == GRAM_RES_REDUCE1) r->dims[r->rank++] = IR_DIM_ONE;
    }
    return 0;
  }
  case GRAM_RES_DOT: {
    const ir_type *l = x, *rt = &g->ops[op->res_args[1]];
    const ir_attr *b = &g->attrs[op->res_args[2]], *c = &g->attrs[op->res_args[3]];
    int rank = 0;
    for (int i = 0; i < b->n; i += 2) r->dims[rank++] = l->dims[b->v[i]];
    for (int i = 0; i < l->rank; i++)
      if (!in_list(b, 0, 2, i) && !in_list(c, 0, 2, i)) {
        if (rank == IR_MAX_RANK) return -1;
        r->dims[rank++] = l->dims[i];
      }
    for (int i = 0; i < rt->rank; i++)
      if (!in_list(b, 1, 2, i) && !in_list(c, 1, 2, i)) {
        if (rank == IR_MAX_RANK) return -1;
        r->dims[rank++] = rt->dims[i];
      }
    r->rank = rank;
    return 0;
  }
  default: UNREACHABLE();
  }
}

/* Whether a cast of rule `res` from `from` to `to` is C's conversion:
 * sext(x), a signless cast extending by sign, truncating and converting
 * to float as signed (tosa.cast), is for a signed x, and for an unsigned
 * x narrowed (the bits kept do not depend on the sign); zext(x) widens an
 * unsigned integer. */
static int cast_fits(gram_res res, ir_elem from, ir_elem to) {
  int ints = ir_elem_is_int(from) && ir_elem_is_int(to);
  switch (res) {
  case GRAM_RES_SEXT:
    return (ir_elem_is_int(from) && ir_elem_is_signed(from)) ||
           (ints && ir_elem_bits(to) <= ir_elem_bits(from));
  case GRAM_RES_ZEXT:
    return ints && !ir_elem_is_signed(from) && ir_elem_bits(to) > ir_elem_bits(from);
  default: return 1;
  }
}

/* The result when it does not depend on the attributes (or -1 on a type
 * error; -2 when it does depend on them). */
static int pre_result(gen *g, ir_type *r) {
  const gram_op *op = g->op;
  r->elem = op->res_pat.fixed_elem ? op->res_pat.elem : g->elem;
  switch (op->res) {
  case GRAM_RES_PATTERN: {
    const gram_pat *p = &op->res_pat;
    if (p->ell >= 0) {
      r->rank = g->lrank[p->ell];
      memcpy(r->dims, g->ldims[p->ell], sizeof r->dims);
    } else {
      r->rank = p->rank;
      for (int i = 0; i < p->rank; i++)
        r->dims[i] = p->dims[i] < 0 ? IR_DIM_ONE : g->dim[p->dims[i]];
    }
    return 0;
  }
  case GRAM_RES_BCAST:
  case GRAM_RES_BCAST_EQ:
    return broadcast(g, op->res_args, op->nres_args, op->res == GRAM_RES_BCAST_EQ, r);
  case GRAM_RES_TARGET:
  case GRAM_RES_RESHAPE: {
    if (g->target->elem != r->elem) return -1;
    ir_elem e = r->elem;
    *r = *g->target;
    r->elem = e;
    if (op->res == GRAM_RES_RESHAPE) {
      int a[IR_MAX_RANK], b[IR_MAX_RANK];
      int na = symbag(&g->ops[op->res_args[0]], a), nb = symbag(r, b);
      if (na != nb || memcmp(a, b, sizeof(int) * (size_t)na)) return -1;
      if (ir_type_equal(r, &g->ops[op->res_args[0]])) return -1; /* a no-op */
    }
    return 0;
  }
  case GRAM_RES_CONVERT:
  case GRAM_RES_SEXT:
  case GRAM_RES_ZEXT: { /* x's shape in another element type */
    const ir_type *x = &g->ops[op->res_args[0]];
    ir_type same = *g->target;
    same.elem = x->elem;
    if (!ir_type_equal(&same, x) || g->target->elem == x->elem ||
        !(op->elems & (1u << g->target->elem)) || !cast_fits(op->res, x->elem, g->target->elem))
      return -1;
    *r = *g->target;
    return 0;
  }
  default: return -2;
  }
}

/* ------------------------------------------------------ attribute domains */

static void emit_prod(gen *g) {
  ir_type r;
  if (result_type(g, &r) || !rank_ok(g->op, r.rank)) {
    reject(g);
    return;
  }
  if (g->st) g->st->enumerated++;
  if (g->count < g->cap) {
    gram_prod *p = &g->out[g->count];
    p->op = g->op;
    memcpy(p->attrs, g->attrs, sizeof p->attrs);
    p->result = r;
  }
  g->count++;
}

static void walk(gen *g, int ai);

static const ir_type *arg_type(gen *g, int arg) {
  return arg < 0 ? &g->pre : &g->ops[arg];
}

static int next_perm(int8_t *v, int n) {
  int i = n - 2;
  while (i >= 0 && v[i] >= v[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (v[j] <= v[i]) j--;
  int8_t t = v[i]; v[i] = v[j]; v[j] = t;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) {
    t = v[a]; v[a] = v[b]; v[b] = t;
  }
  return 1;
}

/* Is dim d of operand `arg` (side 0 lhs, 1 rhs) used by an earlier pairs
 * attribute over the same operands? */
static int pair_dim_used(gen *g, int ai, int side, int d) {
  const gram_attr *a = &g->op->attrs[ai];
  for (int k = 0; k < ai; k++) {
    const gram_attr *b = &g->op->attrs[k];
    if (b->dom != GRAM_DOM_PAIRS || b->arg[0] != a->arg[0] || b->arg[1] != a->arg[1]) continue;
    if (in_list(&g->attrs[k], side, 2, d)) return 1;
  }
  return 0;
}

/* Partial matchings between lhs dims i.. and unused rhs dims. */
static void pairs_rec(gen *g, int ai, int i, unsigned used) {
  const gram_attr *a = &g->op->attrs[ai];
  const ir_type *l = arg_type(g, a->arg[0]), *r = arg_type(g, a->arg[1]);
  ir_attr *v = &g->attrs[ai];
  if (i == l->rank) {
    if (v->n == 0 && !a->empty) return;
    for (int k = 0; k < v->n; k += 2)
      if (l->dims[v->v[k]] != r->dims[v->v[k + 1]] ||
          pair_dim_used(g, ai, 0, v->v[k]) || pair_dim_used(g, ai, 1, v->v[k + 1])) {
        reject(g);
        return;
      }
    walk(g, ai + 1);
    return;
  }
  pairs_rec(g, ai, i + 1, used);
  for (int j = 0; j < r->rank; j++) {
    if (used & (1u << j)) continue;
    v->v[v->n] = (int8_t)i;
    v->v[v->n + 1] = (int8_t)j;
    v->n += 2;
    pairs_rec(g, ai, i + 1, used | (1u << j));
    v->n -= 2;
  }
}

/* Increasing maps of x's dims k.. into result dims from `from`. */
static void bcast_rec(gen *g, int ai, int k, int from) {
  const gram_attr *a = &g->op->attrs[ai];
  const ir_type *x = &g->ops[a->arg[0]], *r = &g->pre;
  ir_attr *v = &g->attrs[ai];
  if (k == x->rank) {
    if (a->exact && x->rank == r->rank) { /* the identity: not a broadcast */
      reject(g);
      return;
    }
    for (int i = 0; i < x->rank; i++) {
      int xd = x->dims[i], rd = r->dims[v->v[i]];
      if (xd != rd && (a->exact || xd != IR_DIM_ONE)) {
        reject(g);
        return;
      }
    }
    walk(g, ai + 1);
    return;
  }
  for (int j = from; j <= r->rank - (x->rank - k); j++) {
    v->v[k] = (int8_t)j;
    v->n = (int8_t)(k + 1);
    bcast_rec(g, ai, k + 1, j + 1);
  }
}

static void walk(gen *g, int ai) {
  const gram_op *op = g->op;
  if (ai == op->nattrs) {
    emit_prod(g);
    return;
  }
  const gram_attr *a = &op->attrs[ai];
  ir_attr *v = &g->attrs[ai];
  memset(v, 0, sizeof *v);
  switch (a->dom) {
  case GRAM_DOM_PERM: {
    int n = arg_type(g, a->arg[0])->rank;
    v->n = (int8_t)n;
    for (int i = 0; i < n; i++) v->v[i] = (int8_t)i;
    do {
      int id = 1;
      for (int i = 0; i < n; i++) id &= v->v[i] == i;
      if (!(id && a->noid)) walk(g, ai + 1);
    } while (next_perm(v->v, n));
    break;
  }
  case GRAM_DOM_SUBSET: {
    int n = arg_type(g, a->arg[0])->rank;
    for (unsigned m = 1; m < (1u << n); m++) {
      v->n = 0;
      for (int i = 0; i < n; i++)
        if (m & (1u << i)) v->v[v->n++] = (int8_t)i;
      walk(g, ai + 1);
    }
    break;
  }
  case GRAM_DOM_DIM: {
    int n = arg_type(g, a->arg[0])->rank;
    v->n = 1;
    for (int i = 0; i < n; i++) {
      v->v[0] = (int8_t)i;
      walk(g, ai + 1);
    }
    break;
  }
  case GRAM_DOM_PAIRS: pairs_rec(g, ai, 0, 0); break;
  case GRAM_DOM_WINDOW: { /* given by the caller: (start, keep) per dim */
    const ir_type *x = arg_type(g, a->arg[0]);
    int kept = 0, ok = g->given && g->given[ai].n == 2 * x->rank && g->have_pre;
    for (int i = 0; ok && i < x->rank; i++) {
      int keep = g->given[ai].v[2 * i + 1];
      ok = keep >= 0 && keep <= 2;
      kept += keep == 1;
    }
    if (!ok || kept != g->pre.rank) {
      reject(g);
      break;
    }
    *v = g->given[ai];
    walk(g, ai + 1);
    break;
  }
  /* ---- shift (issue 14's pad) ---- */
  case GRAM_DOM_SHIFT: { /* (low, high) per dim: one dim not 1 moved by 1 */
    const ir_type *x = arg_type(g, a->arg[0]);
    v->n = (int8_t)(2 * x->rank);
    for (int d = 0; d < x->rank; d++) {
      if (x->dims[d] == IR_DIM_ONE) continue; /* all padding: no read of x */
      for (int s = -1; s <= 1; s += 2) {
        v->v[2 * d] = (int8_t)-s;
        v->v[2 * d + 1] = (int8_t)s;
        walk(g, ai + 1);
      }
      v->v[2 * d] = v->v[2 * d + 1] = 0;
    }
    break;
  }
  /* ---- end shift ---- */
  case GRAM_DOM_BCAST:
    v->n = 0;
    if (g->ops[a->arg[0]].rank > g->pre.rank) {
      reject(g);
      break;
    }
    bcast_rec(g, ai, 0, 0);
    break;
  case GRAM_DOM_ENUM:
  case GRAM_DOM_REGION:
    v->n = 1;
    for (int i = 0; i < a->nvals; i++) {
      if (!gram_attr_spelling(a, i, g->elem)) { /* no form for T */
        reject(g);
        continue;
      }
      v->v[0] = (int8_t)i;
      walk(g, ai + 1);
    }
    break;
  }
  memset(v, 0, sizeof *v);
}

int gram_op_needs_target(const gram_op *op) {
  return op->res == GRAM_RES_TARGET || op->res == GRAM_RES_RESHAPE ||
         op->res == GRAM_RES_CONVERT || op->res == GRAM_RES_SEXT || op->res == GRAM_RES_ZEXT;
}

int gram_productions(const gram_op *op, const ir_type *ops, const ir_type *target,
                     gram_prod *out, int cap, gram_stats *st) {
  return gram_productions_given(op, ops, NULL, target, out, cap, st);
}

int gram_op_has_window(const gram_op *op) {
  for (int i = 0; i < op->nattrs; i++)
    if (op->attrs[i].dom == GRAM_DOM_WINDOW) return 1;
  return 0;
}

int gram_productions_given(const gram_op *op, const ir_type *ops, const ir_attr *given,
                           const ir_type *target, gram_prod *out, int cap, gram_stats *st) {
  gen g = {.op = op, .ops = ops, .target = target, .out = out, .cap = cap, .st = st,
           .given = given};
  if (gram_op_needs_target(op) && !target) return 0;
  /* the element type T: from the operands, else from the target */
  int have_t = 0;
  for (int i = 0; i < op->nops; i++) {
    if (op->pats[i].fixed_elem) continue;
    if (have_t && ops[i].elem != g.elem) goto rejected;
    g.elem = ops[i].elem;
    have_t = 1;
  }
  if (!have_t) {
    if (!target) return 0;
    g.elem = target->elem;
  }
  if (!(op->elems & (1u << g.elem)) && (have_t || !op->res_pat.fixed_elem)) goto rejected;
  for (int i = 0; i < op->nops; i++)
    if (!rank_ok(op, ops[i].rank) || unify_pat(&g, &op->pats[i], &ops[i])) goto rejected;
  int pr = pre_result(&g, &g.pre);
  if (pr == -1) goto rejected;
  g.have_pre = pr == 0;
  if (g.have_pre && !rank_ok(op, g.pre.rank)) goto rejected;
  walk(&g, 0);
  return g.count;
rejected:
  reject(&g);
  return 0;
}

/* ---------------------------------------------------------------- printing */

const char *gram_attr_spelling(const gram_attr *a, int v, ir_elem elem) {
  if (ir_elem_is_float(elem)) return a->spell[v];
  return ir_elem_is_signed(elem) ? a->ispell[v] : a->uspell[v];
}

const char *gram_prod_kernel(const gram_op *op, const ir_attr *attrs) {
  if (op->kernel_attr >= 0)
    return attrs[op->kernel_attr].n < 0 ? NULL /* a rule's attribute variable */
                                        : op->attrs[op->kernel_attr].vals[attrs[op->kernel_attr].v[0]];
  return op->kernel;
}

static int term_shape_generic(const ir_tnode *n, const ir_type *root) {
  const ir_type *t = &n->type;
  if (t->rank) {
    if (t->rank != root->rank) return 0;
    for (int d = 0; d < t->rank; d++)
      if (t->dims[d] != root->dims[d]) return 0;
  }
  if (n->kind == IR_TN_OP) {
    const char *kn = gram_prod_kernel(n->op->owner, n->attrs);
    const interp_op *k = kn ? interp_op_find(kn) : NULL;
    if (!k || !(k->flags & INTERP_OP_ELEMENTWISE)) return 0;
  }
  for (int i = 0; i < n->nops; i++)
    if (!term_shape_generic(n->ops[i], root)) return 0;
  return 1;
}

int gram_rule_shape_generic(const ir_tnode *lhs, const ir_tnode *rhs) {
  return term_shape_generic(lhs, &lhs->type) && term_shape_generic(rhs, &lhs->type);
}

char *gram_attrs_str(const gram_op *op, const ir_attr *attrs, char *buf, size_t n) {
  size_t at = 0;
  if (n) buf[0] = 0;
  for (int a = 0; a < op->nattrs && at < n; a++) {
    const gram_attr *d = &op->attrs[a];
    at += (size_t)snprintf(buf + at, n - at, "%s%s=", a ? " " : "", d->name);
    if (at >= n) break;
    if (attrs[a].n < 0) { /* a rule's attribute variable */
      at += (size_t)snprintf(buf + at, n - at, "$%d", attrs[a].v[0]);
      continue;
    }
    if (d->dom == GRAM_DOM_ENUM || d->dom == GRAM_DOM_REGION) {
      at += (size_t)snprintf(buf + at, n - at, "%s", d->vals[attrs[a].v[0]]);
      continue;
    }
    at += (size_t)snprintf(buf + at, n - at, "(");
    for (int i = 0; i < attrs[a].n && at < n; i++)
      at += (size_t)snprintf(buf + at, n - at, "%s%d", i ? "," : "", attrs[a].v[i]);
    if (at < n) at += (size_t)snprintf(buf + at, n - at, ")");
  }
  return buf;
}

static void print_pat(const gram_op *op, const gram_pat *p, FILE *out) {
  if (p->fixed_elem) fputs(ir_elem_mlir_name(p->elem), out);
  if (p->any) {
    fputs("[*]", out);
    return;
  }
  if (p->ell >= 0) {
    fprintf(out, "[*%s]", op->vars[p->ell]);
    return;
  }
  fputc('[', out);
  for (int i = 0; i < p->rank; i++)
    fprintf(out, "%s%s", i ? "," : "", p->dims[i] < 0 ? "1" : op->vars[p->dims[i]]);
  fputc(']', out);
}

void gram_op_signature(const gram_op *op, FILE *out) {
  fprintf(out, "%s", op->name);
  for (int i = 0; i < op->nops; i++) {
    fprintf(out, " %s:", op->opnames[i]);
    print_pat(op, &op->pats[i], out);
  }
  fputs(" -> ", out);
  if (op->res_pat.fixed_elem) fprintf(out, "%s ", ir_elem_mlir_name(op->res_pat.elem));
  static const char *rules[] = {"", "broadcast", "broadcast_eq", "permute", "reduce",
                                "reduce1", "dot", "target", "reshape", "convert",
                                "sext", "zext"};
  switch (op->res) {
  case GRAM_RES_PATTERN: {
    gram_pat p = op->res_pat;
    p.fixed_elem = 0;
    print_pat(op, &p, out);
    break;
  }
  case GRAM_RES_TARGET: fputs("target", out); break;
  default: {
    int nops = op->res == GRAM_RES_BCAST || op->res == GRAM_RES_BCAST_EQ ? op->nres_args
               : op->res == GRAM_RES_DOT                                 ? 2
                                                                         : 1;
    fprintf(out, "%s(", rules[op->res]);
    for (int i = 0; i < op->nres_args; i++)
      fprintf(out, "%s%s", i ? ", " : "",
              i < nops ? op->opnames[op->res_args[i]] : op->attrs[op->res_args[i]].name);
    fputc(')', out);
  }
  }
}

static const char *dom_name(gram_dom d) {
  static const char *n[] = {"perm", "subset", "dim", "pairs", "bcast", "window", "enum",
                            "region", "shift"};
  return n[d];
}

void gram_dialect_print(const gram_dialect *d, FILE *out) {
  fprintf(out, "dialect %s (%s): %d ops%s%s\n", d->name, d->path, d->nops,
          d->summary[0] ? " - " : "", d->summary);
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    fputs("  ", out);
    gram_op_signature(op, out);
    fputc('\n', out);
    fprintf(out, "      mlir %s; kernel %s%s", op->mlir, op->kernel ? "" : "@",
            op->kernel ? op->kernel : op->attrs[op->kernel_attr].name);
    fputs("; elem", out);
    for (int e = 0; e < IR_ELEM_COUNT; e++)
      if (op->elems & (1u << e)) fprintf(out, " %s", ir_elem_mlir_name((ir_elem)e));
    if (op->minrank || op->maxrank != IR_MAX_RANK)
      fprintf(out, "; rank %d..%d", op->minrank, op->maxrank);
    fputc('\n', out);
    for (int a = 0; a < op->nattrs; a++) {
      const gram_attr *at = &op->attrs[a];
      fprintf(out, "      attr %s: %s(", at->name, dom_name(at->dom));
      if (at->dom == GRAM_DOM_ENUM || at->dom == GRAM_DOM_REGION) {
        for (int v = 0; v < at->nvals; v++) fprintf(out, "%s%s", v ? ", " : "", at->vals[v]);
      } else {
        int n = at->dom == GRAM_DOM_PAIRS || at->dom == GRAM_DOM_BCAST ? 2 : 1;
        for (int k = 0; k < n; k++)
          fprintf(out, "%s%s", k ? ", " : "", at->arg[k] < 0 ? "result" : op->opnames[at->arg[k]]);
      }
      fprintf(out, ")%s%s%s\n", at->noid ? " noid" : "", at->empty ? " empty" : "",
              at->exact ? " exact" : "");
    }
  }
}
