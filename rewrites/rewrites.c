/*
 * rewrites.c - rule mining (rewrites.h): the term matcher and normalizer
 * (the normal-form set of --derive-old), the miner over enum_explore's
 * equal candidates with derivability by equality saturation (egraph.c),
 * and the Z3 check of each rule with verify_rule_check.
 *
 * Argument leaves are pattern variables; a variable matches any term of
 * its element type and rank, renaming the size symbols consistently.
 * Hash-consed nodes make "the same term" pointer equality.  A rule whose
 * left-hand side has a subterm that is not finite on positive inputs (a
 * division by zero) holds only vacuously and is not proposed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rewrites/internal.h"

/* ------------------------------------------------------------ matching */

#define MAXSYM RW_MAXSYM

typedef struct subst {
  const ir_tnode *var[MAXSYM]; /* by arg number (var id) */
  int dim[MAXSYM];             /* size symbol map, -2: unset */
} subst;

static void subst_init(subst *s) {
  memset(s->var, 0, sizeof s->var);
  for (int i = 0; i < MAXSYM; i++) s->dim[i] = -2;
}

int rw_match_type(int *dim, const ir_type *p, const ir_type *t) {
  if (p->elem != t->elem || p->rank != t->rank) return 0;
  for (int d = 0; d < p->rank; d++) {
    int a = p->dims[d], b = t->dims[d];
    if (a == IR_DIM_ONE || b == IR_DIM_ONE) {
      if (a != b) return 0;
      continue;
    }
    if (a < 0 || a >= MAXSYM) return 0;
    if (dim[a] == -2) dim[a] = b;
    else if (dim[a] != b) return 0;
  }
  return 1;
}

static int match(subst *s, const ir_tnode *p, const ir_tnode *t) {
  if (!rw_match_type(s->dim, &p->type, &t->type)) return 0;
  switch (p->kind) {
  case IR_TN_ARG:
    if (p->arg < 0 || p->arg >= MAXSYM) return 0;
    if (s->var[p->arg]) return s->var[p->arg] == t;
    s->var[p->arg] = t;
    return 1;
  case IR_TN_CONST: return t->kind == IR_TN_CONST && t->value == p->value;
  case IR_TN_MASK: return p == t;
  case IR_TN_OP: break;
  }
  if (t->kind != IR_TN_OP || t->op != p->op || t->nops != p->nops ||
      memcmp(t->attrs, p->attrs, sizeof t->attrs))
    return 0;
  for (int i = 0; i < p->nops; i++)
    if (!match(s, p->ops[i], t->ops[i])) return 0;
  return 1;
}

ir_type rw_map_type(const int *dim, const ir_type *t) {
  ir_type r = *t;
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] >= 0 && t->dims[d] < MAXSYM && dim[t->dims[d]] != -2)
      r.dims[d] = dim[t->dims[d]];
  return r;
}

static const ir_tnode *instantiate(ir_tp_store *st, const subst *s, const ir_tnode *n) {
  ir_type ty = rw_map_type(s->dim, &n->type);
  switch (n->kind) {
  case IR_TN_ARG: return n->arg < MAXSYM && s->var[n->arg] ? s->var[n->arg] : n;
  case IR_TN_CONST: return ir_tp_const(st, n->value, &ty);
  case IR_TN_MASK: return n;
  case IR_TN_OP: break;
  }
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < n->nops; i++) ops[i] = instantiate(st, s, n->ops[i]);
  return ir_tp_op(st, n->op, n->attrs, ops, n->nops, &ty);
}

/* Normal form of n under rules[0..nr-1] (bounded rewriting). */
static const ir_tnode *normalize(ir_tp_store *st, const rw_rule *rules, int nr,
                                 const ir_tnode *n, int depth) {
  if (depth > 16) return n;
  if (n->kind == IR_TN_OP) {
    const ir_tnode *ops[IR_TP_MAX_OPERANDS];
    int changed = 0;
    for (int i = 0; i < n->nops; i++) {
      ops[i] = normalize(st, rules, nr, n->ops[i], depth + 1);
      changed |= ops[i] != n->ops[i];
    }
    if (changed) n = ir_tp_op(st, n->op, n->attrs, ops, n->nops, &n->type);
  }
  for (int r = 0; r < nr; r++) {
    subst s;
    subst_init(&s);
    if (match(&s, rules[r].lhs, n))
      return normalize(st, rules, nr, instantiate(st, &s, rules[r].rhs), depth + 1);
  }
  return n;
}

const ir_tnode *rw_normalize(ir_tp_store *store, const rw_rule *rules, int nr,
                             const ir_tnode *n) {
  return normalize(store, rules, nr, n, 0);
}

/* ------------------------------------------------------------- mining */

typedef struct miner {
  rw_rule *props;
  int n, cap;
  ir_tp_store *store;
} miner;

static void propose(miner *m, const ir_tnode *lhs, const ir_tnode *rhs) {
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 256;
    m->props = ir_realloc(m->props, sizeof(rw_rule) * (size_t)m->cap);
  }
  m->props[m->n++] = (rw_rule){lhs, rhs, VERIFY_SKIPPED, VERIFY_SKIPPED, NULL, NULL, NULL};
}

/* A candidate equal to a strictly smaller stored one: `n -> rep`. */
static void on_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  (void)level;
  if (n->size < rep->size || n == rep) return;
  if (n->size == rep->size)
    for (int i = 0; i < n->nops; i++)
      if (n->ops[i]->kind == IR_TN_OP) return;
  propose(u, n, rep);
}

/* A stored op over two distinct inputs of one type: the search tries one
 * operand order of the ops it takes as commutative, so the other order is
 * proposed here, `op(y, x) -> op(x, y)`, to be proved like any rule. */
static void on_keep(void *u, const ir_tnode *n, int level) {
  miner *m = u;
  (void)level;
  if (n->kind != IR_TN_OP || n->nops != 2 || n->ops[0]->kind != IR_TN_ARG ||
      n->ops[1]->kind != IR_TN_ARG || n->ops[0] == n->ops[1] ||
      !ir_type_equal(&n->ops[0]->type, &n->ops[1]->type))
    return;
  const ir_tnode *sw[2] = {n->ops[1], n->ops[0]};
  propose(m, ir_tp_op(m->store, n->op, n->attrs, sw, 2, &n->type), n);
}

/* The constant leaves of n (each occurrence) and the argument numbers it
 * uses (a bit set). */
