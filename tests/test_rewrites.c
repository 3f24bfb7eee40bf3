/*
 * test_rewrites.c - every rule uplift rewrites prints is proved and holds
 * on random inputs in the interpreter: both sides evaluated with
 * enum_eval_node at sizes and values the enumerator never saw.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "rewrites/rewrites.h"
#include "tests/harness.h"

/* Values for special-input runs: zeros of both signs, infinities, NaN. */
static const double special[] = {0.0, -0.0, 1.0, -1.0, 2.5, -3.0, INFINITY, -INFINITY, NAN};

/* Do x and y agree as IEEE results up to rounding: both NaN, or of one
 * sign (zeros too) and equal or close? */
static int ieee_agree(double x, double y) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (signbit(x) != signbit(y)) return 0;
  if (isinf(x) || isinf(y)) return x == y;
  return fabs(x - y) <= 1e-9 * fmax(1.0, fabs(x));
}

/* Does rule r hold on seeded inputs: random eighths (specials = 0), or
 * drawn from special[] (specials = 1), compared as IEEE values up to
 * rounding (a rule proved in real mode holds for NaN, infinities and -0:
 * `multiply(0, x) -> 0` does not, x = NaN)? */
static int holds_on(const rw_rules *rs, const rw_rule *r, uint64_t seed, int specials) {
  const ir_kernel *k = rs->k;
  interp_rng rng;
  interp_rng_seed(&rng, seed);
  long sizes[64] = {0};
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = interp_rng_range(&rng, 1, 7);
  ir_tensor args[64];
  memset(args, 0, sizeof args);
  for (int i = 0; i < rs->nargs; i++) {
    const ir_tnode *a = rs->args[i];
    ir_tensor *t = &args[a->arg];
    t->elem = a->type.elem;
    t->rank = a->type.rank;
    for (int d = 0; d < t->rank; d++)
      t->dims[d] = a->type.dims[d] == IR_DIM_ONE ? 1 : sizes[a->type.dims[d]];
    size_t n = ir_tensor_size(t);
    t->data = ir_malloc((n + 1) * sizeof(double));
    for (size_t j = 0; j < n; j++) /* a condition (a pattern variable) is 0 or 1 */
      t->data[j] = t->elem == IR_I1 ? (double)interp_rng_range(&rng, 0, 1)
                   : specials       ? special[interp_rng_range(&rng, 0, 8)]
                                    : (double)interp_rng_range(&rng, -1000, 1000) / 8.0;
  }
  ir_tensor l, rr;
  interp_err e;
  int ok = 1;
  int el = enum_eval_node(r->lhs, args, k->nvars, sizes, &l, &e);
  int er = enum_eval_node(r->rhs, args, k->nvars, sizes, &rr, &e);
  if (!el) { /* where lhs is defined, rhs must be defined and equal */
    ok = !er && ir_tensor_size(&l) == ir_tensor_size(&rr);
    for (size_t j = 0; ok && j < ir_tensor_size(&l); j++) {
      if (l.poison && l.poison[j]) continue;
      if (specials) {
        ok = !(rr.poison && rr.poison[j]) && ieee_agree(l.data[j], rr.data[j]);
        continue;
      }
      /* inf/NaN from finite inputs (a division by zero) */
      if (!isfinite(l.data[j])) continue;
      ok = !(rr.poison && rr.poison[j]) &&
           interp_values_agree(l.data[j], rr.data[j], l.elem == IR_F32 ? 1e-5 : 1e-9);
    }
  }
  if (!el) interp_tensor_free(&l);
  if (!er) interp_tensor_free(&rr);
  for (int i = 0; i < rs->nargs; i++) ir_free(args[rs->args[i]->arg].data);
  return ok;
}


