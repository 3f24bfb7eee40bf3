/*
 * raise.c - raising a whole kernel: for each task of the polyhedral
 * analysis and each array it outputs, build examples with the interpreter,
 * leaves (arguments, constants, masks) and goals (the output and the
 * sub-goals of the source statement), search, check the found program on
 * fresh examples, verify it, and compose the tasks into one program
 * (docs/enumerator.md).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enumerator/internal.h"
#include "enumerator/subgoal.h"

void enum_default_options(enum_options *o) {
  memset(o, 0, sizeof *o);
  o->max_ops = 6;
  o->timeout = 120;
  o->memory_mb = 4096;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  o->threads = n > 0 ? (int)n : 1;
  o->seed = 1;
}

const char *enum_verdict_name(enum_verdict v) {
  switch (v) {
  case ENUM_SKIPPED: return "skipped";
  case ENUM_PROVED: return "proved";
  case ENUM_REFUTED: return "refuted";
  case ENUM_UNKNOWN: return "unknown";
  }
  return "?";
}

/* ------------------------------------------------------------- helpers */

/* Failures follow the ir_error convention; a reason reaches the result
 * (enum_result.reason) only at the end, through not_raised. */
static const ir_pos nowhere = {0};

/* Fill err with the text of `prefix` (printf-style) followed by inner's
 * text (its position in front when it has one), keeping inner's code.
 * Returns -1. */
static int wrap(ir_error *err, const ir_error *inner, const char *prefix, ...)
    __attribute__((format(printf, 3, 4)));
static int wrap(ir_error *err, const ir_error *inner, const char *prefix, ...) {
  char head[160], body[640];
  va_list ap;
  va_start(ap, prefix);
  vsnprintf(head, sizeof head, prefix, ap);
  va_end(ap);
  return ir_error_set(err, nowhere, inner->code, "%s%s", head, ir_error_str(inner, body, sizeof body));
}

/* The symbolic type of a variable: dims must be size parameters, or
 * constants (1, or a constant extent's IR_VAR_EXTENT symbol). */
static int var_type(const ir_kernel *k, int v, ir_type *t) {
  const ir_var *var = k->vars[v];
  t->elem = var->elem;
  t->rank = var->rank;
  long *vals = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  int bad = 0;
  for (int d = 0; d < var->rank && !bad; d++) {
    /* the dim must be affine and equal to one size parameter, or to 1 */
    const ir_expr *e = var->dims[d];
    long c0 = ir_expr_eval_int(e, vals);
    int sym = IR_DIM_ONE, nsym = 0;
    for (int v2 = 0; v2 < k->nvars; v2++) {
      if (k->vars[v2]->kind != IR_VAR_SIZE) continue;
      vals[v2] = 1;
      long c = ir_expr_eval_int(e, vals) - c0;
      vals[v2] = 0;
      if (c == 1) sym = v2, nsym++;
      else if (c) bad = 1;
    }
    if (nsym == 0 && c0 != 1) { /* a constant extent: its IR_VAR_EXTENT symbol */
      sym = ir_kernel_extent_var(k, c0);
      if (sym < 0) bad = 1;
    } else if (nsym > 1 || (nsym == 1 && c0 != 0)) {
      bad = 1;
    }
    t->dims[d] = sym;
  }
  ir_free(vals);
  return bad ? -1 : 0;
}

int enum_var_type(const ir_kernel *k, int v, ir_type *t) { return var_type(k, v, t); }

/* Fill err for variable v, whose type var_type could not build: the first
 * extent that is neither a size parameter nor a constant, at v's
 * declaration.  Returns 1. */
static int untyped_var(const ir_kernel *k, int v, ir_error *err) {
  const ir_var *var = k->vars[v];
  ir_type one;
  char text[160] = "?";
  for (int d = 0; d < var->rank; d++) {
    ir_var tmp = *var;
    tmp.rank = 1;
    tmp.dims[0] = var->dims[d];
    ir_kernel k1 = *k;
    ir_var **vars = ir_malloc(sizeof *vars * (size_t)(k->nvars ? k->nvars : 1));
    memcpy(vars, k->vars, sizeof *vars * (size_t)k->nvars);
    vars[v] = &tmp;
    k1.vars = vars;
    int bad = var_type(&k1, v, &one);
    ir_free(vars);
    if (!bad) continue;
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    if (f) {
      ir_expr_print(k, var->dims[d], f);
      fclose(f);
    }
    break;
  }
  ir_error_set(err, var->pos, IR_ERR_INPUT,
               "array %s has the extent %s, which is neither a size parameter nor a "
               "constant: the later stages (tensor types) take extents that are size "
               "parameters or constants only",
               var->name, text);
  return 1;
}

/* Mask pm of a region as an ir_mask into m.  Returns 0, or -1 when it
 * does not fit one. */
static int poly_mask_ir(const poly_mask *pm, ir_mask *m) {
  if (pm->ncons > IR_MASK_MAX_CONS) return -1;
  memset(m, 0, sizeof *m);
  m->ncons = pm->ncons;
  for (int c = 0; c < pm->ncons; c++) {
    const poly_constraint *pc = &pm->cons[c];
    ir_mask_con *mc = &m->cons[c];
    if (pc->rank > IR_MAX_RANK || pc->nparams > IR_MASK_MAX_SYMS) return -1;
    for (int d = 0; d < pc->rank; d++) mc->coef[d] = (int)pc->dim[d];
    for (int p = 0; p < pc->nparams; p++) {
      mc->sym[p] = pc->pvar[p];
      mc->pcoef[p] = (int)pc->pcoef[p];
    }
    mc->c = (int)pc->c0;
    mc->eq = pc->is_eq;
  }
  return 0;
}

/* Region r as one ir_mask into m.  Returns 0, or -1 when it is not one
 * affine mask. */
static int region_mask(const poly_region *r, ir_mask *m) {
  if (r->kind != POLY_REGION_MASK || r->nmasks != 1) return -1;
  return poly_mask_ir(&r->masks[0], m);
}

static long symval(int sym, void *user) { return ((const long *)user)[sym]; }

static void tensor_copy(ir_tensor *dst, const ir_tensor *src) {
  *dst = *src;
  size_t n = ir_tensor_size(src);
  dst->data = ir_malloc(n * sizeof(double));
  memcpy(dst->data, src->data, n * sizeof(double));
  dst->poison = NULL;
  if (src->poison && interp_poison_count(src)) {
    dst->poison = ir_malloc(n);
    memcpy(dst->poison, src->poison, n);
  }
}

/* ------------------------------------------------------------- a task */

/* A growable list of tree nodes: the leaves of a round, the solved
 * sub-goals. */
typedef struct node_list {
  const ir_tnode **v;
  int n, cap;
} node_list;

typedef struct task_ctx {
  const poly_analysis *a;
  const ir_kernel *k;
  const poly_task *pt;
  const gram_dialect *d;
  const enum_options *o;
  ir_tp_store *store;
  ir_arena *arena;
  unsigned char *mask;     /* task statements + prelude */
  unsigned char *prelude;  /* prelude only */
  int nin;
  int *in_vars;
  const ir_tnode **in_args; /* leaf per input (arg or constant) */
  /* examples: values of every variable before and after the task */
  es_examples ex;
  ir_tensor *before[ES_MAX_EX]; /* [nvars] */
  ir_tensor *after[ES_MAX_EX];  /* [nvars] */
  sg_set subgoals;              /* sub-goal expected values per example */
  /* the solutions of value-space sub-goals (sg_goal.var < 0: offered to
   * every output) found by an output's search: the later outputs of the
   * task start with them as leaves instead of searching for them again */
  node_list shared;
  uint64_t next_seed;
} task_ctx;

static void free_example(task_ctx *t, int e) {
  for (int v = 0; v < t->k->nvars; v++) {
    interp_tensor_free(&t->before[e][v]);
    interp_tensor_free(&t->after[e][v]);
  }
  ir_free(t->before[e]);
  ir_free(t->after[e]);
  t->before[e] = t->after[e] = NULL;
}

/* The fractional parts of a fresh example's inputs: binary fractions for a
 * kernel whose arithmetic is exact on them (every order of a sum gives the
 * same value, so the exact comparison stays right), tenths otherwise (not
 * binary fractions: a rounding to float shows in them beyond the
 * comparison's tolerance). */
static double fraction(const ir_kernel *k, interp_rng *rng) {
  static const double binary[8] = {0, 0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875};
  static const double tenths[8] = {0, 0.1, 0.3, 0.7, 0.9, 0.2, 0.6, 0.4};
  long i = interp_rng_range(rng, 0, 7);
  return interp_kernel_tolerance(k) > 0 ? tenths[i] : binary[i];
}

/* Run the task on one example: sizes, and either a seed (random inputs,
 * integer-valued; with non-integer values too if fractional) or given
 * input values (in_vals[i] for in_vars[i]).  Appends it. */
static int add_example(task_ctx *t, const long *sizes, uint64_t seed, int fractional,
                       const ir_tensor *in_vals, ir_error *why) {
  if (t->ex.n == ES_MAX_EX) return ir_error_set(why, nowhere, IR_ERR_RANGE, "too many examples");
  const ir_kernel *k = t->k;
  interp_env env;
  ir_error err;
  if (interp_env_init(&env, k, sizes, &err))
    return ir_error_set(why, nowhere, err.code, "%s", err.msg);
  interp_fill_random(&env, seed);
  interp_rng rng;
  interp_rng_seed(&rng, seed ^ 0x5eed5eedull);
  for (int i = 0; i < t->nin; i++) {
    int v = t->in_vars[i];
    ir_tensor *val = &env.vals[v];
    size_t n = ir_tensor_size(val);
    double *buf = ir_malloc((n ? n : 1) * sizeof(double));
    if (in_vals) {
      memcpy(buf, in_vals[i].data, n * sizeof(double));
    } else if (k->vars[v]->kind == IR_VAR_LOCAL || k->vars[v]->kind == IR_VAR_LOCAL_ARRAY) {
      for (size_t j = 0; j < n; j++)
        buf[j] = (double)interp_rng_range(&rng, INTERP_ARRAY_MIN, INTERP_ARRAY_MAX);
    } else {
      memcpy(buf, val->data, n * sizeof(double));
    }
    for (size_t j = 0; fractional && !in_vals && j < n; j++)
      buf[j] += fraction(k, &rng);
    interp_set_values(&env, v, buf);
    ir_free(buf);
  }
  int r = interp_run(&env, t->prelude, &err);
  int e = t->ex.n;
  t->before[e] = ir_calloc((size_t)k->nvars, sizeof(ir_tensor));
  t->after[e] = ir_calloc((size_t)k->nvars, sizeof(ir_tensor));
  for (int v = 0; v < k->nvars && !r; v++)
    if (env.vals[v].data) tensor_copy(&t->before[e][v], &env.vals[v]);
  /* sub-goal statements run with the task, reading the same values */
  if (!r) r = sg_run(&t->subgoals, &env, t->mask, e, &err);
  if (!r) r = interp_run(&env, t->mask, &err);
  for (int v = 0; v < k->nvars && !r; v++)
    if (env.vals[v].data) tensor_copy(&t->after[e][v], &env.vals[v]);
  interp_env_free(&env);
  if (r) {
    ir_pos pos = err.pos;
    if (!pos.file) pos.file = k->file;
    ir_error_set(why, pos, err.code, "%s", err.msg);
    free_example(t, e);
    return -1;
  }
  t->ex.sizes[e] = ir_arena_alloc(t->arena, (size_t)k->nvars * sizeof(long));
  memcpy(t->ex.sizes[e], sizes, (size_t)k->nvars * sizeof(long));
  t->ex.zero_sign[e] = 0;
  t->ex.n++;
  return 0;
}

/* Leaf values of node n on example e (arguments: the input's value). */
static int leaf_values(task_ctx *t, const ir_tnode *n, int e, ir_tensor *out) {
  ir_error err;
  return enum_eval_node(n, t->before[e], t->k->nvars, t->ex.sizes[e], out, &err);
}

/* The comparison mask of output var on example e: inside the written
 * region and defined in the expected values. */
static unsigned char *cmp_mask(task_ctx *t, const poly_output *po, const ir_mask *m,
                               const ir_tensor *expect, int e) {
  size_t n = ir_tensor_size(expect);
  unsigned char *c = ir_arena_alloc(t->arena, n ? n : 1);
  long idx[IR_MAX_RANK] = {0};
  for (size_t i = 0; i < n; i++) {
    ir_unravel(i, expect->rank, expect->dims, idx);
    int in = !m || ir_mask_contains(m, idx, symval, t->ex.sizes[e]);
    c[i] = in && !(expect->poison && expect->poison[i]);
  }
  (void)po;
  return c;
}