static void leaf_counts(const ir_tnode *n, int *consts, uint64_t *args) {
  if (n->kind == IR_TN_CONST) ++*consts;
  if (n->kind == IR_TN_ARG && n->arg >= 0 && n->arg < 64) *args |= 1ull << n->arg;
  for (int i = 0; i < n->nops; i++) leaf_counts(n->ops[i], consts, args);
}

/* The order rules are judged in: smallest first (lhs ops, then rhs ops),
 * then most general (fewer constants, then more distinct inputs), then
 * creation order.  A general rule accepted first makes its instances
 * derivable. */
static int cmp_rule(const void *a, const void *b) {
  const rw_rule *x = a, *y = b;
  if (x->lhs->size != y->lhs->size) return x->lhs->size - y->lhs->size;
  if (x->rhs->size != y->rhs->size) return x->rhs->size - y->rhs->size;
  int cx = 0, cy = 0;
  uint64_t vx = 0, vy = 0;
  leaf_counts(x->lhs, &cx, &vx);
  leaf_counts(x->rhs, &cx, &vx);
  leaf_counts(y->lhs, &cy, &vy);
  leaf_counts(y->rhs, &cy, &vy);
  if (cx != cy) return cx - cy;
  int nx = __builtin_popcountll(vx), ny = __builtin_popcountll(vy);
  if (nx != ny) return ny - nx;
  return x->lhs->id != y->lhs->id ? x->lhs->id - y->lhs->id : x->rhs->id - y->rhs->id;
}

/* The order of the normal-form miner before equality saturation (the
 * "old" set of rw_rules): size, then creation order. */
static int cmp_rule_old(const void *a, const void *b) {
  const rw_rule *x = a, *y = b;
  if (x->lhs->size != y->lhs->size) return x->lhs->size - y->lhs->size;
  if (x->rhs->size != y->rhs->size) return x->rhs->size - y->rhs->size;
  return x->lhs->id - y->lhs->id;
}

/* Whether n has argument leaf number arg (any when arg < 0). */
static int has_arg(const ir_tnode *n, int arg) {
  if (n->kind == IR_TN_ARG) return arg < 0 || n->arg == arg;
  for (int i = 0; i < n->nops; i++)
    if (has_arg(n->ops[i], arg)) return 1;
  return 0;
}

/* Is input i of rs one rule r is checked and probed over: every --inputs
 * one (a rule is checked over the inputs it does not use too, as before
 * pattern variables), and the pattern variables r uses. */
static int counts(const rw_rules *rs, const rw_rule *r, int i) {
  return i < rs->ninputs || has_arg(r->lhs, rs->args[i]->arg) || has_arg(r->rhs, rs->args[i]->arg);
}

static int check(verify_ctx *v, const rw_rules *rs, const rw_rule *r, verify_result *res) {
  int in_vars[RW_MAXSYM], nin = 0;
  for (int i = 0; i < rs->nargs; i++)
    if (counts(rs, r, i)) in_vars[nin++] = rs->args[i]->arg;
  pipe_cand a = {r->lhs, in_vars, rs->k->nvars}, b = {r->rhs, in_vars, rs->k->nvars};
  verify_candidate ca = {pipe_cand_eval_sym, NULL, &a}, cb = {pipe_cand_eval_sym, NULL, &b};
  return verify_rule_check(v, rs->k, nin, in_vars, &ca, &cb, res);
}

/* Is every op subterm of n finite and defined on one random input at
 * sizes 3 (seeded)?  Rules whose left-hand side divides by zero hold only
 * vacuously (undefined behaviour), so they are not proposed. */
static int all_finite(const ir_tnode *n, const ir_tensor *args, int nargs, const long *sizes) {
  if (n->kind != IR_TN_OP) return 1;
  for (int i = 0; i < n->nops; i++)
    if (!all_finite(n->ops[i], args, nargs, sizes)) return 0;
  ir_tensor t;
  interp_err e;
  if (enum_eval_node(n, args, nargs, sizes, &t, &e)) return 0;
  int ok = 1;
  for (size_t j = 0; ok && j < ir_tensor_size(&t); j++)
    ok = !(t.poison && t.poison[j]) && isfinite(t.data[j]);
  interp_tensor_free(&t);
  return ok;
}

/* Argument tensors of rs's inputs at sizes (args[arg number], shapes set,
 * data allocated, values left to the caller; free with free_args). */
static ir_tensor *make_args(const rw_rules *rs, const long *sizes) {
  const ir_kernel *k = rs->k;
  ir_tensor *args = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
  for (int i = 0; i < rs->nargs; i++) {
    const ir_tnode *a = rs->args[i];
    ir_tensor *t = &args[a->arg];
    t->elem = a->type.elem;
    t->rank = a->type.rank;
    for (int d = 0; d < t->rank; d++) t->dims[d] = a->type.dims[d] == IR_DIM_ONE ? 1 : sizes[a->type.dims[d]];
    t->data = ir_malloc((ir_tensor_size(t) + 1) * sizeof(double));
  }
  return args;
}

static void free_args(const rw_rules *rs, ir_tensor *args) {
  for (int v = 0; v < rs->k->nvars; v++) ir_free(args[v].data);
  ir_free(args);
}

/* Every size variable of rs's kernel at `size` (by var id; extents pinned). */
static long *all_sizes(const rw_rules *rs, long size) {
  const ir_kernel *k = rs->k;
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = size;
  ir_kernel_pin_extents(k, sizes);
  return sizes;
}

static int defined_lhs(const rw_rules *rs, const ir_tnode *lhs) {
  long *sizes = all_sizes(rs, 3);
  ir_tensor *args = make_args(rs, sizes);
  interp_rng rng;
  interp_rng_seed(&rng, 0xfeedu);
  for (int i = 0; i < rs->nargs; i++) {
    ir_tensor *t = &args[rs->args[i]->arg];
    for (size_t j = 0; j < ir_tensor_size(t); j++)
      t->data[j] = t->elem == IR_I1 ? (double)interp_rng_range(&rng, 0, 1)
                                    : (double)interp_rng_range(&rng, 1, 64) / 8.0;
  }
  int ok = all_finite(lhs, args, rs->k->nvars, sizes);
  free_args(rs, args);
  ir_free(sizes);
  return ok;
}