/* Does n have argument leaf arg (any argument leaf when arg < 0)? */
static int has_arg_leaf(const ir_tnode *n, int arg) {
  if (n->kind == IR_TN_ARG) return arg < 0 || n->arg == arg;
  for (int i = 0; i < n->nops; i++)
    if (has_arg_leaf(n->ops[i], arg)) return 1;
  return 0;
}

static int has_input(const ir_tnode *n) { return has_arg_leaf(n, -1); }

/* Does n use an op whose semantic kernel plays another's part (maxnum for
 * max: a value MLIR 16 leaves open at a NaN or a tie of zeros)? */
static int has_open_kernel(const ir_tnode *n) {
  if (n->kind == IR_TN_OP) {
    const char *kn = gram_prod_kernel(n->op->owner, n->attrs);
    if (kn && strcmp(interp_op_like(kn), kn)) return 1;
  }
  for (int i = 0; i < n->nops; i++)
    if (has_open_kernel(n->ops[i])) return 1;
  return 0;
}

/* A folder for the test: every term of op `op` over constants is 0. */
typedef struct fake_fold {
  ir_tp_store *store;
  const ir_tp_opdesc *op;
  int calls;
} fake_fold;

static const ir_tnode *fold_zero(void *user, const ir_tnode *t) {
  fake_fold *f = user;
  f->calls++;
  return t->op == f->op ? ir_tp_const(f->store, 0.0, &t->type) : NULL;
}

/* The e-graph (egraph.c) on the terms of a mined rule set: hash-consing,
 * union-find, congruence closure on rebuild, saturation, the node limit. */