/* The dialect's select production for (i1 mask, a, b) -> a's type
 * (make_op, below). */
static const ir_tnode *make_op(task_ctx *t, const char *kernel, const ir_tnode *const *ops,
                               int n, const ir_type *ty);
static const ir_tnode *make_select(task_ctx *t, const ir_tnode *mask,
                                   const ir_tnode *a, const ir_tnode *b) {
  const ir_tnode *ops[3] = {mask, a, b};
  return make_op(t, "select", ops, 3, &a->type);
}

/* Does the dialect's select accept (mask, data of the mask's shape, a
 * rank-0 constant)?  Dialects that broadcast implicitly (hlo) do. */
static int select_takes_scalar(task_ctx *t, const ir_type *mask) {
  ir_type data = *mask, scalar = {t->k->data_type, 0, {0}};
  data.elem = t->k->data_type;
  for (int i = 0; i < t->d->nops; i++) {
    const gram_op *op = t->d->ops[i];
    if (op->nops != 3 || op->kernel_attr >= 0) continue;
    const char *kn = gram_prod_kernel(op, NULL);
    if (!kn || strcmp(kn, "select")) continue;
    ir_type tys[3] = {*mask, data, scalar};
    gram_prod prods[4];
    if (gram_productions(op, tys, &data, prods, 4, NULL) > 0) return 1;
  }
  return 0;
}

/* How many candidates with an unknown verdict a search steps past. */
#define UNKNOWN_RETRIES 16
/* How many candidates proved only under an avoidable assumption (the
 * first is the fallback answer) a search steps past, and how much more
 * work it may do after the fallback, in result elements computed
 * (enum_stats.elements): 1/ALT_WORK_DIV of the work before, at least
 * ALT_WORK_MIN (a count, so the outcome does not depend on the machine). */
#define AVOIDABLE_RETRIES 4
#define ALT_WORK_DIV 4
#define ALT_WORK_MIN 120000000L
/* The least work of a search that may take more than one op beyond the
 * fallback (res->verify.avoidable > 1: an exact max or min of C's
 * comparisons selects on NaN and -0): such searches grow fastest with
 * their bound, and an exact program, when there is one, is found early
 * (a clamp's fmax: 4 ops in about 150000 candidates). */
#define ALT_WORK_MIN_WIDE 15000000L
/* How many rounds (new sub-goals, fresh examples, counterexamples) one
 * output may take; hitting it is the output's failure reason. */
#define MAX_ROUNDS 64

static void nodes_reserve(node_list *l, int more) {
  if (l->n + more <= l->cap) return;
  int cap = l->cap ? l->cap : 64;
  while (cap < l->n + more) cap *= 2;
  l->v = ir_realloc(l->v, sizeof(l->v[0]) * (size_t)cap);
  l->cap = cap;
}

static void nodes_push(node_list *l, const ir_tnode *n) {
  nodes_reserve(l, 1);
  l->v[l->n++] = n;
}

static int nodes_has(const node_list *l, const ir_tnode *n) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == n) return 1;
  return 0;
}

/* The constant leaves of type vt (NULL: rank 0) appended to l. */
static void constant_leaves(task_ctx *t, const ir_type *vt, node_list *l) {
  nodes_reserve(l, sg_constant_count(&t->subgoals, t->k));
  l->n += sg_constant_leaves(&t->subgoals, t->store, t->k, vt, l->v + l->n, l->cap - l->n);
}

/* Does mask pm of a tensor of type vt bound it by a size that is none of
 * its dims (a part cut at a loop-invariant subscript: lu's column A[k][j]
 * at the kept iterator j, not a halo of the array's own box)? */
static int cut_by_size(const poly_mask *pm, const ir_type *vt) {
  for (int c = 0; c < pm->ncons; c++)
    for (int p = 0; p < pm->cons[c].nparams; p++) {
      int dim = 0;
      for (int d = 0; d < vt->rank; d++) dim |= vt->dims[d] == pm->cons[c].pvar[p];
      if (pm->cons[c].pcoef[p] && !dim) return 1;
    }
  return 0;
}

/* The leaves for region r of a tensor of type vt (elem ignored) when it is
 * one affine mask, or for each of its masks cut by a size that is none of
 * vt's dims when it is a disjunction (lu's inner item reads A in (i0 < j
 * and i1 == j) or (i0 == i and i1 <= j): a column and a row; isl's pieces
 * of a stencil's halo, bounded by the array's own extents, would only grow
 * the search, heat-3d's beyond its memory budget): the mask, and the constants a select on it needs (`select(mask,
 * A, 0)`), shaped like the mask when the dialect's select does not take a
 * rank-0 operand (no implicit broadcasting).  Appended to l. */
static void mask_leaves(task_ctx *t, const poly_region *r, const ir_type *vt, node_list *l) {
  ir_mask m;
  ir_type mt = *vt;
  mt.elem = IR_I1;
  if (r->kind != POLY_REGION_MASK) return;
  int any = 0;
  for (int i = 0; i < r->nmasks; i++)
    if ((r->nmasks == 1 || cut_by_size(&r->masks[i], vt)) && !poly_mask_ir(&r->masks[i], &m)) {
      nodes_push(l, ir_tp_mask(t->store, &m, &mt));
      any = 1;
    }
  if (any && !select_takes_scalar(t, &mt)) {
    mt.elem = t->k->data_type;
    constant_leaves(t, &mt, l);
  }
}

/* Whether op has a region attribute whose values are all conditional
 * updates (interp_body_update_dir). */
static int only_updates(const gram_op *op) {
  for (int i = 0; i < op->nattrs; i++) {
    const gram_attr *a = &op->attrs[i];
    if (a->dom != GRAM_DOM_REGION || a->nvals == 0) continue;
    int all = 1;
    for (int v = 0; v < a->nvals && all; v++) {
      int b = interp_body_parse(a->vals[v]);
      all = b >= 0 && interp_body_update_dir((interp_body)b) >= 0;
    }
    if (all) return 1;
  }
  return 0;
}

/* The dialect's op of kernel `name` with one operand, or NULL. */
static const gram_op *unary_op(const gram_dialect *d, const char *name) {
  for (int i = 0; i < d->nops; i++)
    if (d->ops[i]->nops == 1 && d->ops[i]->kernel && !strcmp(d->ops[i]->kernel, name))
      return d->ops[i];
  return NULL;
}

/* Has dialect d an op of semantic kernel `name` (also through a kernel
 * attribute: linalg's map_unary[fun=neg])? */
static int has_kernel(const gram_dialect *d, const char *name) {
  ir_attr none[IR_TP_MAX_ATTRS];
  memset(none, 0, sizeof none);
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->kernel_attr < 0) {
      if (op->kernel && !strcmp(op->kernel, name)) return 1;
      continue;
    }
    for (int v = 0; v < op->attrs[op->kernel_attr].nvals; v++) {
      none[op->kernel_attr].n = 1;
      none[op->kernel_attr].v[0] = (int8_t)v;
      const char *kn = gram_prod_kernel(op, none);
      if (kn && !strcmp(kn, name)) return 1;
    }
  }
  return 0;
}

/* Which ops the task's arithmetic asks for (docs/enumerator.md: op
 * hints), decided by each op's semantic kernel. */
static int op_allowed(const gram_op *op, unsigned hints) {
  if (gram_op_has_window(op)) return 0; /* built from the accesses only */
  ir_attr none[IR_TP_MAX_ATTRS];
  memset(none, 0, sizeof none);
  if (op->kernel_attr >= 0) {
    /* the kernel is chosen by an attribute: allowed if any choice is */
    for (int v = 0; v < op->attrs[op->kernel_attr].nvals; v++) {
      none[op->kernel_attr].n = 1;
      none[op->kernel_attr].v[0] = (int8_t)v;
      const interp_op *k = interp_op_find(gram_prod_kernel(op, none));
      if (k && sg_kernel_allowed(k->name, hints)) return 1;
    }
    return 0;
  }
  const interp_op *k = interp_op_find(op->kernel);
  if (!k || !sg_kernel_allowed(k->name, hints)) return 0;
  /* a reduction whose bodies are all conditional updates (C's running
   * maximum as written, linalg's reduce_update) is worth trying only where
   * the task has a running maximum or minimum */
  if (only_updates(op) && !(hints & (POLY_OP_RED_MAX | POLY_OP_RED_MIN))) return 0;
  /* a reduction whose body is fixed (tosa.reduce_max: body=max) is worth
   * trying where that body's op is */
  for (int i = 0; i < op->nkattrs; i++)
    if (op->kattrs[i].kind == GRAM_KV_NAME && !strcmp(op->kattrs[i].key, "body") &&
        !sg_kernel_allowed(op->kattrs[i].name, hints))
      return 0;
  return 1;
}

/* The search for one output of a task, across its rounds. */
typedef struct out_search {
  const poly_output *po;
  ir_type otype;           /* the output's type */
  ir_mask wmask;
  const ir_mask *wm;       /* the written region, NULL when the whole box */
  const gram_op **ops;     /* the ops the task's hints allow */
  int nops;
  const ir_tnode *old_leaf;  /* the output's old value (an input), or NULL */
  const ir_tnode *mask_leaf; /* the written region as a leaf (wm set) */
  node_list extra;         /* solved sub-goals: leaves of the later rounds */
  /* Candidates whose verification was unknown: the search goes on without
   * them (another program with the same values may be provable); the first
   * stays the answer if none is. */
  const ir_tnode *blocked[UNKNOWN_RETRIES];
  int nblocked;
  enum_output first_unknown;
  /* The first candidate proved only under an avoidable assumption
   * (enum_verify_result.avoidable): the answer unless a candidate of at
   * most `bound` ops is proved without it. */
  int navoidable;
  int derived;             /* the fallback's derived candidates were tried */
  enum_output fallback;
  int bound;               /* its ops, without the completion's select */
  long alt_cap;            /* stats.enumerated at which the search stops */
  double start;
  int rounds;
} out_search;

/* The output's type, written region and allowed ops into s.  Returns 0, or
 * 1 with err filled. */
static int out_setup(task_ctx *t, const poly_output *po, out_search *s, ir_error *err) {
  const ir_kernel *k = t->k;
  s->po = po;
  if (var_type(k, po->var, &s->otype)) {
    return untyped_var(k, po->var, err);
  }
  if (po->region.kind == POLY_REGION_MASK) {
    if (region_mask(&po->region, &s->wmask)) {
      ir_error_set(err, nowhere, IR_ERR_INPUT, "written region of %s (%s) is not one affine mask",
                   k->vars[po->var]->name, po->region.text);
      return 1;
    }
    s->wm = &s->wmask;
  } else if (po->region.kind == POLY_REGION_OPAQUE) {
    ir_error_set(err, nowhere, IR_ERR_INPUT, "written region of %s is not affine",
                 k->vars[po->var]->name);
    return 1;
  }
  /* the ops worth trying: the task's arithmetic, and whether a product
   * without a sum may still be a dot_general: an input (not a scalar) of
   * fewer dims than the output (an outer product: gemver's u1 v1^T), of
   * more (a masked contraction picks one element: a live-out scalar's
   * last value), or a matrix (one element per row: symm's A[i][i] *
   * B[i][j] as dot_general(select(i == k, A, 0), B)); not for vectors of
   * the output's shape, elementwise */
  unsigned hints = t->pt->ops;
  for (int i = 0; i < t->nin; i++) {
    int r = t->in_args[i]->type.rank;
    if ((r > 0 && r != s->otype.rank) || r >= 2) hints |= SG_HINT_OUTER;
  }
  /* a negation in a dialect without negate (tosa) is 0 - x */
  if ((hints & POLY_OP_NEG) && !has_kernel(t->d, "neg")) hints |= POLY_OP_SUB;
  s->ops = ir_malloc(sizeof(s->ops[0]) * (size_t)(t->d->nops ? t->d->nops : 1));
  for (int i = 0; i < t->d->nops; i++)
    if (op_allowed(t->d->ops[i], hints)) s->ops[s->nops++] = t->d->ops[i];
  for (int i = 0; i < t->nin; i++)
    if (t->in_vars[i] == po->var) s->old_leaf = t->in_args[i];
  if (s->wm) {
    ir_type mt = s->otype;
    mt.elem = IR_I1;
    s->mask_leaf = ir_tp_mask(t->store, s->wm, &mt);
  }
  s->start = es_now();
  return 0;
}