/* ------------------------------------------- the IEEE probe of fp mode
 * fp mode checks a rule in an abstract floating-point model (docs/verify.md,
 * "fp"): a refutation says the model does not imply the rule, not that
 * IEEE arithmetic tells the sides apart, and the verifier keeps no values
 * for a rule.  So a rule fp mode does not prove is run in IEEE arithmetic
 * (enum_eval_node) on inputs drawn from values that often separate
 * floating-point terms, specials included: at every size 1 (every
 * combination when there are few, else a seeded sample) and at every size
 * 2 (a seeded sample).  A difference: the left side defined and the right
 * side undefined or unequal (NaN equal to NaN; -0 unequal to +0, which
 * fp mode does not tell apart: the text shows the zeros' signs). */

static const double probe_values[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -2.5, 0.1,
                                      1e308, -1e308, 4.9e-324, INFINITY, -INFINITY, NAN};
#define NPROBE ((long)(sizeof probe_values / sizeof probe_values[0]))
#define PROBE_RUNS 512 /* input sets per size */

/* Fill the inputs of args with input set number `run`: the mixed-radix
 * digits of run over probe_values when exhaustive, else seeded draws. */
static void probe_fill(const rw_rules *rs, const rw_rule *r, ir_tensor *args, long run,
                       int exhaustive, interp_rng *rng) {
  for (int i = 0; i < rs->nargs; i++) {
    if (!counts(rs, r, i)) continue;
    ir_tensor *t = &args[rs->args[i]->arg];
    for (size_t j = 0; j < ir_tensor_size(t); j++) {
      long pick = exhaustive ? run % NPROBE : interp_rng_range(rng, 0, NPROBE - 1);
      run /= NPROBE;
      if (t->elem == IR_I1) /* a condition: true or false */
        t->data[j] = pick & 1;
      else
        t->data[j] = t->elem == IR_F32 ? (double)(float)probe_values[pick] : probe_values[pick];
    }
  }
}

/* v as %g, a NaN as "nan" whatever its sign. */
static void put_value(ir_buf *b, double v) {
  if (isnan(v))
    ir_buf_puts(b, "nan");
  else
    ir_buf_printf(b, "%g", v);
}

/* "x = [inf, 0] (n=2)": the inputs of args that r uses, at sizes, into b. */
static void probe_inputs_text(const rw_rules *rs, const rw_rule *r, const ir_tensor *args,
                              const long *sizes, ir_buf *b) {
  const ir_kernel *k = rs->k;
  const char *comma = "";
  for (int i = 0; i < rs->nargs; i++) {
    int arg = rs->args[i]->arg;
    if (!has_arg(r->lhs, arg) && !has_arg(r->rhs, arg)) continue;
    const ir_tensor *t = &args[arg];
    ir_buf_printf(b, "%s%s = %s", comma, k->vars[arg]->name, t->rank ? "[" : "");
    comma = ", ";
    for (size_t j = 0; j < ir_tensor_size(t); j++) {
      if (j) ir_buf_puts(b, ", ");
      put_value(b, t->data[j]);
    }
    if (t->rank) ir_buf_puts(b, "]");
  }
  const char *sep = " (";
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) {
      ir_buf_printf(b, "%s%s=%ld", sep, k->vars[v]->name, sizes[v]);
      sep = ", ";
    }
  if (sep[0] == ',') ir_buf_puts(b, ")");
}

/* The first element where r's sides differ on args, or -1. */
static long probe_differ(const rw_rules *rs, const rw_rule *r, const ir_tensor *args,
                         const long *sizes, double *lv, double *rv, int *rdef) {
  ir_tensor a, c;
  interp_err e;
  if (enum_eval_node(r->lhs, args, rs->k->nvars, sizes, &a, &e)) return -1;
  int rok = !enum_eval_node(r->rhs, args, rs->k->nvars, sizes, &c, &e);
  long at = -1;
  for (size_t j = 0; j < ir_tensor_size(&a) && at < 0; j++) {
    if (a.poison && a.poison[j]) continue; /* lhs undefined: nothing to keep */
    int def = rok && !(c.poison && c.poison[j]) && j < ir_tensor_size(&c);
    double x = a.data[j], y = def ? c.data[j] : NAN;
    if (def && ((x == y && signbit(x) == signbit(y)) || (isnan(x) && isnan(y)))) continue;
    *lv = x;
    *rv = y;
    *rdef = def;
    at = (long)j;
  }
  interp_tensor_free(&a);
  if (rok) interp_tensor_free(&c);
  return at;
}

/* The IEEE probe of r: "IEEE differs: INPUTS: element E, lhs V, rhs W",
 * "IEEE agrees on all N inputs tried" or, for sides without inputs, "IEEE
 * agrees: the sides compute the same constant ..." (in arena). */
static const char *ieee_probe(const rw_rules *rs, const rw_rule *r, ir_arena *arena,
                              int *differs) {
  ir_buf b = {0};
  long tried = 0;
  int found = 0;
  for (long size = 1; size <= 2 && !found; size++) {
    long *sizes = all_sizes(rs, size);
    ir_tensor *args = make_args(rs, sizes);
    long elems = 0, combos = 1;
    for (int i = 0; i < rs->nargs; i++)
      if (counts(rs, r, i)) elems += (long)ir_tensor_size(&args[rs->args[i]->arg]);
    for (long i = 0; i < elems && combos <= PROBE_RUNS; i++) combos *= NPROBE;
    int exhaustive = size == 1 && combos <= PROBE_RUNS;
    long runs = !has_arg(r->lhs, -1) ? 1 : exhaustive ? combos : PROBE_RUNS;
    interp_rng rng;
    interp_rng_seed(&rng, 0x1eee + (uint64_t)size);
    for (long run = 0; run < runs && !found; run++) {
      probe_fill(rs, r, args, run, exhaustive, &rng);
      double lv = 0, rv = 0;
      int rdef = 0;
      long at = probe_differ(rs, r, args, sizes, &lv, &rv, &rdef);
      tried++;
      if (at < 0) continue;
      found = 1;
      ir_buf_puts(&b, "IEEE differs: ");
      probe_inputs_text(rs, r, args, sizes, &b);
      ir_buf_printf(&b, ": element %ld, lhs ", at);
      put_value(&b, lv);
      ir_buf_puts(&b, ", rhs ");
      if (rdef)
        put_value(&b, rv);
      else
        ir_buf_puts(&b, "undefined");
    }
    free_args(rs, args);
    ir_free(sizes);
  }
  if (!found && !has_arg(r->lhs, -1))
    ir_buf_puts(&b, "IEEE agrees: the sides compute the same constant (sizes 1 and 2)");
  else if (!found)
    ir_buf_printf(&b, "IEEE agrees on all %ld inputs tried", tried);
  const char *text = ir_arena_strdup(arena, ir_buf_str(&b));
  ir_buf_free(&b);
  *differs = found;
  return text;
}