static void test_egraph(const rw_rules *rs, ir_tp_store *store) {
  /* a one-op rule over inputs with a leaf rhs, and an input v of it with a
   * twin input of v's type: twin is the lhs with v renamed */
  const rw_rule *r = NULL;
  const ir_tnode *v = NULL, *other = NULL;
  for (int i = 0; i < rs->n && !r; i++) {
    const ir_tnode *l = rs->rules[i].lhs;
    int leaves = l->size == 1 && rs->rules[i].rhs->kind != IR_TN_OP;
    for (int j = 0; j < l->nops; j++) leaves &= l->ops[j]->kind == IR_TN_ARG;
    for (int a = 0; leaves && a < rs->nargs && !r; a++)
      if (rs->args[a] != l->ops[0] && ir_type_equal(&rs->args[a]->type, &l->ops[0]->type))
        r = &rs->rules[i], v = l->ops[0], other = rs->args[a];
  }
  CHECK("egraph: a one-op rule over inputs, one with a twin input", r != NULL);
  if (!r) return;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int j = 0; j < r->lhs->nops; j++) ops[j] = r->lhs->ops[j] == v ? other : r->lhs->ops[j];
  const ir_tnode *twin = ir_tp_op(store, r->lhs->op, r->lhs->attrs, ops, r->lhs->nops,
                                  &r->lhs->type);
  const ir_tnode *twin_rhs = r->rhs == v ? other : r->rhs;
  rw_egraph *g = rw_egraph_new(store, 1000);
  int c1 = rw_egraph_add(g, r->lhs);
  long n1 = rw_egraph_size(g);
  CHECK("egraph: adding a term twice gives its class, no new node",
        rw_egraph_add(g, r->lhs) == c1 && rw_egraph_size(g) == n1);
  int c2 = rw_egraph_add(g, twin);
  int ca = rw_egraph_add(g, v), cb = rw_egraph_add(g, other);
  CHECK("egraph: distinct terms, distinct classes",
        rw_egraph_find(g, c1) != rw_egraph_find(g, c2) &&
            rw_egraph_find(g, ca) != rw_egraph_find(g, cb));
  CHECK("egraph: union merges once", rw_egraph_union(g, ca, cb) == 1 &&
                                         rw_egraph_union(g, ca, cb) == 0 &&
                                         rw_egraph_find(g, ca) == rw_egraph_find(g, cb));
  CHECK("egraph: before rebuild the terms over them are apart",
        rw_egraph_find(g, c1) != rw_egraph_find(g, c2));
  CHECK("egraph: rebuild merges congruent terms (congruence closure)",
        rw_egraph_rebuild(g) == 1 && rw_egraph_find(g, c1) == rw_egraph_find(g, c2));
  rw_egraph_free(g);
  CHECK("egraph: a rule derives itself", rw_derivable(store, r, 1, r->lhs, r->rhs, NULL, 0));
  CHECK("egraph: no rules derive nothing", !rw_derivable(store, r, 0, r->lhs, r->rhs, NULL, 0));
  CHECK("egraph: the rule matches other inputs (pattern variables)",
        rw_derivable(store, r, 1, twin, twin_rhs, NULL, 0));
  CHECK("egraph: but not a term it does not match",
        !rw_derivable(store, r, 1, twin, r->lhs == twin ? other : r->lhs, NULL, 0));
  /* constant folding: the lhs over constants folds (by the folder) */
  for (int j = 0; j < r->lhs->nops; j++) ops[j] = ir_tp_const(store, 1.0, &r->lhs->ops[j]->type);
  const ir_tnode *ground = ir_tp_op(store, r->lhs->op, r->lhs->attrs, ops, r->lhs->nops,
                                    &r->lhs->type);
  const ir_tnode *zero = ir_tp_const(store, 0.0, &r->lhs->type);
  fake_fold ff = {store, r->lhs->op, 0};
  rw_folder fold = {fold_zero, &ff};
  CHECK("egraph: without a folder a ground term is apart from a constant",
        !rw_derivable(store, r, 0, ground, zero, NULL, 0));
  CHECK("egraph: the folder's constant joins the ground term's class",
        rw_derivable(store, r, 0, ground, zero, &fold, 0));
  CHECKF(ff.calls == 1, "egraph: each node goes to the folder once (%d calls)", ff.calls);
  g = rw_egraph_new(store, 0);
  int l = rw_egraph_add(g, r->lhs), rr = rw_egraph_add(g, r->rhs);
  CHECK("egraph: the node limit is counted: saturation stops at it",
        rw_egraph_saturate(g, r, 1, 16, l, rr) == 1);
  rw_egraph_free(g);
  /* a shape-generic rule (elementwise ops, gram_rule_shape_generic)
   * matches its ops at any shape: the twin over rank-2 inputs; a rule
   * that is not matches at its own shapes only */
  if (gram_rule_shape_generic(r->lhs, r->rhs)) {
    ir_type t2 = v->type;
    t2.rank = 2;
    t2.dims[1] = t2.dims[0];
    const ir_tnode *v2 = ir_tp_arg(store, v->arg, "v2", &t2);
    for (int j = 0; j < r->lhs->nops; j++)
      ops[j] = r->lhs->ops[j] == v ? v2 : r->lhs->ops[j];
    ir_type rt2 = r->lhs->type;
    rt2.rank = 2;
    rt2.dims[1] = rt2.dims[0];
    const ir_tnode *big = ir_tp_op(store, r->lhs->op, r->lhs->attrs, ops, r->lhs->nops, &rt2);
    CHECK("egraph: a shape-generic rule matches its ops at another rank",
          rw_derivable(store, r, 1, big, r->rhs == v ? v2 : r->rhs, NULL, 0));
  }
  /* a rule over an attribute variable ($0) derives each of its
   * instances, and each is a proved rule (held below) */
  int nvar = 0, derives = 1;
  for (int i = 0; i < rs->n; i++) {
    const rw_rule *ru = &rs->rules[i];
    if (rw_rule_ninstances(ru) < 2) continue;
    nvar++;
    for (int q = 0; q < rw_rule_ninstances(ru); q++) {
      rw_rule inst = rw_rule_instance(store, ru, q);
      derives &= !ir_tp_has_attr_var(inst.lhs) &&
                 rw_derivable(store, ru, 1, inst.lhs, inst.rhs, NULL, 0);
    }
  }
  CHECKF(nvar > 0 && derives,
         "egraph: the %d rules over an attribute variable derive each of their instances", nvar);
  int specific = 0, pdl = 1;
  for (int i = 0; i < rs->n; i++) {
    emit_pdll_rule pr = {rs->rules[i].lhs, rs->rules[i].rhs, ""};
    if (gram_rule_shape_generic(pr.lhs, pr.rhs)) continue;
    specific++;
    const char *why = emit_pdll_why(&pr);
    pdl &= why != NULL;
  }
  CHECKF(specific > 0 && pdl,
         "pdll: the %d rules proved at their inputs' shapes only are no PDL pattern (which "
         "would match their ops at any shape)", specific);
}