/* Each conversion of a kernel (poly_cast_converts), from its operand's
 * element type to its own, handed to fn. */
typedef void (*cast_fn)(ir_elem from, ir_elem to, void *user);
typedef struct cast_walk {
  cast_fn fn;
  void *user;
} cast_walk;

static void expr_casts(const ir_expr *e, const cast_walk *w) {
  if (poly_cast_converts(e)) w->fn(e->args[0]->type, e->type, w->user);
  for (int i = 0; i < e->nargs; i++) expr_casts(e->args[i], w);
}

static int stmt_casts(const ir_stmt *s, const ir_stmt *const *loops, int depth, void *user) {
  (void)loops, (void)depth;
  expr_casts(s->rhs, user);
  return 0;
}

static void kernel_casts(const ir_kernel *k, cast_fn fn, void *user) {
  cast_walk w = {fn, user};
  ir_kernel_walk_assigns(k, stmt_casts, &w);
}

static void add_cast_elems(ir_elem from, ir_elem to, void *user) {
  *(unsigned *)user |= (1u << to) | (1u << from);
}

/* The element types k's conversions involve (bit 1 << ir_elem; 0 when it
 * converts nothing): the convert ops' targets, and the types of constants
 * besides the data type. */
static unsigned cast_elems(const ir_kernel *k) {
  unsigned m = 0;
  kernel_casts(k, add_cast_elems, &m);
  return m;
}

/* Does dialect d offer C's conversion from `from` to `to`: an op of
 * kernel convert whose result rule takes the pair (tosa has none from f32
 * to an integer, its cast rounding where C truncates)? */
static int dialect_converts(const gram_dialect *d, ir_elem from, ir_elem to) {
  ir_type x = {from, 0, {0}}, r = {to, 0, {0}};
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    gram_prod ps[4];
    if (op->nops == 1 && gram_op_needs_target(op) && op->kernel && !strcmp(op->kernel, "convert") &&
        gram_productions(op, &x, &r, ps, 4, NULL) > 0)
      return 1;
  }
  return 0;
}

typedef struct cast_find {
  const gram_dialect *d;
  ir_elem from, to; /* the first conversion d does not offer */
  int found;
} cast_find;

static void find_missing_cast(ir_elem from, ir_elem to, void *user) {
  cast_find *f = user;
  if (!f->found && !dialect_converts(f->d, from, to)) f->from = from, f->to = to, f->found = 1;
}

/* What the dialect lacks that may explain a failed search, as
 * "; ..." in buf (or ""): a conversion of the kernel's that it does not
 * offer (tosa from f32 to an integer), and for unsigned data the ops it
 * offers for the signed type of that width only (they compare as signed:
 * tosa's maximum on ui32). */
static void search_failure_note(const task_ctx *t, char *buf, size_t n) {
  const gram_dialect *d = t->d;
  ir_elem e = t->k->data_type;
  cast_find f = {d, IR_F64, IR_F64, 0};
  kernel_casts(t->k, find_missing_cast, &f);
  size_t len = 0;
  buf[0] = 0;
  if (f.found)
    len += (size_t)snprintf(buf, n, "; dialect %s has no conversion from %s to %s", d->name,
                            ir_elem_mlir_name(f.from), ir_elem_mlir_name(f.to));
  if (!ir_elem_is_int(e) || ir_elem_is_signed(e)) return;
  unsigned s = 1u << ir_elem_int(ir_elem_bits(e), 1), u = 1u << e;
  int first = 1;
  for (int i = 0; i < d->nops && len < n; i++)
    if ((d->ops[i]->elems & s) && !(d->ops[i]->elems & u)) {
      len += (size_t)snprintf(buf + len, n - len, "%s%s", first ? "; signed only in " : ", ",
                              d->ops[i]->name);
      first = 0;
    }
  if (!first && len < n)
    snprintf(buf + len, n - len, " (%s data: %s would compare or shift it as signed)",
             ir_elem_mlir_name(e), d->name);
}

/* ------------------------------------------------------ aligned operands */

/* Is e an integer expression of sizes, iterators and literals (+ - *,
 * casts) that ir_expr_eval_int can evaluate? */
static int index_expr(const ir_kernel *k, const ir_expr *e) {
  switch (e->kind) {
  case IR_EX_CONST: return 1;
  case IR_EX_VAR:
    return k->vars[e->var]->kind == IR_VAR_SIZE || k->vars[e->var]->kind == IR_VAR_ITER;
  case IR_EX_NEG:
  case IR_EX_CAST: return index_expr(k, e->args[0]);
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL: return index_expr(k, e->args[0]) && index_expr(k, e->args[1]);
  default: return 0;
  }
}

/* A subscript that is a variable plus a constant (*var its id: an
 * iterator, or a size, as in x[n - 1]) or a constant (*var -1), the
 * constant in *c: checked at every variable set to 0, 1 and 2 in turn.
 * Returns 0, or -1 for any other subscript. */
static int var_offset(const ir_kernel *k, const ir_expr *e, int *var, long *c) {
  if (!index_expr(k, e)) return -1;
  long *vals = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  long c0 = ir_expr_eval_int(e, vals);
  int it = -1, bad = 0;
  for (int v = 0; v < k->nvars && !bad; v++) {
    if (k->vars[v]->kind != IR_VAR_SIZE && k->vars[v]->kind != IR_VAR_ITER) continue;
    vals[v] = 1;
    long c1 = ir_expr_eval_int(e, vals) - c0;
    vals[v] = 2;
    long c2 = ir_expr_eval_int(e, vals) - c0;
    vals[v] = 0;
    if (!c1 && !c2) continue;
    if (c1 != 1 || c2 != 2 || it >= 0) bad = 1;
    it = v;
  }
  ir_free(vals);
  *var = it;
  *c = c0;
  return bad ? -1 : 0;
}

/* var_offset of an iterator plus a constant, or a constant. */
static int iter_offset(const ir_kernel *k, const ir_expr *e, int *iter, long *c) {
  return var_offset(k, e, iter, c) || (*iter >= 0 && k->vars[*iter]->kind != IR_VAR_ITER)
             ? -1 : 0;
}

/* The dialect's slice op: kernel slice with a window attribute. */
static const gram_op *slice_op(const gram_dialect *d, int *wattr) {
  for (int i = 0; i < d->nops; i++) {
    const gram_op *op = d->ops[i];
    if (op->nops != 1 || !op->kernel || strcmp(op->kernel, "slice")) continue;
    for (int a = 0; a < op->nattrs; a++)
      if (op->attrs[a].dom == GRAM_DOM_WINDOW) {
        *wattr = a;
        return op;
      }
  }
  return NULL;
}

typedef struct align_ctx {
  task_ctx *t;
  const ir_type *otype;
  int witer[IR_MAX_RANK]; /* the write's iterator per output dim */
  long wc[IR_MAX_RANK];   /* and its constant */
  const gram_op *op;
  int wattr;
  node_list *l;
} align_ctx;

/* The slice of input array x read by the element reference e, aligned
 * with the write: each dim of x whose subscript has one of the write's
 * iterators plus a constant is kept, at the difference of the constants,
 * as the output dim of that iterator; x's dims with a constant subscript,
 * or one counted from the dim's end (x[i][m - 1] of x[n][m]), are
 * dropped.  The result has the output's dims that x's kept dims read, in
 * the output's order (all of them: the output's shape; fewer, as s[0] in
 * A[i] -= s[0] or w[i + 1] in B[i][j] = w[i + 1]: a tensor the search
 * broadcasts).  Appended to the leaves unless it is x itself. */
static void align_ref(align_ctx *a, const ir_expr *e) {
  task_ctx *t = a->t;
  const ir_kernel *k = t->k;
  const ir_tnode *x = NULL;
  for (int i = 0; i < t->nin; i++)
    if (t->in_vars[i] == e->var && t->in_args[i]->kind == IR_TN_ARG) x = t->in_args[i];
  if (!x || e->nargs != x->type.rank || e->nargs > IR_MAX_RANK) return;
  ir_attr given[IR_TP_MAX_ATTRS];
  memset(given, 0, sizeof given);
  ir_attr *w = &given[a->wattr];
  w->n = (int8_t)(2 * e->nargs);
  int next = 0, moved = 0, rank = 0;
  ir_type rt = *a->otype;
  rt.elem = x->type.elem;
  for (int d = 0; d < e->nargs; d++) {
    int var, keep = 0;
    long c;
    if (var_offset(k, e->args[d], &var, &c)) return;
    long start = c;
    if (var >= 0 && k->vars[var]->kind == IR_VAR_ITER) {
      /* the write's dim of this iterator, after the ones kept so far */
      while (next < a->otype->rank && a->witer[next] != var) next++;
      if (next >= a->otype->rank) return;
      rt.dims[rank++] = a->otype->dims[next];
      start = c - a->wc[next++];
      keep = 1;
    } else if (var >= 0) { /* a size: counted from the end of its dim */
      if (x->type.dims[d] != var) return;
      keep = 2;
    }
    if (start < -128 || start > 127) return;
    w->v[2 * d] = (int8_t)start;
    w->v[2 * d + 1] = (int8_t)keep;
    moved |= start != 0 || keep != 1;
  }
  rt.rank = rank;
  if (!moved && ir_type_equal(&rt, &x->type)) return;
  gram_prod prods[4];
  int np = gram_productions_given(a->op, &x->type, given, &rt, prods, 4, NULL);
  for (int p = 0; p < np && p < 4; p++)
    if (ir_type_equal(&prods[p].result, &rt)) {
      nodes_push(a->l, ir_tp_op(t->store, &a->op->desc, prods[p].attrs, &x, 1, &rt));
      return;
    }
}

static void align_expr(align_ctx *a, const ir_expr *e) {
  if (e->kind == IR_EX_ELEM) align_ref(a, e);
  for (int i = 0; i < e->nargs; i++)
    if (e->kind != IR_EX_ELEM) align_expr(a, e->args[i]);
}

/* The aligned operands of output s->po (docs/enumerator.md, "Aligned
 * operands"): for every statement of the task that writes it at an
 * iterator plus a constant per dim (distinct iterators), the slices of
 * the input arrays its right-hand side reads at those iterators plus
 * constants, or at constants, as tensors of the output's shape.
 * Appended to l. */
static void aligned_leaves(task_ctx *t, const out_search *s, node_list *l) {
  align_ctx a = {.t = t, .otype = &s->otype, .l = l};
  if (!(a.op = slice_op(t->d, &a.wattr))) return;
  for (int i = 0; i < t->pt->nstmts; i++) {
    const ir_stmt *st = t->a->stmts[t->pt->stmts[i]].stmt;
    const ir_expr *lhs = st->lhs;
    if (lhs->var != s->po->var || (lhs->kind == IR_EX_ELEM ? lhs->nargs : 0) != s->otype.rank)
      continue;
    int ok = 1;
    for (int d = 0; d < s->otype.rank && ok; d++) {
      ok = !iter_offset(t->k, lhs->args[d], &a.witer[d], &a.wc[d]) && a.witer[d] >= 0;
      for (int e = 0; e < d && ok; e++) ok = a.witer[e] != a.witer[d];
    }
    if (ok) align_expr(&a, st->rhs);
  }
}

/* ---------------------------------------------------- reversed windows */

/* slice[win](x) into type rt with window start[d] and keep[d] per dim of
 * x (keep NULL: every dim kept), or NULL when the dialect types none. */
static const ir_tnode *window_node(task_ctx *t, const gram_op *op, int wattr, const ir_tnode *x,
                                   const long *start, const long *keep, const ir_type *rt) {
  ir_attr given[IR_TP_MAX_ATTRS];
  memset(given, 0, sizeof given);
  ir_attr *w = &given[wattr];
  w->n = (int8_t)(2 * x->type.rank);
  for (int d = 0; d < x->type.rank; d++) {
    if (start[d] < -128 || start[d] > 127) return NULL;
    w->v[2 * d] = (int8_t)start[d];
    w->v[2 * d + 1] = (int8_t)(keep ? keep[d] : 1);
  }
  gram_prod prods[4];
  int np = gram_productions_given(op, &x->type, given, rt, prods, 4, NULL);
  for (int p = 0; p < np && p < 4; p++)
    if (ir_type_equal(&prods[p].result, rt))
      return ir_tp_op(t->store, &op->desc, prods[p].attrs, &x, 1, rt);
  return NULL;
}