/* Appends r; the capacity is the power of two at or above *n, doubled
 * when *n reaches it (one realloc per proposal made the list of the
 * proposals a budget left unchecked quadratic: 5 s under the sanitizers) */
static void push(rw_rule **arr, int *n, const rw_rule *r) {
  int k = *n;
  if ((k & (k - 1)) == 0) *arr = ir_realloc(*arr, sizeof(rw_rule) * (size_t)(k ? 2 * k : 1));
  (*arr)[(*n)++] = *r;
}

/* The two verifiers of the mining (real, and fp when o->fp); NULL with
 * both freed when Z3 cannot be set up. */
static int verifiers(const rw_opts *o, verify_ctx **vr, verify_ctx **vf) {
  verify_options vo;
  verify_options_default(&vo);
  vo.bound = o->bound > 0 ? o->bound : 2;
  if (o->smt_timeout > 0) vo.timeout = o->smt_timeout;
  if (o->smt_steps) vo.steps = o->smt_steps > 0 ? (unsigned long)o->smt_steps : 0;
  *vr = verify_new(&vo);
  vo.mode = VERIFY_FP;
  *vf = o->fp ? verify_new(&vo) : NULL;
  if (*vr && (!o->fp || *vf)) return 0;
  verify_free(*vr);
  verify_free(*vf);
  return -1;
}

#define FATE_FILTERED (-1) /* not a rewrite of lhs alone, or vacuous */

/* Is the proposal no rule at all: its rhs uses an input its lhs does not,
 * or its lhs is undefined somewhere (it holds only vacuously)? */
static int filtered(const rw_rules *rs, const rw_rule *rule) {
  return !rw_vars_within(rule->lhs, rule->rhs) || !defined_lhs(rs, rule->lhs);
}

/* What judging a proposal needs: the rules so far, the inputs, the two
 * verifiers, the term store, the arena of the texts, and the constant
 * folder with its cache of folds and the values of ground terms. */
typedef struct judging {
  rw_rules *out;
  verify_ctx *vr, *vf;
  ir_tp_store *store;
  ir_arena *arena;
  int bound;           /* sizes 1..bound, as the verifier's */
  rw_folder folder;    /* fold_ground, with this as user */
  const ir_tnode **fold_key, **fold_val; /* open addressing, fold_cap slots */
  size_t fold_cap, fold_n;
  long folds;          /* folds proved */
  struct seen_value *seen; /* the values of the ground terms seen */
  int nseen;
} judging;

/* Check rule with vr (and vf when real mode proves it), filling its
 * verdicts, reasons and IEEE probe; sets *differs when the probe found a
 * difference.  differs NULL: only the real-mode verdict when that is not
 * proved (no reason, no probe), a generalization's case. */
static void prove(judging *j, rw_rule *rule, int *differs) {
  const rw_rules *rs = j->out;
  ir_arena *arena = j->arena;
  verify_result res;
  check(j->vr, rs, rule, &res);
  rule->real = res.verdict;
  int unused;
  if (res.verdict != VERIFY_PROVED && !differs) {
    verify_result_free(&res);
    return;
  }
  if (!differs) differs = &unused;
  if (res.verdict != VERIFY_PROVED) {
    rule->why = ir_arena_strdup(arena, res.reason[0] ? res.reason : verify_verdict_name(res.verdict));
    rule->ieee = ieee_probe(rs, rule, arena, differs);
  }
  verify_result_free(&res);
  if (rule->real == VERIFY_PROVED && j->vf) {
    check(j->vf, rs, rule, &res);
    rule->fp = res.verdict;
    if (res.verdict != VERIFY_PROVED) {
      rule->fp_why =
          ir_arena_strdup(arena, res.reason[0] ? res.reason : verify_verdict_name(res.verdict));
      rule->ieee = ieee_probe(rs, rule, arena, differs);
    }
    verify_result_free(&res);
  }
}

/* n with every occurrence of subterm s replaced by v (hash-consed). */
static const ir_tnode *replace(ir_tp_store *st, const ir_tnode *n, const ir_tnode *s,
                               const ir_tnode *v) {
  if (n == s) return v;
  if (n->kind != IR_TN_OP) return n;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int changed = 0;
  for (int i = 0; i < n->nops; i++) {
    ops[i] = replace(st, n->ops[i], s, v);
    changed |= ops[i] != n->ops[i];
  }
  return changed ? ir_tp_op(st, n->op, n->attrs, ops, n->nops, &n->type) : n;
}

/* The distinct op subterms of n below its root, into subs (at most max),
 * larger ones first (a parent before its operands). */
static int op_subterms(const ir_tnode *n, const ir_tnode **subs, int k, int max) {
  for (int i = 0; i < n->nops; i++) {
    const ir_tnode *c = n->ops[i];
    if (c->kind != IR_TN_OP) continue;
    int seen = 0;
    for (int j = 0; j < k && !seen; j++) seen = subs[j] == c;
    if (!seen && k < max) subs[k++] = c;
    k = op_subterms(c, subs, k, max);
  }
  return k;
}

/* The distinct constant leaves of n, appended to subs[k..] (at most
 * max), in the order they occur. */
static int const_leaves(const ir_tnode *n, const ir_tnode **subs, int k, int max) {
  if (n->kind == IR_TN_CONST) {
    for (int j = 0; j < k; j++)
      if (subs[j] == n) return k;
    if (k < max) subs[k++] = n;
    return k;
  }
  for (int i = 0; i < n->nops; i++) k = const_leaves(n->ops[i], subs, k, max);
  return k;
}

/* The subterms of n that generalize may turn into a pattern variable:
 * its op subterms below the root (larger first), then its constants. */
static int general_subterms(const ir_tnode *n, const ir_tnode **subs, int max) {
  int k = op_subterms(n, subs, 0, max);
  return const_leaves(n, subs, k, max);
}