static void run(const char *dialect, const char *inputs, int max_ops, int min_rules) {
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_opts o;
  rw_default_options(&o);
  o.dialect = dialect;
  o.inputs = inputs;
  o.fp = 0;
  o.derive_old = 1;
  o.search.max_ops = max_ops;
  o.search.threads = 1;
  rw_rules rs;
  ir_error err;
  pipe_error r = rw_mine(&o, &arena, &store, &rs, &err);
  CHECKF(rs.old_n > 0 && rs.old_derivable == rs.old_n,
         "%s %s: every rule of the normal-form set is derivable from the %d rules (%d of %d)",
         dialect, inputs, rs.n, rs.old_derivable, rs.old_n);
  int shrinking = 0;
  for (int i = 0; i < rs.n; i++) shrinking += rs.rules[i].rhs->size < rs.rules[i].lhs->size;
  CHECKF(shrinking <= rs.old_n,
         "%s %s: no more size-reducing rules than the normal-form set (%d <= %d)", dialect,
         inputs, shrinking, rs.old_n);
  if (!strcmp(dialect, "hlo")) test_egraph(&rs, &store);
  /* tosa's maximum, minimum, reduce_max, reduce_min (maxnum): MLIR 16
   * leaves their value open at a NaN or a tie of zeros, so no rule that
   * has one is proved (maximum(x, minimum(x, y)) -> x gives y where x is
   * NaN after the rewrite in MLIR 16, x before) */
  int open = 0;
  for (int i = 0; i < rs.n; i++)
    open += has_open_kernel(rs.rules[i].lhs) || has_open_kernel(rs.rules[i].rhs);
  CHECKF(open == 0, "%s %s: no proved rule has a maxnum, minnum or reduce_num op (%d)", dialect,
         inputs, open);
  CHECKF(r == 0, "%s %s: mined (%s)", dialect, inputs, r ? err.msg : "");
  CHECKF(rs.n >= min_rules, "%s %s: %d rules (want >= %d)", dialect, inputs, rs.n, min_rules);
  int proved = 1, held = 1, smaller = 1;
  for (int i = 0; i < rs.n; i++) {
    const rw_rule *ru = &rs.rules[i];
    proved &= ru->real == VERIFY_PROVED;
    smaller &= ru->rhs->size <= ru->lhs->size;
    int ni = rw_rule_ninstances(ru);
    for (int s = 0; s < 12 * ni; s++) {
      rw_rule inst = rw_rule_instance(&store, ru, s % ni);
      if (!holds_on(&rs, &inst, 0x1234u + (uint64_t)(i * 16 + s), s / ni >= 4)) {
        char a[256], b[256];
        printf("  does not hold: %s -> %s\n", ir_tp_str(inst.lhs, rs.k, a, sizeof a),
               ir_tp_str(inst.rhs, rs.k, b, sizeof b));
        held = 0;
        break;
      }
    }
  }
  CHECKF(proved, "%s: every accepted rule is proved in real mode", dialect);
  CHECKF(held, "%s: every accepted rule holds on random inputs, and on inputs of zeros of "
         "both signs, infinities and NaN", dialect);
  CHECKF(smaller, "%s: no rule makes the program bigger", dialect);
  /* pattern variables: inputs after the --inputs, each of its own type,
   * that only a generalized rule uses */
  int patterns = rs.nargs - rs.ninputs, fresh = 1, used = 0;
  for (int i = rs.ninputs; i < rs.nargs; i++)
    for (int q = 0; q < i; q++) fresh &= !ir_type_equal(&rs.args[q]->type, &rs.args[i]->type) ||
                                         q < rs.ninputs;
  for (int i = 0; i < rs.n; i++)
    for (int a = rs.ninputs; a < rs.nargs; a++) used += has_arg_leaf(rs.rules[i].lhs, rs.args[a]->arg);
  CHECKF((patterns > 0 || max_ops == 1) && fresh && used <= rs.generalized,
         "%s: %d pattern variables, one per type; %d rules use one, each a generalization (%ld)",
         dialect, patterns, used, rs.generalized);
  if (max_ops > 1) { /* select(c, y, y) -> y for every condition c, one rule */
    int cond = 0;
    for (int i = 0; i < rs.n; i++)
      for (int a = rs.ninputs; a < rs.nargs; a++)
        cond += rs.args[a]->type.elem == IR_I1 && has_arg_leaf(rs.rules[i].lhs, rs.args[a]->arg);
    CHECKF(cond > 0, "%s: a rule over a condition (an i1 pattern variable): %d", dialect, cond);
  }
  int ground = 0;
  for (int i = 0; i < rs.n; i++) ground += !has_input(rs.rules[i].lhs);
  CHECKF(!ground && rs.folds > 0,
         "%s: no rule without an input (%d; %ld ground folds derive them)", dialect, ground,
         rs.folds);
  int confirmed = 1, unproved = 1;
  for (int i = 0; i < rs.nrefuted; i++)
    confirmed &= rs.refuted[i].real == VERIFY_REFUTED && rs.refuted[i].ieee &&
                 !strncmp(rs.refuted[i].ieee, "IEEE differs: ", 14);
  for (int i = 0; i < rs.nunknown; i++) unproved &= rs.unknown[i].real != VERIFY_PROVED;
  CHECKF(confirmed, "%s: every refuted rule is refuted, with the interpreter's difference",
         dialect);
  CHECKF(unproved, "%s: no unknown rule is proved", dialect);
  CHECKF(rs.n - rs.generalized + rs.nrefuted + rs.nunknown + rs.implied == rs.proposed,
         "%s: every proposed rule is proved, refuted, unknown or implied, and every other "
         "rule generalizes one (%d-%ld+%d+%d+%ld of %ld)",
         dialect, rs.n, rs.generalized, rs.nrefuted, rs.nunknown, rs.implied, rs.proposed);
  rw_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

int main(void) {
  long live = ir_mem_live();
  run("hlo", "x:f64[n],a:f64[]", 2, 20);
  run("linalg", "x:f64[n],y:f64[n]", 1, 2);
  run("tosa", "x:f32[n],y:f32[n]", 2, 5);
  /* a bad spec is an error, not a crash */
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_opts o;
  rw_default_options(&o);
  o.dialect = "hlo";
  o.inputs = "x:f64[n";
  o.search.max_ops = 1;
  o.search.threads = 1;
  rw_rules rs;
  ir_error err;
  CHECK("bad inputs rejected",
        rw_mine(&o, &arena, &store, &rs, &err) == PIPE_ERR_INPUTS);
  CHECKF(err.code == IR_ERR_INPUT && err.pos.line == 1 && err.pos.col == 8,
         "the error is placed at the end of the --inputs text (%d:%d)", err.pos.line,
         err.pos.col);
  rw_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  CHECKF(ir_mem_live() == live, "no leaks (%ld live)", ir_mem_live() - live);
  return TEST_REPORT();
}