/* reverse[dim](x), or NULL when the dialect types none. */
static const ir_tnode *reverse_node(task_ctx *t, const gram_op *op, const ir_tnode *x, int dim) {
  gram_prod prods[IR_MAX_RANK + 1];
  int np = gram_productions(op, &x->type, &x->type, prods, IR_MAX_RANK + 1, NULL);
  for (int p = 0; p < np && p <= IR_MAX_RANK; p++)
    for (int a = 0; a < op->nattrs; a++)
      if (op->attrs[a].dom == GRAM_DOM_DIM && prods[p].attrs[a].n > 0 &&
          prods[p].attrs[a].v[0] == dim && ir_type_equal(&prods[p].result, &x->type))
        return ir_tp_op(t->store, &op->desc, prods[p].attrs, &x, 1, &x->type);
  return NULL;
}

/* The reversed windows of input array x read by element reference e
 * (docs/enumerator.md, "Reversed windows"), for a reference that reads x
 * at an offset in a size that is not the extent of that dim: a subscript
 * s - i + c (durbin's r[k - i - 1] of r[n], k the body's kept iterator) or
 * s + c (sum[k]), each other subscript an iterator plus a constant
 * (distinct iterators) or a constant.  A leaf has x's dims read by
 * iterators (the dims read at s + c or at a constant are dropped); its
 * element p is x at the subscripts with each iterator set to its p, for p
 * in a window of extent s along each reversed dim: slice x from 0 (each
 * other dim from its offset) to extent s, reverse it, and slice the
 * result so that p reads x[s + c - p]: p in [c + 1, c + 1 + s), which
 * reads x[0 .. s-1] (i from 1 to k in x[k - i]), and, where c + 1 is not
 * 0, a second leaf whose window starts at x[c + 1] instead, p in [0, s)
 * (x[k - i] for i < k); a dim read at s + c is the window x[c + 1 .. c +
 * s] reversed, dropped at 0 (its element x[s + c]).  Outside the window the elements are x's own
 * (select on the window's mask): a program that computes over them and
 * masks them away multiplies no padding zero.  Each op is the dialect's
 * own (slice, reverse, select), so the leaf means what they mean
 * everywhere.  Appended to l. */
static void window_ref(task_ctx *t, const ir_expr *e, node_list *l) {
  const ir_kernel *k = t->k;
  const ir_tnode *x = NULL;
  for (int i = 0; i < t->nin; i++)
    if (t->in_vars[i] == e->var && t->in_args[i]->kind == IR_TN_ARG) x = t->in_args[i];
  if (!x || e->nargs != x->type.rank || !e->nargs || e->nargs > IR_MAX_RANK) return;
  int wattr, rev[IR_MAX_RANK], iters[IR_MAX_RANK], size[IR_MAX_RANK], rdim[IR_MAX_RANK];
  int moved = 0, other = 0;
  const gram_op *sl = slice_op(t->d, &wattr), *rv = unary_op(t->d, "reverse");
  if (!sl || !rv) return;
  long off[IR_MAX_RANK], fkeep[IR_MAX_RANK];
  ir_type wt = x->type, rt = x->type;
  rt.rank = 0;
  long *coef = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  int ok = 1;
  for (int d = 0; d < e->nargs && ok; d++) {
    long c0;
    int it = -1, sz = -1, others = 0;
    rev[d] = 0;
    iters[d] = -1;
    if (!index_expr(k, e->args[d]) || ir_expr_affine(k, e->args[d], coef, &c0)) {
      ok = 0;
      break;
    }
    for (int v = 0; v < k->nvars; v++) {
      if (!coef[v]) continue;
      if (k->vars[v]->kind == IR_VAR_ITER && (coef[v] == 1 || coef[v] == -1) && it < 0) it = v;
      else if (k->vars[v]->kind == IR_VAR_SIZE && coef[v] == 1 && sz < 0) sz = v;
      else others = 1;
    }
    for (int q = 0; q < d && it >= 0; q++) others |= iters[q] == it;
    iters[d] = it;
    fkeep[d] = it >= 0;
    rdim[d] = it >= 0 ? rt.rank : -1;
    if (it >= 0) rt.dims[rt.rank++] = x->type.dims[d];
    off[d] = c0;
    size[d] = sz;
    if (others || (it >= 0 && coef[it] == -1 && sz < 0) || (it >= 0 && coef[it] == 1 && sz >= 0)) {
      ok = 0;
    } else if (sz >= 0) { /* s - i + c, or s + c: a window of extent s, reversed */
      wt.dims[d] = sz;
      rev[d] = 1;
      moved |= sz != x->type.dims[d];
      other |= it >= 0 && c0 != -1;
    }
  }
  ir_free(coef);
  /* without a reversed dim, only an element of a local (a temporary
   * expanded over the kept loop, read back at the iteration that wrote
   * it: durbin's sum[k]); a parameter array's row, column or element at
   * a size (gramschmidt's A[i][k], R[k][k]) is left to the masks, whose
   * whole-array programs the search finds exact */
  int rev_iter = 0;
  for (int d = 0; d < e->nargs; d++) rev_iter |= rev[d] && iters[d] >= 0;
  int local = k->vars[e->var]->kind == IR_VAR_LOCAL || k->vars[e->var]->kind == IR_VAR_LOCAL_ARRAY;
  if (!ok || !moved || !(rev_iter || (local && !rt.rank))) return;
  for (int form = 0; form < 1 + other; form++) {
    /* form 0: the window x[0 .. s-1] at p in [c + 1, c + 1 + s); form 1:
     * x[c + 1 .. c + s] at p in [0, s) */
    long start[IR_MAX_RANK], fstart[IR_MAX_RANK];
    ir_mask m = {0};
    for (int d = 0; d < e->nargs; d++) {
      /* a dim read at s + c, dropped: x[c + 1 .. c + s] reversed, at 0 */
      int at0 = form || iters[d] < 0;
      start[d] = rev[d] ? (at0 ? off[d] + 1 : 0) : iters[d] >= 0 ? off[d] : 0;
      fstart[d] = rev[d] ? (at0 ? 0 : -(off[d] + 1)) : iters[d] >= 0 ? 0 : off[d];
      if (!rev[d] || iters[d] < 0 || m.ncons + 2 > IR_MASK_MAX_CONS) continue;
      long lo = form ? 0 : off[d] + 1; /* lo <= p < lo + s */
      ir_mask_con *mc = &m.cons[m.ncons++];
      mc->coef[rdim[d]] = 1;
      mc->c = (int)-lo;
      mc = &m.cons[m.ncons++];
      mc->coef[rdim[d]] = -1;
      mc->sym[0] = size[d];
      mc->pcoef[0] = 1;
      mc->c = (int)(lo - 1);
    }
    const ir_tnode *n = window_node(t, sl, wattr, x, start, NULL, &wt);
    for (int d = 0; d < e->nargs && n; d++)
      if (rev[d]) n = reverse_node(t, rv, n, d);
    if (n) n = window_node(t, sl, wattr, n, fstart, fkeep, &rt);
    if (n && m.ncons && ir_type_equal(&rt, &x->type)) {
      ir_type mt = rt;
      mt.elem = IR_I1;
      n = make_select(t, ir_tp_mask(t->store, &m, &mt), n, x);
    }
    if (n) nodes_push(l, n);
  }
}

static void window_expr(task_ctx *t, const ir_expr *e, node_list *l) {
  if (e->kind == IR_EX_ELEM) window_ref(t, e, l);
  for (int i = 0; i < e->nargs; i++)
    if (e->kind != IR_EX_ELEM) window_expr(t, e->args[i], l);
}

/* The reversed windows the task's statements read (window_ref), as
 * leaves of every output.  Appended to l. */
static void window_leaves(task_ctx *t, node_list *l) {
  for (int i = 0; i < t->pt->nstmts; i++)
    window_expr(t, t->a->stmts[t->pt->stmts[i]].stmt->rhs, l);
}

/* The leaves of a round: the inputs, the constants (rank 0 and of the
 * output's type, also in the element types of the kernel's conversions), the masks of the regions the task reads and writes and
 * of the points of each statement's value space that hold final values,
 * and the solved sub-goals; each once, with its values on every example.
 * Returns the table (*n entries). */
static es_leaf *round_leaves(task_ctx *t, const out_search *s, int *n) {
  const ir_kernel *k = t->k;
  node_list l = {0};
  for (int i = 0; i < t->nin; i++) nodes_push(&l, t->in_args[i]);
  aligned_leaves(t, s, &l);
  window_leaves(t, &l);
  constant_leaves(t, NULL, &l);
  constant_leaves(t, &s->otype, &l);
  unsigned ce = cast_elems(k);
  for (int e = 0; e < IR_ELEM_COUNT; e++) /* rank-0 constants of the other types */
    if ((ce & (1u << e)) && e != (int)k->data_type) {
      ir_type sc = {(ir_elem)e, 0, {0}}, full = s->otype;
      full.elem = (ir_elem)e;
      constant_leaves(t, &sc, &l);
      constant_leaves(t, &full, &l); /* for dialects without implicit broadcasting */
    }
  for (int i = 0; i < t->pt->naccess; i++) {
    const poly_access *ac = &t->pt->access[i];
    const poly_region *rs[2] = {&ac->read, &ac->write};
    for (int r = 0; r < 2; r++) {
      ir_type vt;
      if (!var_type(k, ac->var, &vt)) mask_leaves(t, rs[r], &vt, &l);
    }
  }
  for (int i = 0; i < t->pt->nstmts; i++) {
    const poly_stmt *ps = &t->a->stmts[t->pt->stmts[i]];
    ir_type vt = {k->data_type, ps->nspace, {0}};
    for (int d = 0; d < ps->nspace; d++) vt.dims[d] = ps->space_dims[d];
    if (ps->nspace >= 0) mask_leaves(t, &ps->last, &vt, &l);
  }
  for (int i = 0; i < s->extra.n; i++) nodes_push(&l, s->extra.v[i]);
  es_leaf *leaves = ir_calloc((size_t)(l.n ? l.n : 1), sizeof(es_leaf));
  int nleaves = 0;
  for (int i = 0; i < l.n; i++) {
    int dup = 0;
    for (int j = 0; j < nleaves; j++) dup |= leaves[j].node == l.v[i];
    if (dup) continue;
    es_leaf *lf = &leaves[nleaves];
    int bad = 0;
    for (int e = 0; e < t->ex.n && !bad; e++) bad = leaf_values(t, l.v[i], e, &lf->values[e]);
    if (bad) {
      for (int e = 0; e < t->ex.n; e++) interp_tensor_free(&lf->values[e]);
      continue;
    }
    lf->node = l.v[i];
    nleaves++;
  }
  ir_free(l.v);
  *n = nleaves;
  return leaves;
}

/* Sub-goals fit in a search's goal table next to the main goal. */
_Static_assert(SG_MAX < ES_MAX_GOALS, "every sub-goal has room in a search");

/* One search round: the output as the main goal, its unsolved sub-goals
 * after it.  New sub-goal solutions join s->extra (*newsub set); *found is
 * the main goal's solution or NULL. */