/* A rule more general than r of which r is an instance: an op subterm or
 * a constant s of r's lhs replaced, everywhere in r, by an input of s's
 * type that r uses only inside s (`multiply(1, add(x, y)) -> add(x, y)`
 * gives `multiply(1, x) -> x`; `maximum(x, minimum(x, 1)) -> x` gives
 * `maximum(x, minimum(x, _1)) -> x`).  The i-th such rule (larger
 * subterms first, constants last), or 0 when there is none. */
static int generalize(const rw_rules *rs, ir_tp_store *st, const rw_rule *r, int i,
                      rw_rule *out) {
  const ir_tnode *subs[32];
  int ns = general_subterms(r->lhs, subs, 32);
  for (int k = 0; k < ns; k++) {
    const ir_tnode *s = subs[k], *hole = ir_tp_const(st, 0.0, &s->type);
    const ir_tnode *lh = replace(st, r->lhs, s, hole), *rh = replace(st, r->rhs, s, hole);
    for (int a = 0; a < rs->nargs; a++) {
      const ir_tnode *v = rs->args[a];
      if (!ir_type_equal(&v->type, &s->type) || has_arg(lh, v->arg) || has_arg(rh, v->arg))
        continue;
      rw_rule g = *r;
      g.lhs = replace(st, r->lhs, s, v);
      g.rhs = replace(st, r->rhs, s, v);
      if (g.lhs == g.rhs || g.lhs->size < g.rhs->size ||
          (r->lhs->size > r->rhs->size && g.lhs->size == g.rhs->size) || filtered(rs, &g))
        continue;
      if (i-- == 0) {
        *out = g;
        return 1;
      }
    }
  }
  return 0;
}

/* ------------------------------------------------- ground folding
 * A ground term t (no argument leaf) folds to a term of the same value: a
 * constant c when t has the value c in every element at every size
 * 1..bound (the sizes the rules are proved at; finite, the sign of a zero
 * included, and not -0, which is no constant of the term store), else (or
 * when that fold is not proved: `exp(1)` is no constant) the first ground
 * term seen with the same values at those sizes; the fold `t -> that
 * term` must be proved by Z3 in real mode, as any rule.
 * Each term is judged once (j->fold_key/fold_val: hash-consed terms, so
 * pointers), and the values seen are kept (j->seen). */

typedef struct seen_value {
  const ir_tnode *konst; /* the constant of these values, or NULL */
  const ir_tnode *term;  /* the first ground term of these values that
                          * did not fold to konst, or NULL */
  uint64_t hash;
  size_t n;
  double *vals; /* at sizes 1..bound, one after the other */
} seen_value;

/* The values of t at sizes 1..bound, one after the other (ir_malloc'd,
 * *n of them), or NULL when t is undefined or not finite somewhere. */
static double *ground_values(judging *j, const ir_tnode *t, size_t *n) {
  double *vals = NULL;
  *n = 0;
  for (long size = 1; size <= j->bound; size++) {
    long *sizes = all_sizes(j->out, size);
    ir_tensor *args = make_args(j->out, sizes);
    for (int i = 0; i < j->out->nargs; i++) {
      ir_tensor *a = &args[j->out->args[i]->arg];
      memset(a->data, 0, ir_tensor_size(a) * sizeof(double));
    }
    ir_tensor r;
    interp_err e;
    int ran = !enum_eval_node(t, args, j->out->k->nvars, sizes, &r, &e), ok = ran;
    if (ok) {
      size_t m = ir_tensor_size(&r);
      vals = ir_realloc(vals, sizeof(double) * (*n + m + 1));
      for (size_t k = 0; ok && k < m; k++) {
        ok = !(r.poison && r.poison[k]) && isfinite(r.data[k]);
        vals[(*n)++] = r.data[k];
      }
      interp_tensor_free(&r);
    }
    free_args(j->out, args);
    ir_free(sizes);
    if (!ok) {
      ir_free(vals);
      return NULL;
    }
  }
  return vals;
}

