/*
 * test_rewrites.c - every rule uplift rewrites prints is proved and holds
 * on random inputs in the interpreter: both sides evaluated with
 * enum_eval_node at sizes and values the enumerator never saw.
 */
#include <math.h>
#include <string.h>

#include "rewrites/rewrites.h"
#include "tests/harness.h"

static int holds(const rw_rules *rs, const rw_rule *r, uint64_t seed) {
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
    for (size_t j = 0; j < n; j++)
      t->data[j] = (double)interp_rng_range(&rng, -1000, 1000) / 8.0;
  }
  ir_tensor l, rr;
  interp_err e;
  int ok = 1;
  int el = enum_eval_node(r->lhs, args, k->nvars, sizes, &l, &e);
  int er = enum_eval_node(r->rhs, args, k->nvars, sizes, &rr, &e);
  if (!el) { /* where lhs is defined, rhs must be defined and equal */
    ok = !er && ir_tensor_size(&l) == ir_tensor_size(&rr);
    for (size_t j = 0; ok && j < ir_tensor_size(&l); j++) {
      /* poison, or inf/NaN (division by zero: undefined for the verifier) */
      if ((l.poison && l.poison[j]) || !isfinite(l.data[j])) continue;
      ok = !(rr.poison && rr.poison[j]) &&
           interp_values_agree(l.data[j], rr.data[j], l.elem == IR_F32 ? 1e-5 : 1e-9);
    }
  }
  if (!el) interp_tensor_free(&l);
  if (!er) interp_tensor_free(&rr);
  for (int i = 0; i < rs->nargs; i++) ir_free(args[rs->args[i]->arg].data);
  return ok;
}

static void run(const char *dialect, const char *inputs, int max_ops, int min_rules) {
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_opts o = {.dialect = dialect, .inputs = inputs, .bound = 2, .smt_timeout = 10};
  enum_default_options(&o.search);
  o.search.max_ops = max_ops;
  o.search.threads = 1;
  rw_rules rs;
  ir_error err;
  pipe_error r = rw_mine(&o, &arena, &store, &rs, &err);
  CHECKF(r == 0, "%s %s: mined (%s)", dialect, inputs, r ? err.msg : "");
  CHECKF(rs.n >= min_rules, "%s %s: %d rules (want >= %d)", dialect, inputs, rs.n, min_rules);
  int proved = 1, held = 1, smaller = 1;
  for (int i = 0; i < rs.n; i++) {
    const rw_rule *ru = &rs.rules[i];
    proved &= ru->real == VERIFY_PROVED;
    smaller &= ru->rhs->size < ru->lhs->size;
    for (int s = 0; s < 4; s++)
      if (!holds(&rs, ru, 0x1234u + (uint64_t)(i * 8 + s))) {
        char a[256], b[256];
        printf("  does not hold: %s -> %s\n", ir_tp_str(ru->lhs, rs.k, a, sizeof a),
               ir_tp_str(ru->rhs, rs.k, b, sizeof b));
        held = 0;
        break;
      }
  }
  CHECKF(proved, "%s: every accepted rule is proved in real mode", dialect);
  CHECKF(held, "%s: every accepted rule holds on random inputs", dialect);
  CHECKF(smaller, "%s: every rule makes the program smaller", dialect);
  int confirmed = 1, unproved = 1;
  for (int i = 0; i < rs.nrefuted; i++)
    confirmed &= rs.refuted[i].real == VERIFY_REFUTED && rs.refuted[i].ieee &&
                 !strncmp(rs.refuted[i].ieee, "IEEE differs: ", 14);
  for (int i = 0; i < rs.nunknown; i++) unproved &= rs.unknown[i].real != VERIFY_PROVED;
  CHECKF(confirmed, "%s: every refuted rule is refuted, with the interpreter's difference",
         dialect);
  CHECKF(unproved, "%s: no unknown rule is proved", dialect);
  CHECKF(rs.n + rs.nrefuted + rs.nunknown + rs.implied == rs.proposed,
         "%s: every proposed rule is proved, refuted, unknown or implied (%d+%d+%d+%ld of %ld)",
         dialect, rs.n, rs.nrefuted, rs.nunknown, rs.implied, rs.proposed);
  rw_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

int main(void) {
  long live = ir_mem_live();
  run("hlo", "x:f64[n],a:f64[]", 2, 20);
  run("linalg", "x:f64[n],y:f64[n]", 1, 2);
  run("tosa", "x:f32[n]", 2, 5);
  /* a bad spec is an error, not a crash */
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_opts o = {.dialect = "hlo", .inputs = "x:f64[n", .bound = 2, .smt_timeout = 10};
  enum_default_options(&o.search);
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