static es_outcome search_round(task_ctx *t, out_search *s, double deadline,
                               enum_output *res, const ir_tnode **found, int *newsub) {
  const ir_kernel *k = t->k;
  ir_budget_phase("search");
  int nleaves;
  es_leaf *leaves = round_leaves(t, s, &nleaves);
  es_goal *goals = ir_calloc(ES_MAX_GOALS, sizeof(es_goal));
  int ngoals = 0;
  es_goal *g = &goals[ngoals++];
  g->type = s->otype;
  g->is_main = 1;
  g->what = "output";
  g->rtol = t->subgoals.rtol;
  for (int e = 0; e < t->ex.n; e++) {
    g->expect[e] = t->after[e][s->po->var];
    g->cmp[e] = cmp_mask(t, s->po, s->wm, &g->expect[e], e);
  }
  ngoals += sg_goals(&t->subgoals, s->po->var, t->ex.n, goals + ngoals, ES_MAX_GOALS - ngoals,
                     s->extra.v, s->extra.n, t->arena);
  es_search_in in = {
      .kernel = k, .dialect = t->d, .ops = s->ops, .nops = s->nops, .ex = &t->ex,
      .leaves = leaves, .nleaves = nleaves, .goals = goals, .ngoals = ngoals,
      .max_ops = s->navoidable && s->bound < t->o->max_ops ? s->bound : t->o->max_ops,
      .free_views = 1, .deadline = deadline,
      .memory_bytes = t->o->memory_mb * 1024 * 1024, .progress = t->o->progress,
      .max_elements = s->navoidable ? s->alt_cap : 0,
      .threads = t->o->threads,
      .task = t->pt->index, .elems = cast_elems(k), .store = t->store, .blocked = s->blocked, .nblocked = s->nblocked};
  es_outcome oc = es_search(&in, &res->stats);
  for (int i = 0; i < nleaves; i++)
    for (int e = 0; e < t->ex.n; e++) interp_tensor_free(&leaves[i].values[e]);
  ir_free(leaves);
  *found = goals[0].solution;
  *newsub = 0;
  for (int i = 1; i < ngoals; i++)
    if (goals[i].solution) {
      if (!nodes_has(&s->extra, goals[i].solution)) {
        nodes_push(&s->extra, goals[i].solution);
        *newsub = 1;
      }
      if (t->subgoals.goals[goals[i].id].var < 0 && !nodes_has(&t->shared, goals[i].solution))
        nodes_push(&t->shared, goals[i].solution);
    }
  ir_free(goals);
  return oc;
}

/* The complete new value of a found program: with a written region, the
 * old values kept outside it by the dialect's select.  Returns it, or NULL
 * with err filled. */
static const ir_tnode *complete_program(task_ctx *t, const out_search *s,
                                        const ir_tnode *found, ir_error *err) {
  if (!s->wm) return found;
  if (!s->old_leaf) {
    ir_error_set(err, nowhere, IR_ERR_INPUT, "partial write without the old value as input");
    return NULL;
  }
  const ir_tnode *prog = make_select(t, s->mask_leaf, found, s->old_leaf);
  if (!prog)
    ir_error_set(err, nowhere, IR_ERR_INPUT,
                 "dialect %s has no select to keep old values outside %s", t->d->name,
                 s->po->region.text);
  return prog;
}

/* Has some example the size assignment sizes? */
static int sizes_used(const task_ctx *t, const long *sizes) {
  for (int e = 0; e < t->ex.n; e++)
    if (!memcmp(t->ex.sizes[e], sizes, (size_t)t->k->nvars * sizeof(long))) return 1;
  return 0;
}

/* The sizes of a fresh example: other sizes than every example's, as
 * small as the default sizes allow, since the example joins every later
 * search and each candidate is evaluated on it (a rank-4 intermediate at
 * 19 x 17 is 100 times one at 7 x 5): the default sizes of variant 0, 1,
 * 2, ... (interp_default_sizes: larger primes each variant) rotated among
 * the size variables, the first assignment no example has; else the
 * default sizes of variant 2 + round. */
static void fresh_sizes(const task_ctx *t, const out_search *s, long *sizes) {
  const ir_kernel *k = t->k;
  long *base = ir_calloc((size_t)k->nvars + 1, sizeof *base);
  int *vs = ir_calloc((size_t)k->nvars + 1, sizeof *vs);
  int n = 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) vs[n++] = v;
  int found = 0;
  for (int variant = 0; variant < 2 + s->rounds && !found; variant++) {
    interp_default_sizes(k, variant, base);
    for (int r = 0; r < n && !found; r++) {
      memcpy(sizes, base, (size_t)k->nvars * sizeof(long));
      for (int i = 0; i < n; i++) sizes[vs[i]] = base[vs[(i + r) % n]];
      ir_kernel_fit_sizes(k, sizes);
      found = !sizes_used(t, sizes);
    }
  }
  if (!found) interp_default_sizes(k, 2 + s->rounds, sizes);
  ir_free(base);
  ir_free(vs);
}

static int agrees_on(task_ctx *t, const out_search *s, const ir_tnode *prog, int e);

/* The spec check of prog on a fresh example (other sizes, other seed,
 * non-integer values; fresh_sizes), which then stays with the examples.
 * Returns 0 when prog agrees, 1 when it does not, -1 with err filled when
 * the example cannot be made. */
static int fresh_check(task_ctx *t, const out_search *s, const ir_tnode *prog,
                       ir_error *err) {
  const ir_kernel *k = t->k;
  long *sizes = ir_arena_alloc(t->arena, (size_t)k->nvars * sizeof(long));
  fresh_sizes(t, s, sizes);
  ir_error why;
  if (add_example(t, sizes, t->next_seed++, 1, NULL, &why))
    return wrap(err, &why, "interpreter: ");
  return !agrees_on(t, s, prog, t->ex.n - 1);
}

/* Does complete program prog give output s->po->var's values of example
 * e (every element the task defines)? */
static int agrees_on(task_ctx *t, const out_search *s, const ir_tnode *prog, int e) {
  ir_error why;
  ir_tensor got;
  int bad = enum_eval_node(prog, t->before[e], t->k->nvars, t->ex.sizes[e], &got, &why) != 0;
  if (!bad) {
    const ir_tensor *want = &t->after[e][s->po->var];
    size_t n = ir_tensor_size(want);
    double rtol = t->subgoals.rtol;
    for (size_t i = 0; i < n && !bad; i++) {
      if (want->poison && want->poison[i]) continue;
      bad = (got.poison && got.poison[i]) ||
            !(t->ex.zero_sign[e] ? interp_values_agree_signed(want->data[i], got.data[i], rtol)
                                 : interp_values_agree(want->data[i], got.data[i], rtol));
    }
    interp_tensor_free(&got);
  }
  return !bad;
}

/* Does prog agree with every example? */
static int program_matches(task_ctx *t, const out_search *s, const ir_tnode *prog) {
  for (int e = 0; e < t->ex.n; e++)
    if (!agrees_on(t, s, prog, e)) return 0;
  return 1;
}

/* res (of candidate prog) as a set-aside answer: the counterexample is
 * valid only until the next check, the statistics are those of the whole
 * search when it is answered. */
static enum_output set_aside(const enum_output *res, const ir_tnode *prog) {
  enum_output o = *res;
  o.program = prog;
  o.stats.ops = prog->size;
  o.verify.has_cex = 0;
  return o;
}

/* Verify prog (found before completion) through vf.  A counterexample
 * becomes an example; an unknown verdict sets the candidate aside (up to
 * UNKNOWN_RETRIES).  A proof under an avoidable assumption that comes with
 * an input where the assumption matters keeps the first such candidate as
 * the fallback and makes that input an example, which every program proved
 * only under the assumption there fails; the search then looks on among
 * programs of at most the fallback's size (up to AVOIDABLE_RETRIES such
 * proofs).  Returns 0 to accept prog, 1 to search again, 2 to answer the
 * fallback, -1 with err filled. */
static int verify_candidate(task_ctx *t, out_search *s, enum_verify_fn vf, void *vuser,
                            const ir_tnode *prog, const ir_tnode *found, enum_output *res,
                            ir_error *err) {
  res->verify.verdict = ENUM_SKIPPED;
  res->verify.mode = "none";
  if (!vf) return 0;
  enum_query q = {t->k, t->a, t->pt->index, t->mask, t->nin, t->in_vars,
                  t->in_args, s->po->var, prog, t->d, 1};
  vf(vuser, &q, &res->verify);
  int avoidable = res->verify.verdict == ENUM_PROVED && res->verify.avoidable;
  if (avoidable && (!res->verify.has_cex || s->navoidable == AVOIDABLE_RETRIES))
    return s->navoidable ? 2 : 0;
  if ((res->verify.verdict == ENUM_REFUTED || avoidable) && res->verify.has_cex) {
    ir_error why;
    /* the fresh example that checked prog (the last one) has done its
     * part: later searches run without it (it is the largest) */
    if (avoidable && t->ex.n > 1) free_example(t, --t->ex.n);
    /* the sub-goals' sums agree with the programs' there: an empty one is 0 */
    t->subgoals.empty_sums_zero = avoidable;
    int bad = add_example(t, res->verify.cex.sizes, 0, 0, res->verify.cex.inputs, &why);
    t->subgoals.empty_sums_zero = 0;
    if (bad && avoidable) return s->navoidable ? 2 : 0; /* no example: the fallback stands */
    if (bad) return wrap(err, &why, "counterexample: ");
    t->ex.zero_sign[t->ex.n - 1] = (unsigned char)res->verify.cex.zero_sign;
    if (avoidable && !s->navoidable++) {
      s->fallback = set_aside(res, prog);
      s->bound = found->size + res->verify.avoidable;
      long more = res->stats.elements / ALT_WORK_DIV;
      long least = res->verify.avoidable > 1 ? ALT_WORK_MIN_WIDE : ALT_WORK_MIN;
      s->alt_cap = res->stats.elements + (more > least ? more : least);
    }
    return 1;
  }
  if (res->verify.verdict == ENUM_UNKNOWN) {
    if (s->nblocked == UNKNOWN_RETRIES) return s->navoidable ? 2 : 0;
    if (!s->nblocked) s->first_unknown = set_aside(res, prog);
    s->blocked[s->nblocked++] = found;
    return 1;
  }
  return 0;
}

/* The answer when the search finds nothing better after it: the fallback
 * (proved under an avoidable assumption; complete: every candidate up to
 * its size was tried), else the first candidate whose verification was
 * unknown; with the statistics of the whole search. */
static int set_aside_answer(enum_output *res, const out_search *s, int complete) {
  enum_stats stats = res->stats;
  *res = s->navoidable ? s->fallback : s->first_unknown;
  res->stats = stats;
  res->stats.ops = res->program->size;
  res->stats.seconds += es_now() - s->start;
  if (s->navoidable) {
    res->verify.alt_max_ops = s->bound;
    res->verify.alt_complete = complete;
  }
  return 0;
}

/* ------------------------------------------------ derived candidates */

/* The dialect op of node n (an op node), or NULL. */
static const gram_op *node_op(const task_ctx *t, const ir_tnode *n) {
  for (int i = 0; n->kind == IR_TN_OP && i < t->d->nops; i++)
    if (&t->d->ops[i]->desc == n->op) return t->d->ops[i];
  return NULL;
}

/* The semantic kernel name of node n, or "". */
static const char *node_kernel(const task_ctx *t, const ir_tnode *n) {
  const gram_op *op = node_op(t, n);
  const char *k = op ? gram_prod_kernel(op, n->attrs) : NULL;
  return k ? k : "";
}

/* Is n a scalar: rank 0 or every dim 1? */
static int scalar_shaped(const ir_tnode *n) {
  for (int d = 0; d < n->type.rank; d++)
    if (n->type.dims[d] != IR_DIM_ONE) return 0;
  return 1;
}

/* The dialect's op of semantic kernel `kernel` on operands ops[0..n-1]
 * with result type ty (a production of that kernel, whether the op's
 * kernel is fixed or chosen by an attribute: linalg's map[fun=mul]), or
 * NULL when none gives it. */
#define MAKE_PRODS 32
typedef int (*binding_ok)(const gram_binding *b, const void *user);
/* ... and whose binding `ok` accepts (NULL: any): the kernel attributes a
 * derivation needs (which dims a broadcast maps, a reduce's body). */
static const ir_tnode *make_op_if(task_ctx *t, const char *kernel, const ir_tnode *const *ops,
                                  int n, const ir_type *ty, binding_ok ok, const void *user) {
  for (int i = 0; i < t->d->nops; i++) {
    const gram_op *op = t->d->ops[i];
    if (op->nops != n) continue;
    ir_type tys[IR_TP_MAX_OPERANDS];
    for (int j = 0; j < n; j++) tys[j] = ops[j]->type;
    gram_prod prods[MAKE_PRODS];
    int np = gram_productions(op, tys, ty, prods, MAKE_PRODS, NULL);
    for (int p = 0; p < np && p < MAKE_PRODS; p++) {
      const char *kn = gram_prod_kernel(op, prods[p].attrs);
      gram_binding b;
      if (kn && !strcmp(kn, kernel) && ir_type_equal(&prods[p].result, ty) &&
          (!ok || (!gram_bind(op, prods[p].attrs, &b, NULL) && ok(&b, user))))
        return ir_tp_op(t->store, &op->desc, prods[p].attrs, ops, n, ty);
    }
  }
  return NULL;
}