static uint64_t values_hash(const ir_type *ty, const double *v, size_t n) {
  uint64_t h = 1469598103934665603ull ^ ((uint64_t)ty->elem << 8 | (uint64_t)ty->rank);
  for (int d = 0; d < ty->rank; d++) h = (h ^ (uint64_t)(ty->dims[d] + 7)) * 1099511628211ull;
  for (size_t i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, &v[i], sizeof b);
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

/* The entry of values vals[0..n-1] of type ty in j->seen (made when they
 * are new, taking vals; else vals is freed). */
static seen_value *seen_entry(judging *j, const ir_type *ty, double *vals, size_t n) {
  uint64_t h = values_hash(ty, vals, n);
  for (int i = 0; i < j->nseen; i++) {
    seen_value *s = &j->seen[i];
    if (s->hash == h && s->n == n && !memcmp(s->vals, vals, n * sizeof(double))) {
      ir_free(vals);
      return s;
    }
  }
  int splat = n > 0 && !(vals[0] == 0 && signbit(vals[0]));
  for (size_t i = 1; splat && i < n; i++) splat = !memcmp(&vals[i], &vals[0], sizeof(double));
  if ((j->nseen & (j->nseen - 1)) == 0)
    j->seen = ir_realloc(j->seen, sizeof(seen_value) * (size_t)(j->nseen ? 2 * j->nseen : 1));
  seen_value *s = &j->seen[j->nseen++];
  s->konst = splat ? ir_tp_const(j->store, vals[0], ty) : NULL;
  s->term = NULL;
  s->hash = h;
  s->n = n;
  s->vals = vals;
  return s;
}

/* Does Z3 prove `t -> u` in real mode? */
static int proves(judging *j, const ir_tnode *t, const ir_tnode *u) {
  rw_rule r = {t, u, VERIFY_SKIPPED, VERIFY_SKIPPED, NULL, NULL, NULL};
  verify_result res;
  check(j->vr, j->out, &r, &res);
  int ok = res.verdict == VERIFY_PROVED;
  verify_result_free(&res);
  return ok;
}

static const ir_tnode *fold_ground(void *user, const ir_tnode *t) {
  judging *j = user;
  if (j->fold_n * 2 >= j->fold_cap) { /* grow, re-inserting */
    size_t cap = j->fold_cap ? j->fold_cap * 2 : 256;
    const ir_tnode **key = ir_calloc(cap, sizeof *key), **val = ir_calloc(cap, sizeof *val);
    for (size_t i = 0; i < j->fold_cap; i++)
      if (j->fold_key[i]) {
        size_t h = ((uintptr_t)j->fold_key[i] >> 4) & (cap - 1);
        while (key[h]) h = (h + 1) & (cap - 1);
        key[h] = j->fold_key[i];
        val[h] = j->fold_val[i];
      }
    ir_free(j->fold_key);
    ir_free(j->fold_val);
    j->fold_key = key;
    j->fold_val = val;
    j->fold_cap = cap;
  }
  size_t h = ((uintptr_t)t >> 4) & (j->fold_cap - 1);
  while (j->fold_key[h] && j->fold_key[h] != t) h = (h + 1) & (j->fold_cap - 1);
  if (j->fold_key[h]) return j->fold_val[h];
  const ir_tnode *c = NULL;
  size_t n;
  double *vals = ground_values(j, t, &n);
  seen_value *s = vals ? seen_entry(j, &t->type, vals, n) : NULL;
  if (s && s->konst && s->konst != t && proves(j, t, s->konst))
    c = s->konst; /* exact: the constant */
  else if (s && !s->term && s->konst != t)
    s->term = t; /* not exact (exp(1)) or no constant: the first term */
  else if (s && s->term && s->term != t && proves(j, t, s->term))
    c = s->term;
  j->folds += c != NULL;
  j->fold_key[h] = t;
  j->fold_val[h] = c;
  j->fold_n++;
  return c;
}

/* Has r been tried as a generalization before (rs->tried)?  If not, it
 * is recorded: each is checked once (hash-consed sides: pointer pairs). */
static int tried(rw_rules *rs, const rw_rule *r) {
  for (int i = 0; i < rs->ntried; i++)
    if (rs->tried[i].lhs == r->lhs && rs->tried[i].rhs == r->rhs) return 1;
  push(&rs->tried, &rs->ntried, r);
  return 0;
}

/* ------------------------------------------- attribute variables
 * One rule for every value of an enum attribute: `compare[dir=$0](x,
 * negate(0)) -> compare[dir=$0](x, 0)` stands for the rule at each
 * comparison direction.  The variable is an ir_attr with n = -1 and v[0]
 * its number (0: a rule has at most one); every instance is proved
 * before the rule is accepted, and matching binds it (egraph.c). */

static const ir_attr ATTR_VAR = {-1, {0}};

/* n with attribute slot `slot` of every op node of opdesc op whose value
 * is `from` made `to` (hash-consed; n itself when nothing changes). */
static const ir_tnode *set_attr(ir_tp_store *st, const ir_tnode *n, const ir_tp_opdesc *op,
                                int slot, const ir_attr *from, const ir_attr *to) {
  if (n->kind != IR_TN_OP) return n;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int changed = 0;
  for (int i = 0; i < n->nops; i++) {
    ops[i] = set_attr(st, n->ops[i], op, slot, from, to);
    changed |= ops[i] != n->ops[i];
  }
  ir_attr attrs[IR_TP_MAX_ATTRS];
  memcpy(attrs, n->attrs, sizeof attrs);
  if (n->op == op && !memcmp(&attrs[slot], from, sizeof *from)) {
    attrs[slot] = *to;
    changed = 1;
  }
  return changed ? ir_tp_op(st, n->op, attrs, ops, n->nops, &n->type) : n;
}

/* The op node of n holding the attribute variable, with its slot, or
 * NULL. */
static const ir_tnode *var_site(const ir_tnode *n, int *slot) {
  if (n->kind != IR_TN_OP) return NULL;
  for (int a = 0; a < n->op->nattrs; a++)
    if (n->attrs[a].n < 0) {
      *slot = a;
      return n;
    }
  for (int i = 0; i < n->nops; i++) {
    const ir_tnode *x = var_site(n->ops[i], slot);
    if (x) return x;
  }
  return NULL;
}

/* The number of values of the attribute variable of r (1: none). */
int rw_rule_ninstances(const rw_rule *r) {
  int slot;
  const ir_tnode *x = var_site(r->lhs, &slot);
  if (!x) return 1;
  return ((const gram_op *)x->op->owner)->attrs[slot].nvals;
}

rw_rule rw_rule_instance(ir_tp_store *st, const rw_rule *r, int i) {
  int slot;
  const ir_tnode *x = var_site(r->lhs, &slot);
  if (!x) return *r;
  ir_attr v = {1, {(int8_t)i}};
  rw_rule inst = *r;
  inst.lhs = set_attr(st, r->lhs, x->op, slot, &ATTR_VAR, &v);
  inst.rhs = set_attr(st, r->rhs, x->op, slot, &ATTR_VAR, &v);
  return inst;
}

/* The k-th site of an enum attribute in r's lhs (preorder: op node,
 * slot), or NULL. */
static const ir_tnode *enum_site(const ir_tnode *n, int *k, int *slot) {
  if (n->kind != IR_TN_OP) return NULL;
  for (int a = 0; a < n->op->nattrs; a++)
    if (n->op->attr_enum[a] && n->attrs[a].n == 1 && (*k)-- == 0) {
      *slot = a;
      return n;
    }
  for (int i = 0; i < n->nops; i++) {
    const ir_tnode *x = enum_site(n->ops[i], k, slot);
    if (x) return x;
  }
  return NULL;
}

/* r (proved) made one rule over an attribute variable where every
 * instance is proved: each enum attribute of its lhs in turn (every node
 * of that op with that value on either side made the variable), the
 * first whose every other value gives a proved rule.  Its fp verdict is
 * proved when every instance's is, else the first other instance's.
 * Returns 1 and sets *out, or 0. */
static int attr_general(judging *j, const rw_rule *r, rw_rule *out) {
  for (int k = 0;; k++) {
    int kk = k, slot;
    const ir_tnode *x = enum_site(r->lhs, &kk, &slot);
    if (!x) return 0;
    const ir_attr from = x->attrs[slot];
    rw_rule g = *r;
    g.lhs = set_attr(j->store, r->lhs, x->op, slot, &from, &ATTR_VAR);
    g.rhs = set_attr(j->store, r->rhs, x->op, slot, &from, &ATTR_VAR);
    if (tried(j->out, &g)) continue;
    int nv = rw_rule_ninstances(&g), ok = nv > 1;
    for (int v = 0; v < nv && ok; v++) {
      rw_rule inst = rw_rule_instance(j->store, &g, v);
      if (inst.lhs == r->lhs && inst.rhs == r->rhs) continue;
      if (inst.lhs == inst.rhs || filtered(j->out, &inst)) {
        ok = 0;
        break;
      }
      prove(j, &inst, NULL);
      ok = inst.real == VERIFY_PROVED;
      if (ok && inst.fp != VERIFY_PROVED && g.fp == VERIFY_PROVED) {
        g.fp = inst.fp;
        g.fp_why = inst.fp_why;
        g.ieee = inst.ieee;
      }
    }
    if (ok) {
      *out = g;
      return 1;
    }
  }
}

/* Judge proposed rule `rule`: filtered, derivable from the accepted rules
 * (equality saturation), or checked with vr (and vf) and added to out's
 * accepted, refuted or unknown rules.  Before it is checked, the rules
 * more general than it (generalize) are: the first proved one is accepted
 * in its place, and the rule is then derivable.  Returns FATE_FILTERED,
 * VERIFY_SKIPPED (derivable) or the real-mode verdict. */
static int judge(judging *j, rw_rule rule) {
  rw_rules *out = j->out;
  if (filtered(out, &rule)) {
    out->implied++;
    return FATE_FILTERED;
  }
  if (rw_derivable(j->store, out->rules, out->n, rule.lhs, rule.rhs, &j->folder, 0)) {
    out->implied++;
    return VERIFY_SKIPPED;
  }
  rw_rule g;
  for (int i = 0; generalize(out, j->store, &rule, i, &g); i++) {
    if (tried(out, &g)) continue;
    prove(j, &g, NULL);
    if (g.real != VERIFY_PROVED) continue;
    /* and the most general proved rule above it (a rule with two
     * subterms to generalize takes two steps) */
    rw_rule h;
    for (int q = 0; generalize(out, j->store, &g, q, &h); q++) {
      if (tried(out, &h)) continue;
      prove(j, &h, NULL);
      if (h.real != VERIFY_PROVED) continue;
      g = h;
      q = -1;
    }
    rw_rule a;
    if (attr_general(j, &g, &a)) g = a;
    push(&out->rules, &out->n, &g);
    out->generalized++;
    out->implied++;
    return VERIFY_SKIPPED;
  }
  int differs = 0;
  prove(j, &rule, &differs);
  rw_rule a;
  if (rule.real == VERIFY_PROVED && attr_general(j, &rule, &a)) {
    push(&out->rules, &out->n, &a);
    out->generalized++;
    out->implied++;
    return VERIFY_SKIPPED;
  }
  if (rule.real == VERIFY_PROVED) push(&out->rules, &out->n, &rule);
  else if (rule.real == VERIFY_REFUTED && differs) push(&out->refuted, &out->nrefuted, &rule);
  else push(&out->unknown, &out->nunknown, &rule);
  return rule.real;
}

/* The rule set of the normal-form miner (before equality saturation):
 * proposals in cmp_rule_old order, dropped when filtered or when
 * rw_normalize with the rules it accepted so far gives both sides one
 * term, accepted when proved in real mode (props[i].real: the verdict
 * judge reached, else VERIFY_SKIPPED and it is checked here).  Sets
 * out->old_n and out->old_derivable: how many of them end in one e-class
 * with out's rules. */
static void old_set(judging *j, rw_rule *props, int n) {
  rw_rules *out = j->out;
  ir_tp_store *store = j->store;
  qsort(props, (size_t)n, sizeof(rw_rule), cmp_rule_old);
  rw_rule *old = NULL;
  int nold = 0;
  for (int i = 0; i < n && !ir_budget_expired(); i++) {
    rw_rule r = props[i];
    if (r.lhs->size == r.rhs->size) continue; /* it proposed none of these */
    if (r.real == FATE_FILTERED ||
        normalize(store, old, nold, r.lhs, 0) == normalize(store, old, nold, r.rhs, 0))
      continue;
    if (r.real == VERIFY_SKIPPED) {
      verify_result res;
      check(j->vr, out, &r, &res);
      r.real = res.verdict;
      verify_result_free(&res);
    }
    if (r.real == VERIFY_PROVED) push(&old, &nold, &r);
  }
  out->old_n = nold;
  out->old_derivable = 0;
  for (int i = 0; i < nold; i++)
    out->old_derivable +=
        rw_derivable(store, out->rules, out->n, old[i].lhs, old[i].rhs, &j->folder, 1);
  ir_free(old);
}

/* The accepted rules without those derivable from the others: judging
 * accepts a rule when the rules before it do not derive it, and a rule
 * accepted later may derive it (`compare[GT](_0, minimum(x, _0))` before
 * `compare[LT](minimum(x, _0), _0)`, which with `compare[GT](x, y) ->
 * compare[LT](y, x)` derives it).  So, from the last accepted back, a rule
 * the other remaining rules derive is dropped; then every dropped rule is
 * checked against the final set, and one it does not derive (saturation
 * is bounded) is accepted again, so the set derives every rule dropped.
 * Sets out->shrunk. */
static void shrink(judging *j) {
  rw_rules *out = j->out;
  int n = out->n;
  if (n < 2) return;
  char *drop = ir_calloc((size_t)n, 1);
  rw_rule *rest = ir_malloc(sizeof(rw_rule) * (size_t)n);
  for (int i = n - 1; i >= 0 && !ir_budget_expired(); i--) {
    int m = 0;
    for (int k = 0; k < n; k++)
      if (k != i && !drop[k]) rest[m++] = out->rules[k];
    drop[i] = (char)rw_derivable(j->store, rest, m, out->rules[i].lhs, out->rules[i].rhs,
                                 &j->folder, 1);
  }
  int m = 0;
  for (int k = 0; k < n; k++)
    if (!drop[k]) rest[m++] = out->rules[k];
  for (int k = 0; k < n; k++)
    if (drop[k] &&
        !rw_derivable(j->store, rest, m, out->rules[k].lhs, out->rules[k].rhs, &j->folder, 1))
      drop[k] = 0;
  m = 0;
  for (int k = 0; k < n; k++)
    if (!drop[k]) out->rules[m++] = out->rules[k];
  out->shrunk = n - m;
  out->implied += n - m;
  out->n = m;
  ir_free(rest);
  ir_free(drop);
}

/* ------------------------------------------------ pattern variables
 * A proposal's subterm of a type no input has (a scalar such as
 * `reduce(x, 0)` over x:[n], or f64[1,n]) generalizes only to a variable
 * of that type: `multiply(1, reduce[...](x, 0)) -> reduce[...](x, 0)` is
 * an instance of `multiply(1, _0) -> _0` over _0:f64[].  So every type of
 * an op subterm of a proposal's lhs that has the inputs' element type
 * gets one pattern variable `_N` (in proposal order, as room in the
 * size-symbol maps allows): an input the enumeration does not use, which
 * generalize may take, and which a rule is checked and probed over only
 * when it uses it.  The kernel is parsed again from the --inputs with the
 * pattern variables appended, so the inputs keep their var ids and the
 * enumerated terms stay valid. */

static int var_named(const ir_kernel *k, const char *name) {
  for (int v = 0; v < k->nvars; v++)
    if (!strcmp(k->vars[v]->name, name)) return 1;
  return 0;
}

static void add_patterns(const rw_opts *o, rw_rules *out, const rw_rule *props, int n,
                         ir_arena *arena, ir_tp_store *store) {
  ir_type types[RW_MAXSYM];
  int nt = 0, room = RW_MAXSYM - out->k->nvars;
  for (int i = 0; i < n && nt < room; i++) {
    const ir_tnode *subs[32];
    int ns = general_subterms(props[i].lhs, subs, 32);
    for (int k = 0; k < ns && nt < room; k++) {
      const ir_type *t = &subs[k]->type;
      int seen = t->elem != out->k->data_type && t->elem != IR_I1;
      for (int q = 0; q < nt && !seen; q++) seen = ir_type_equal(&types[q], t);
      if (!seen) types[nt++] = *t;
    }
  }
  if (!nt) return;
  ir_buf b = {0};
  ir_buf_puts(&b, o->inputs);
  for (int q = 0, next = 0; q < nt; q++) {
    char name[24];
    do snprintf(name, sizeof name, "_%d", next++);
    while (var_named(out->k, name));
    ir_buf_printf(&b, ",%s:%s[", name,
                  types[q].elem == IR_I1 ? "i1" : out->k->data_type == IR_F32 ? "f32" : "f64");
    for (int d = 0; d < types[q].rank; d++)
      ir_buf_printf(&b, "%s%s", d ? "," : "",
                    types[q].dims[d] == IR_DIM_ONE ? "1" : out->k->vars[types[q].dims[d]]->name);
    ir_buf_puts(&b, "]");
  }
  const char *spec = ir_arena_strdup(arena, ir_buf_str(&b));
  ir_buf_free(&b);
  ir_kernel *k;
  const ir_tnode *args[RW_MAXSYM];
  int nargs;
  ir_error err;
  ir_error_clear(&err);
  if (pipe_inputs_parse(spec, 1, arena, store, &k, args, RW_MAXSYM, &nargs, &err)) return;
  for (int i = 0; i < out->ninputs; i++)
    if (args[i] != out->args[i]) return; /* cannot happen: the same prefix */
  out->k = k;
  memcpy(out->args, args, sizeof args);
  out->nargs = nargs;
}

void rw_default_options(rw_opts *o) {
  memset(o, 0, sizeof *o);
  o->bound = 2;
  o->fp = 1;
  enum_default_options(&o->search);
  o->search.max_ops = 2;
  o->search.timeout = 0;
}

pipe_error rw_mine(const rw_opts *o, ir_arena *arena, ir_tp_store *store, rw_rules *out,
                   ir_error *err) {
  const ir_pos nowhere = {0};
  memset(out, 0, sizeof *out);
  pipe_inputs in;
  pipe_error pe = pipe_inputs_load(o->inputs, o->dialect, arena, store, &in, err);
  out->k = in.k;
  out->d = in.d;
  out->nargs = out->ninputs = in.nargs;
  memcpy(out->args, in.args, sizeof in.args);
  if (pe != PIPE_OK) return pe;
  if (out->k->nvars > MAXSYM) {
    ir_error_set(err, nowhere, IR_ERR_INPUT, "too many inputs and dims");
    return PIPE_ERR_INPUTS;
  }
  miner m = {NULL, 0, 0, store};
  enum_explore_hooks h = {on_keep, on_equal, NULL, &m};
  enum_stats st;
  int r = enum_explore(out->k, out->d, out->args, out->nargs, &o->search, &h, store, &st);
  if (r < 0) {
    ir_free(m.props);
    ir_error_set(err, nowhere, IR_ERR_INTERNAL, "the enumeration failed");
    return PIPE_ERR_INTERNAL;
  }
  out->complete = r == 0;
  out->limited = r == ENUM_EXPLORE_LIMIT;
  out->proposed = m.n;
  if (m.n) qsort(m.props, (size_t)m.n, sizeof(rw_rule), cmp_rule);
  add_patterns(o, out, m.props, m.n, arena, store);
  verify_ctx *vr, *vf;
  if (verifiers(o, &vr, &vf)) {
    ir_free(m.props);
    ir_error_set(err, nowhere, IR_ERR_TOOL, "cannot set up Z3");
    return PIPE_ERR_SOLVER;
  }
  judging j = {out, vr, vf, store, arena, o->bound > 0 ? o->bound : 2,
               {fold_ground, NULL}, NULL, NULL, 0, 0, 0, NULL, 0};
  j.folder.user = &j;
  int i = 0;
  for (; i < m.n && !ir_budget_expired(); i++) {
    if (o->on_rule) o->on_rule(o->user, i, m.n);
    m.props[i].real = judge(&j, m.props[i]);
  }
  out->unjudged = m.n - i; /* the budget ran out: unknown, in order */
  for (; i < m.n; i++) {
    rw_rule r = m.props[i];
    r.real = VERIFY_UNKNOWN;
    r.why = "not checked: the budget of the command (--timeout or --work) ran out";
    push(&out->unknown, &out->nunknown, &r);
  }
  if (!out->unjudged) shrink(&j);
  out->old_n = out->old_derivable = -1;
  if (o->derive_old && !out->unjudged) old_set(&j, m.props, m.n);
  out->folds = j.folds;
  ir_free(j.fold_key);
  ir_free(j.fold_val);
  for (int k = 0; k < j.nseen; k++) ir_free(j.seen[k].vals);
  ir_free(j.seen);
  verify_free(vr);
  verify_free(vf);
  ir_free(m.props);
  return PIPE_OK;
}

void rw_rules_free(rw_rules *r) {
  ir_free(r->rules);
  ir_free(r->refuted);
  ir_free(r->unknown);
  ir_free(r->tried);
  r->tried = NULL;
  r->ntried = 0;
  r->rules = r->refuted = r->unknown = NULL;
  r->n = r->nrefuted = r->nunknown = 0;
}