static const ir_tnode *make_op(task_ctx *t, const char *kernel, const ir_tnode *const *ops,
                               int n, const ir_type *ty) {
  return make_op_if(t, kernel, ops, n, ty, NULL, NULL);
}

/* The dialect's product a * b with a's type, or NULL. */
static const ir_tnode *make_mul(task_ctx *t, const ir_tnode *a, const ir_tnode *b) {
  const ir_tnode *ops[2] = {a, b};
  return make_op(t, "mul", ops, 2, &a->type);
}

/* The dialect's broadcast of a to type ty, or NULL. */
static const ir_tnode *make_broadcast(task_ctx *t, const ir_tnode *a, const ir_type *ty) {
  return make_op(t, "broadcast_in_dim", &a, 1, ty);
}

/* n with operand i replaced by x (same op, attributes and type). */
static const ir_tnode *with_operand(task_ctx *t, const ir_tnode *n, int i, const ir_tnode *x) {
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int j = 0; j < n->nops; j++) ops[j] = j == i ? x : n->ops[j];
  return ir_tp_op(t->store, n->op, n->attrs, ops, n->nops, &n->type);
}

/* The value of attribute `name` of op node n, as its enum or region
 * value's name, or NULL. */
static const char *attr_value(const task_ctx *t, const ir_tnode *n, const char *name) {
  const gram_op *op = node_op(t, n);
  for (int a = 0; op && a < op->nattrs; a++)
    if (!strcmp(op->attrs[a].name, name) && op->attrs[a].nvals > 0 && n->attrs[a].n == 1 &&
        n->attrs[a].v[0] >= 0 && n->attrs[a].v[0] < op->attrs[a].nvals)
      return op->attrs[a].vals[n->attrs[a].v[0]];
  return NULL;
}

/* Does op node n compute y times a scalar (*y, *sc)?  A product with a
 * scalar-shaped operand, or a reduce with body mul over unit dims only,
 * from the scalar, of a broadcast of y to those unit dims (linalg has no
 * product with a scalar). */
static int scaling(const task_ctx *t, const ir_tnode *n, const ir_tnode **y,
                   const ir_tnode **sc) {
  const char *kn = node_kernel(t, n);
  if (n->nops == 2 && !strcmp(kn, "mul")) {
    for (int side = 0; side < 2; side++)
      if (scalar_shaped(n->ops[1 - side]) && ir_type_equal(&n->ops[side]->type, &n->type)) {
        *y = n->ops[side];
        *sc = n->ops[1 - side];
        return 1;
      }
    return 0;
  }
  const char *body = attr_value(t, n, "body");
  if (n->nops != 2 || strcmp(kn, "reduce") || !body || strcmp(body, "mul") ||
      n->ops[1]->type.rank != 0)
    return 0;
  const ir_tnode *x = n->ops[0];
  if (x->kind != IR_TN_OP || x->nops != 1 || !ir_type_equal(&x->ops[0]->type, &n->type))
    return 0;
  int units = 0; /* x's unit dims must be the ones the reduce removes */
  for (int d = 0; d < x->type.rank; d++) units += x->type.dims[d] == IR_DIM_ONE;
  if (x->type.rank - units > n->type.rank || x->type.rank != n->type.rank + 1) return 0;
  *y = x->ops[0];
  *sc = n->ops[1];
  return 1;
}

/* x scaled by the scalar sc where the dialect can multiply: x itself (by
 * sc, or by sc broadcast to x's shape), or below the single-operand ops
 * (reshape, transpose, broadcast) that make it from a value of sc's rank.
 * NULL if nowhere. */
static const ir_tnode *scale_inside(task_ctx *t, const ir_tnode *x, const ir_tnode *sc) {
  const ir_tnode *m = make_mul(t, x, sc);
  if (!m && x->type.rank > 0) {
    const ir_tnode *b = make_broadcast(t, sc, &x->type);
    if (b) m = make_mul(t, x, b);
  }
  if (m || x->kind != IR_TN_OP || x->nops != 1) return m;
  const ir_tnode *in = scale_inside(t, x->ops[0], sc);
  return in ? with_operand(t, x, 0, in) : NULL;
}

/* Replace node from by to everywhere in n (rebuilt bottom-up). */
static const ir_tnode *replace_node(task_ctx *t, const ir_tnode *n, const ir_tnode *from,
                                    const ir_tnode *to) {
  if (n == from) return to;
  if (n->kind != IR_TN_OP || n->size < from->size) return n;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int changed = 0;
  for (int j = 0; j < n->nops; j++) {
    ops[j] = replace_node(t, n->ops[j], from, to);
    changed |= ops[j] != n->ops[j];
  }
  return changed ? ir_tp_op(t->store, n->op, n->attrs, ops, n->nops, &n->type) : n;
}

/* The candidates derived from a fallback proved under the masked-zero
 * assumption by moving a scalar factor into a contraction: a product
 * mul(Y, s) of a scalar s, where Y is a contraction dot_general(P, Q)
 * under single-operand ops (reshapes, transposes), becomes Y with P (or Q)
 * scaled by s.  Where the contraction is empty (a size 0), the scaled
 * operand is empty too and the product an exact 0, while s times the
 * empty sum's 0 is NaN for an infinite s: the masked-zero assumption is
 * gone (gemm's alpha * A * B with nk = 0).  Up to cap into out; returns
 * how many. */
static int derive_scaled(task_ctx *t, const ir_tnode *prog, const ir_tnode *n,
                         const ir_tnode **out, int cap) {
  if (n->kind != IR_TN_OP) return 0;
  int k = 0;
  for (int j = 0; j < n->nops && k < cap; j++) k += derive_scaled(t, prog, n->ops[j], out + k, cap - k);
  const ir_tnode *y, *sc, *d;
  if (!scaling(t, n, &y, &sc)) return k;
  for (d = y; d->kind == IR_TN_OP && d->nops == 1;) d = d->ops[0];
  if (d->kind != IR_TN_OP || strcmp(node_kernel(t, d), "dot_general")) return k;
  for (int o = 0; o < d->nops && k < cap; o++) {
    const ir_tnode *scaled = scale_inside(t, d->ops[o], sc);
    if (!scaled) continue;
    const ir_tnode *y2 = replace_node(t, y, d, with_operand(t, d, o, scaled));
    out[k++] = replace_node(t, prog, n, y2);
  }
  return k;
}

/* The kernel attribute `name` of binding b, or NULL. */
static const interp_attr *kattr(const gram_binding *b, const char *name) {
  int i = interp_op_attr_index(b->kernel, name);
  return i >= 0 ? &b->attrs[i] : NULL;
}

/* Does an INTS attribute hold exactly v[0..n-1]? */
static int ints_are(const interp_attr *a, const int *v, int n) {
  if (!a || a->n != n) return 0;
  for (int i = 0; i < n; i++)
    if (a->v[i] != v[i]) return 0;
  return 1;
}

/* Binding predicates of make_op_if (user: int[IR_MAX_RANK + 1], count
 * first): a broadcast mapping the operand's dims to exactly the wanted
 * ones, a transpose by exactly the wanted permutation, a reduce adding
 * over exactly the wanted dim ({1, dim, keepdims}). */
static int bcast_maps(const gram_binding *b, const void *user) {
  const int *w = user;
  return ints_are(kattr(b, "dims"), w + 1, w[0]);
}

static int transposes(const gram_binding *b, const void *user) {
  const int *w = user;
  return ints_are(kattr(b, "permutation"), w + 1, w[0]);
}

static int reduce_adds(const gram_binding *b, const void *user) {
  const int *w = user; /* {1, dim, keepdims} */
  const interp_attr *body = kattr(b, "body"), *keep = kattr(b, "keepdims");
  return body && body->v[0] == INTERP_BODY_ADD && (keep ? keep->v[0] : 0) == w[2] &&
         ints_are(kattr(b, "dims"), w + 1, w[0]);
}

/* Is x a masked value: select(mask, X, 0), under transposes and reshapes
 * of unit dims?  Then *inner is X under the same ops and *m the mask over
 * x's dims. */
static int masked_operand(task_ctx *t, const ir_tnode *x, const ir_tnode **inner, ir_mask *m) {
  gram_binding b;
  const gram_op *op = node_op(t, x);
  if (!op || gram_bind(op, x->attrs, &b, NULL)) return 0;
  if (!strcmp(b.kernel->name, "select") && x->nops == 3 && b.nargs == 3 && b.args[0] == 0 &&
      b.args[1] == 1 && b.args[2] == 2 && x->ops[0]->kind == IR_TN_MASK &&
      x->ops[2]->kind == IR_TN_CONST && x->ops[2]->value == 0 &&
      ir_type_equal(&x->ops[1]->type, &x->type)) {
    *inner = x->ops[1];
    *m = *x->ops[0]->mask;
    return 1;
  }
  if (!strcmp(b.kernel->name, "reshape") && x->nops == 1 && b.nargs == 1 && b.args[0] == 0) {
    /* a reshape that only adds or drops unit dims: the other dims keep
     * their order */
    const ir_type *from = &x->ops[0]->type, *to = &x->type;
    int pos[IR_MAX_RANK], n = 0;
    for (int j = 0; j < to->rank; j++)
      if (to->dims[j] != IR_DIM_ONE) pos[n++] = j;
    int k = 0;
    for (int j = 0; j < from->rank; j++)
      if (from->dims[j] != IR_DIM_ONE && (k == n || from->dims[j] != to->dims[pos[k++]])) return 0;
    if (k != n || !masked_operand(t, x->ops[0], inner, m)) return 0;
    *inner = with_operand(t, x, 0, *inner);
    for (int c = 0; c < m->ncons; c++) {
      int coef[IR_MAX_RANK] = {0};
      k = 0;
      for (int j = 0; j < from->rank; j++)
        if (from->dims[j] != IR_DIM_ONE) coef[pos[k++]] = m->cons[c].coef[j];
      memcpy(m->cons[c].coef, coef, sizeof coef);
    }
    return 1;
  }
  const interp_attr *perm = kattr(&b, "permutation");
  if (strcmp(b.kernel->name, "transpose") || x->nops != 1 || !perm ||
      perm->n != x->type.rank || !masked_operand(t, x->ops[0], inner, m))
    return 0;
  *inner = with_operand(t, x, 0, *inner);
  for (int c = 0; c < m->ncons; c++) { /* result dim j is operand dim perm[j] */
    int coef[IR_MAX_RANK];
    for (int j = 0; j < perm->n; j++) coef[j] = m->cons[c].coef[perm->v[j]];
    memcpy(m->cons[c].coef, coef, sizeof coef);
  }
  return 1;
}

/* Add mask m's constraints, its dims moved to dims to[d], to *into;
 * 0 if they do not fit. */
static int mask_moved(const ir_mask *m, const int *to, int rank, ir_mask *into) {
  if (into->ncons + m->ncons > IR_MASK_MAX_CONS) return 0;
  for (int c = 0; c < m->ncons; c++) {
    ir_mask_con con = m->cons[c];
    memset(con.coef, 0, sizeof con.coef);
    for (int d = 0; d < rank; d++) con.coef[to[d]] = m->cons[c].coef[d];
    into->cons[into->ncons++] = con;
  }
  return 1;
}

/* x reshaped to ty (a reshape of a reshape is one reshape; x itself when
 * it has that type), or NULL. */
static const ir_tnode *make_reshape(task_ctx *t, const ir_tnode *x, const ir_type *ty) {
  if (x->kind == IR_TN_OP && x->nops == 1 && !strcmp(node_kernel(t, x), "reshape"))
    x = x->ops[0];
  return ir_type_equal(&x->type, ty) ? x : make_op(t, "reshape", &x, 1, ty);
}

/* x (of a contraction's operand's dims, moved to the dims to[j] of ty)
 * spread over ty: a transpose first where its dims are out of ty's order,
 * then the dialect's broadcast_in_dim, or a reshape inserting unit dims
 * (for an op that broadcasts them, tosa.mul).  NULL if neither exists. */
static const ir_tnode *spread(task_ctx *t, const ir_tnode *x, const int *to, const ir_type *ty) {
  int r = x->type.rank, want[IR_MAX_RANK + 1] = {r}, perm[IR_MAX_RANK + 1] = {r};
  for (int k = 0; k < r; k++) perm[1 + k] = k;
  for (int a = 0; a < r; a++)
    for (int c = a + 1; c < r; c++)
      if (to[perm[1 + c]] < to[perm[1 + a]]) {
        int tmp = perm[1 + a];
        perm[1 + a] = perm[1 + c];
        perm[1 + c] = tmp;
      }
  int moved = 0;
  for (int k = 0; k < r; k++) moved |= perm[1 + k] != k;
  if (moved) {
    ir_type tt = x->type;
    for (int k = 0; k < r; k++) tt.dims[k] = x->type.dims[perm[1 + k]];
    x = make_op_if(t, "transpose", &x, 1, &tt, transposes, perm);
    if (!x) return NULL;
  }
  for (int k = 0; k < r; k++) want[1 + k] = to[perm[1 + k]];
  const ir_tnode *bc = make_op_if(t, "broadcast_in_dim", &x, 1, ty, bcast_maps, want);
  if (bc) return bc;
  ir_type ut = *ty; /* ty with unit dims where x has none */
  for (int k = 0; k < ut.rank; k++) ut.dims[k] = IR_DIM_ONE;
  for (int k = 0; k < r; k++) ut.dims[want[1 + k]] = x->type.dims[k];
  return make_reshape(t, x, &ut);
}

/* The exact form of a contraction with a masked operand.  A dot_general
 * (one contracting dim, no batch) of select(M, X, 0) sums 0 * y where M
 * is false: NaN for an infinite y, where the source never formed the
 * product (symm's and trmm's triangles, the masked-zero assumption).
 * Masking the products instead adds exact zeros there: the operands are
 * broadcast to [free dims of P, the contracting dim, free dims of Q],
 * multiplied, selected by the masks moved to those dims, and summed over
 * the contracting dim.  The intermediate has one dim more than the result
 * (the C writer fuses it into the sum's loops).  NULL where the dialect
 * lacks an op for it. */
static const ir_tnode *unmasked(task_ctx *t, const ir_tnode *d) {
  gram_binding b;
  const gram_op *op = node_op(t, d);
  if (!op || gram_bind(op, d->attrs, &b, NULL) || strcmp(b.kernel->name, "dot_general") ||
      d->nops != 2 || b.nargs != 2 || b.args[0] != 0 || b.args[1] != 1)
    return NULL;
  const interp_attr *bat[2] = {kattr(&b, "lhs_batch"), kattr(&b, "rhs_batch")},
                    *con[2] = {kattr(&b, "lhs_contract"), kattr(&b, "rhs_contract")};
  if (!bat[0] || !bat[1] || !con[0] || !con[1] || bat[0]->n != bat[1]->n || con[0]->n != 1 ||
      con[1]->n != 1)
    return NULL;
  int nb = bat[0]->n, map[2][IR_MAX_RANK];
  ir_type ty = d->type; /* [batch dims, P's free dims, Q's free dims] */
  if (ty.rank + 1 > IR_MAX_RANK) return NULL;
  /* T: the contracting dim inserted after P's free dims */
  int pfree = d->ops[0]->type.rank - nb - 1, cpos = nb + pfree;
  for (int k = ty.rank; k > cpos; k--) ty.dims[k] = ty.dims[k - 1];
  ty.dims[cpos] = d->ops[0]->type.dims[con[0]->v[0]];
  ty.rank++;
  for (int side = 0; side < 2; side++) {
    int next = side ? cpos + 1 : nb, r = d->ops[side]->type.rank;
    for (int j = 0; j < r; j++) {
      int bi = -1;
      for (int q = 0; q < nb; q++)
        if (bat[side]->v[q] == j) bi = q;
      map[side][j] = bi >= 0 ? bi : j == con[side]->v[0] ? cpos : next++;
    }
  }
  const ir_tnode *x[2];
  ir_mask m = {0};
  int masked = 0;
  for (int side = 0; side < 2; side++) {
    ir_mask ms;
    x[side] = d->ops[side];
    if (masked_operand(t, d->ops[side], &x[side], &ms)) {
      if (!mask_moved(&ms, map[side], d->ops[side]->type.rank, &m)) return NULL;
      masked = 1;
    }
  }
  if (!masked) return NULL;
  const ir_tnode *bc[2];
  for (int side = 0; side < 2; side++) {
    bc[side] = spread(t, x[side], map[side], &ty);
    if (!bc[side]) return NULL;
  }
  const ir_tnode *prod = make_op(t, "mul", bc, 2, &ty);
  ir_type mt = ty;
  mt.elem = IR_I1;
  const ir_tnode *sel = prod ? make_select(t, ir_tp_mask(t->store, &m, &mt), prod,
                                           ir_tp_const(t->store, 0, &ty))
                             : NULL;
  if (!sel) return NULL;
  ir_type st = {d->type.elem, 0, {0}};
  const ir_tnode *ops[2] = {sel, ir_tp_const(t->store, 0, &st)};
  int want[3] = {1, cpos, 0};
  const ir_tnode *sum = make_op_if(t, "reduce", ops, 2, &d->type, reduce_adds, want);
  if (sum) return sum;
  /* a reduce that keeps the summed dim (tosa.reduce_sum), then a reshape */
  ir_type kt = ty;
  kt.dims[cpos] = IR_DIM_ONE;
  want[2] = 1;
  sum = make_op_if(t, "reduce", &sel, 1, &kt, reduce_adds, want);
  return sum ? make_reshape(t, sum, &d->type) : NULL;
}

/* n with every contraction of a masked operand in its exact form
 * (unmasked); n itself when there is none. */
static const ir_tnode *derive_unmasked(task_ctx *t, const ir_tnode *n) {
  if (n->kind != IR_TN_OP) return n;
  const ir_tnode *ex = unmasked(t, n);
  if (ex) return ex;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int changed = 0;
  for (int j = 0; j < n->nops; j++) {
    ops[j] = derive_unmasked(t, n->ops[j]);
    changed |= ops[j] != n->ops[j];
  }
  if (!changed) return n;
  if (n->nops == 1 && !strcmp(node_kernel(t, n), "reshape")) {
    const ir_tnode *r = make_reshape(t, ops[0], &n->type);
    if (r) return r;
  }
  return ir_tp_op(t->store, n->op, n->attrs, ops, n->nops, &n->type);
}

/* After the first fallback of s (proved under the masked-zero
 * assumption, prog its complete program): try its derived candidates
 * (derive_scaled) on the examples and through the verifier.  Returns one
 * proved without an avoidable assumption (its verdict in res->verify), or
 * NULL. */
#define MAX_DERIVED 8
static const ir_tnode *try_derived(task_ctx *t, out_search *s, enum_verify_fn vf, void *vuser,
                                   const ir_tnode *prog, enum_output *res) {
  s->derived = 1;
  const ir_tnode *cands[MAX_DERIVED + 1];
  int nc = derive_scaled(t, prog, prog, cands, MAX_DERIVED);
  /* and every such product rewritten at once (syr2k's two scaled
   * contractions), the first way each time */
  const ir_tnode *all = prog, *next;
  for (int r = 0; r < MAX_DERIVED && derive_scaled(t, all, all, &next, 1) == 1; r++) all = next;
  if (nc > 1 && all != prog) cands[nc++] = all;
  /* then each with its masked contractions in exact form (after the
   * scaling moved into them: a scalar times an empty masked sum is NaN
   * for an infinite scalar) */
  const ir_tnode *more[2 * MAX_DERIVED + 2];
  int nm = 0;
  for (int c = 0; c < nc; c++) more[nm++] = cands[c];
  for (int c = 0; c <= nc; c++) {
    const ir_tnode *base = c < nc ? cands[c] : prog, *ex = derive_unmasked(t, base);
    if (ex != base) more[nm++] = ex;
  }
  for (int c = 0; c < nm; c++) {
    if (!program_matches(t, s, more[c])) continue;
    enum_query q = {t->k, t->a, t->pt->index, t->mask, t->nin, t->in_vars,
                    t->in_args, s->po->var, more[c], t->d, 0};
    vf(vuser, &q, &res->verify);
    if (res->verify.verdict == ENUM_PROVED && !res->verify.avoidable) return more[c];
  }
  return NULL;
}

/* The time or work budget's end (oc ES_TIMEOUT or ES_WORK) into err:
 * returns 1, or 0 for another outcome. */
static int budget_error(es_outcome oc, ir_error *err) {
  if (oc == ES_TIMEOUT)
    ir_error_set(err, nowhere, IR_ERR_TIMEOUT, "time budget exhausted (--timeout)");
  else if (oc == ES_WORK)
    ir_error_set(err, nowhere, IR_ERR_TIMEOUT, "work budget exhausted (--work)");
  else
    return 0;
  return 1;
}

/* The rounds of one output's search: search, complete, check on a fresh
 * example, verify; until a program is accepted or a budget ends it. */
static int solve_rounds(task_ctx *t, out_search *s, enum_verify_fn vf, void *vuser,
                        double deadline, enum_output *res, ir_error *err) {
  for (;;) {
    int aside = s->navoidable || s->nblocked;
    /* a round adds at most a fresh example and a counterexample */
    int full = t->ex.n + 2 > ES_MAX_EX;
    if (++s->rounds > MAX_ROUNDS || full) {
      if (aside) return set_aside_answer(res, s, 0);
      if (full)
        ir_error_set(err, nowhere, IR_ERR_RANGE,
                     "every candidate found was ruled out by a fresh example or a "
                     "counterexample, until the %d examples were full", ES_MAX_EX);
      else
        ir_error_set(err, nowhere, IR_ERR_RANGE,
                     "too many counterexample rounds (more than %d)", MAX_ROUNDS);
      return 1;
    }
    const ir_tnode *found;
    int newsub;
    es_outcome oc = search_round(t, s, deadline, res, &found, &newsub);
    if (oc == ES_FOUND_SUB && newsub) continue;
    if (!found && aside) return set_aside_answer(res, s, oc == ES_EXHAUSTED);
    if (!found) {
      res->stats.seconds += es_now() - s->start;
      if (budget_error(oc, err))
        ;
      else if (oc == ES_MEMORY)
        ir_error_set(err, nowhere, IR_ERR_RANGE, "memory budget exhausted");
      else if (oc == ES_LIMIT)
        ir_error_set(err, nowhere, IR_ERR_RANGE,
                     "no program of at most %d ops found within the search's tables (%s, left "
                     "candidates out)",
                     t->o->max_ops, enum_limit_text());
      else {
        char why[512];
        search_failure_note(t, why, sizeof why);
        ir_error_set(err, nowhere, IR_ERR_RANGE,
                     "no program of at most %d ops per sub-goal found (--max-ops)%s",
                     t->o->max_ops, why);
      }
      return 1;
    }
    const ir_tnode *prog = complete_program(t, s, found, err);
    if (!prog) return 1;
    int c = fresh_check(t, s, prog, err);
    if (c < 0) return 1;
    if (c > 0) continue; /* the fresh example now rules the candidate out */
    c = verify_candidate(t, s, vf, vuser, prog, found, res, err);
    if (c < 0) return 1;
    if (c == 1 && s->navoidable == 1 && !s->derived) {
      const ir_tnode *better = try_derived(t, s, vf, vuser, prog, res);
      if (better) {
        res->program = better;
        res->stats.ops = better->size;
        res->stats.seconds += es_now() - s->start;
        return 0;
      }
    }
    if (c == 2) return set_aside_answer(res, s, 0);
    if (c > 0) continue;
    res->program = prog;
    res->stats.ops = prog->size;
    res->stats.seconds += es_now() - s->start;
    return 0;
  }
}

/* Find, check and verify the program of output po of task t into res.
 * Returns 0, or 1 with err filled. */
static int solve_output(task_ctx *t, const poly_output *po, enum_verify_fn vf,
                        void *vuser, double deadline, enum_output *res, ir_error *err) {
  out_search s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < t->shared.n; i++) nodes_push(&s.extra, t->shared.v[i]);
  int r = out_setup(t, po, &s, err);
  if (!r) r = solve_rounds(t, &s, vf, vuser, deadline, res, err);
  ir_free(s.ops);
  ir_free(s.extra.v);
  return r;
}

/* Examples at the size cases the default sizes never reach: one per
 * representative of the task's size cases (poly_size_cases_build) with a
 * size beyond every default example size (a threshold such as i >= 30),
 * at most CASE_EXAMPLES of them, each within CASE_EXAMPLE_ELEMS elements.
 * The search then sees those cases instead of waiting for a
 * counterexample.  A case the interpreter cannot run is skipped. */
#define CASE_EXAMPLES 2
#define CASE_EXAMPLE_ELEMS 4096L
static void add_case_examples(task_ctx *t, uint64_t seed) {
  const ir_kernel *k = t->k;
  long big = 0;
  for (int e = 0; e < t->ex.n; e++)
    for (int v = 0; v < k->nvars; v++)
      if (k->vars[v]->kind == IR_VAR_SIZE && t->ex.sizes[e][v] > big) big = t->ex.sizes[e][v];
  poly_size_cases sc;
  if (poly_size_cases_build(k, t->mask, 0, NULL, 64, &sc)) return;
  int added = 0;
  for (int c = 0; c < sc.ncases && added < CASE_EXAMPLES; c++) {
    const long *cs = sc.cases + (long)c * k->nvars;
    long top = 0;
    for (int v = 0; v < k->nvars; v++)
      if (k->vars[v]->kind == IR_VAR_SIZE && cs[v] > top) top = cs[v];
    long elems = ir_kernel_elements(k, cs, CASE_EXAMPLE_ELEMS);
    if (top <= big || elems < 0 || elems > CASE_EXAMPLE_ELEMS) continue;
    if (!add_example(t, cs, seed + (uint64_t)c, 0, NULL, NULL)) added++;
  }
  poly_size_cases_free(&sc);
}

/* Rebuild node n with argument leaves replaced by cur[var]. */
static const ir_tnode *substitute(ir_tp_store *s, const ir_tnode *n,
                                  const ir_tnode *const *cur) {
  switch (n->kind) {
  case IR_TN_ARG: return cur[n->arg] ? cur[n->arg] : n;
  case IR_TN_CONST:
  case IR_TN_MASK: return n;
  case IR_TN_OP: break;
  }
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < n->nops; i++) ops[i] = substitute(s, n->ops[i], cur);
  return ir_tp_op(s, n->op, n->attrs, ops, n->nops, &n->type);
}

/* The argument leaves of the kernel's parameters (arg number = var id)
 * into cur and res->prog.args, and zeros for its locals and its returned
 * value's array (k->returns: not an argument of the C function).  Returns 0,
 * or 1 with err filled. */
static int kernel_leaves(const ir_kernel *k, ir_tp_store *store, const ir_tnode **cur,
                         enum_result *res, ir_error *err) {
  const int maxargs = (int)(sizeof res->prog.args / sizeof res->prog.args[0]);
  /* the parameters, then the sizes used as values (ir_var.size_value),
   * which the caller computes from the sizes */
  for (int p = 0; p < k->nparams + k->nvars; p++) {
    int v = p < k->nparams ? k->params[p] : p - k->nparams;
    ir_type ty;
    if (p >= k->nparams && !k->vars[v]->size_value) continue;
    if (k->vars[v]->kind == IR_VAR_SIZE) continue;
    if (var_type(k, v, &ty)) {
      return untyped_var(k, v, err);
    }
    if (k->returns && p == k->nparams - 1) { /* the returned value: written, never read */
      cur[v] = ir_tp_const(store, 0.0, &ty);
      continue;
    }
    if (res->prog.nargs == maxargs) {
      ir_error_set(err, nowhere, IR_ERR_RANGE,
                   "the kernel has more than %d array and scalar parameters (a program's "
                   "argument limit)",
                   maxargs);
      return 1;
    }
    cur[v] = ir_tp_arg(store, v, k->vars[v]->name, &ty);
    res->prog.args[res->prog.nargs++] = cur[v];
  }
  /* A local starts uninitialised: a task that keeps its old values outside
   * the part it writes was verified for every old value, so the composed
   * program may start it at zero (no argument defines it).  An expanded
   * local is read only where its iteration wrote it (the analysis checks),
   * so there the zeros never reach an output; elsewhere an output that
   * reads them reads what the C kernel leaves indeterminate. */
  for (int v = 0; v < k->nvars; v++) {
    ir_type ty;
    if ((k->vars[v]->kind == IR_VAR_LOCAL || k->vars[v]->kind == IR_VAR_LOCAL_ARRAY) &&
        !var_type(k, v, &ty))
      cur[v] = ir_tp_const(store, 0.0, &ty);
  }
  return 0;
}

/* The context of task ti: its statement masks and its inputs as leaves
 * (a local constant as its value, else an argument), also into tr.
 * Returns 0, or 1 with err filled. */
static int task_init(task_ctx *t, int ti, enum_task_result *tr, ir_error *err) {
  const poly_analysis *a = t->a;
  const ir_kernel *k = t->k;
  const poly_task *pt = t->pt;
  int status = 0;
  t->next_seed = t->o->seed * 7919 + (uint64_t)ti * 104729 + 1000;
  t->mask = IR_NEW_N(t->arena, unsigned char, k->nassign + 1);
  t->prelude = IR_NEW_N(t->arena, unsigned char, k->nassign + 1);
  for (int i = 0; i < a->nprelude; i++) t->mask[a->prelude[i]] = t->prelude[a->prelude[i]] = 1;
  for (int i = 0; i < pt->nstmts; i++) t->mask[pt->stmts[i]] = 1;
  t->nin = pt->ninputs;
  t->in_vars = IR_NEW_N(t->arena, int, pt->ninputs + 1);
  t->in_args = IR_NEW_N(t->arena, const ir_tnode *, pt->ninputs + 1);
  for (int i = 0; i < pt->ninputs; i++) {
    const poly_input *pi = &pt->inputs[i];
    ir_type ty;
    t->in_vars[i] = pi->var;
    if (var_type(k, pi->var, &ty)) {
      status = untyped_var(k, pi->var, err);
      break;
    }
    if ((pi->flags & POLY_IN_CONST) && pi->has_value)
      t->in_args[i] = ir_tp_const(t->store, pi->value, &ty);
    else
      t->in_args[i] = ir_tp_arg(t->store, pi->var, k->vars[pi->var]->name, &ty);
  }
  tr->task = ti;
  tr->nin = t->nin;
  tr->in_vars = t->in_vars;
  tr->in_args = t->in_args;
  tr->noutputs = pt->noutputs;
  tr->outputs = IR_NEW_N(t->arena, enum_output, pt->noutputs + 1);
  return status;
}

/* The task's first examples: two default size assignments, two seeds
 * each, then examples at its size cases.  Returns 0, or 1 with err filled. */
static int task_examples(task_ctx *t, int ti, ir_error *err) {
  const ir_kernel *k = t->k;
  uint64_t seed = t->o->seed * 1000003;
  ir_error why;
  for (int v = 0; v < 2; v++)
    for (int s = 0; s < 2; s++) {
      long *sizes = ir_arena_alloc(t->arena, (size_t)k->nvars * sizeof(long));
      interp_default_sizes(k, v, sizes);
      if (add_example(t, sizes, seed + (uint64_t)(ti * 16 + v * 4 + s), 0, NULL, &why)) {
        wrap(err, &why, "interpreter on task %d: ", ti);
        return 1;
      }
    }
  add_case_examples(t, seed + (uint64_t)(ti * 16 + 8));
  return 0;
}

/* Raise task ti of a: every output's program over the task's inputs into
 * tr.  Returns 0, or 1 with err filled. */
static int raise_task(task_ctx *t, int ti, enum_verify_fn vf, void *vuser, double deadline,
                      enum_task_result *tr, ir_error *err) {
  const ir_kernel *k = t->k;
  if (task_init(t, ti, tr, err)) return 1;
  /* no task starts once the budget is gone (nor does a search: es_search) */
  ir_error why;
  if (budget_error(es_now() > deadline ? ES_TIMEOUT : ir_work_over() ? ES_WORK : ES_EXHAUSTED,
                   &why)) {
    wrap(err, &why, "task %d: ", ti);
    return 1;
  }
  sg_init(&t->subgoals, t->a, t->pt, t->arena);
  ir_budget_phase("examples");
  int status = task_examples(t, ti, err);
  for (int oi = 0; oi < t->pt->noutputs && !status; oi++) {
    const poly_output *po = &t->pt->outputs[oi];
    enum_output *eo = &tr->outputs[oi];
    eo->var = po->var;
    /* a refuted or unknown verdict is kept: the caller reports it */
    if (solve_output(t, po, vf, vuser, deadline, eo, &why)) {
      wrap(err, &why, "task %d (output %s): ", ti, k->vars[po->var]->name);
      status = 1;
    }
  }
  for (int e = 0; e < t->ex.n; e++) free_example(t, e);
  sg_free(&t->subgoals);
  ir_free(t->shared.v);
  return status;
}

/* The kernel's results: every array parameter some task writes, and every
 * scalar one (a local carried from one item of a sequence to another,
 * ir_kernel.ncarried: scalar parameters are otherwise read-only), with its
 * final value cur[v].  Returns 0, or 1 with err filled. */
static int kernel_results(const poly_analysis *a, const ir_tnode *const *cur, enum_result *res,
                          ir_error *err) {
  const ir_kernel *k = a->kernel;
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (k->vars[v]->kind != IR_VAR_ARRAY && k->vars[v]->kind != IR_VAR_SCALAR) continue;
    int written = 0;
    for (int ti = 0; ti < a->ntasks; ti++)
      for (int oi = 0; oi < a->tasks[ti].noutputs; oi++)
        written |= a->tasks[ti].outputs[oi].var == v;
    if (!written) continue;
    if (res->prog.nresults == IR_TP_MAX_RESULTS) {
      ir_error_set(err, nowhere, IR_ERR_RANGE,
                   "the kernel writes more than %d arrays (a program's result limit)",
                   IR_TP_MAX_RESULTS);
      return 1;
    }
    res->result_vars[res->prog.nresults] = v;
    res->prog.result_names[res->prog.nresults] = k->vars[v]->name;
    res->prog.results[res->prog.nresults++] = cur[v];
  }
  return 0;
}

/* The failure err as the result's reason (in arena, with err's position
 * in front when it has one); returns 1, enum_raise's "not raised". */
static int not_raised(enum_result *res, ir_arena *arena, const ir_error *err) {
  char buf[640];
  res->reason = ir_arena_strdup(arena, ir_error_str(err, buf, sizeof buf));
  return 1;
}

int enum_raise(const poly_analysis *a, const gram_dialect *d,
               const enum_options *o, enum_verify_fn vf, void *vuser,
               ir_tp_store *store, ir_arena *arena, enum_result *res) {
  memset(res, 0, sizeof *res);
  double start = es_now();
  /* the command's budget (ir_budget_start) bounds the search too */
  double deadline = start + ir_budget_left(o->timeout);
  const ir_kernel *k = a->kernel;
  if (a->error) {
    res->reason = ir_arena_printf(arena, "analysis failed: %s", a->error);
    return 1;
  }
  if (!a->raisable) {
    res->reason = ir_arena_printf(arena, "not raisable: %s", a->reason);
    return 1;
  }
  ir_error err = {0};
  if (d->elems && !(d->elems & (1u << k->data_type))) {
    ir_error_set(&err, nowhere, IR_ERR_INPUT,
                 "dialect %s has no %s element type (the kernel's data type)", d->name,
                 ir_elem_mlir_name(k->data_type));
    return not_raised(res, arena, &err);
  }
  res->ntasks = a->ntasks;
  res->tasks = IR_NEW_N(arena, enum_task_result, a->ntasks ? a->ntasks : 1);
  const ir_tnode **cur = IR_NEW_N(arena, const ir_tnode *, k->nvars);
  if (kernel_leaves(k, store, cur, res, &err)) return not_raised(res, arena, &err);
  int status = 0;
  for (int ti = 0; ti < a->ntasks && !status; ti++) {
    const poly_task *pt = &a->tasks[ti];
    enum_task_result *tr = &res->tasks[ti];
    task_ctx t = {.a = a, .k = k, .pt = pt, .d = d, .o = o, .store = store, .arena = arena};
    status = raise_task(&t, ti, vf, vuser, deadline, tr, &err);
    if (status) break;
    /* compose: this task's outputs over the current values */
    const ir_tnode **next = IR_NEW_N(arena, const ir_tnode *, k->nvars);
    memcpy(next, cur, (size_t)k->nvars * sizeof *next);
    for (int oi = 0; oi < pt->noutputs; oi++)
      next[tr->outputs[oi].var] = substitute(store, tr->outputs[oi].program, cur);
    cur = next;
  }
  res->seconds = es_now() - start;
  if (status || kernel_results(a, cur, res, &err)) return not_raised(res, arena, &err);
  res->prog.kernel = k;
  res->raised = 1;
  return 0;
}
