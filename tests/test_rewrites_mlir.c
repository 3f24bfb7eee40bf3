/*
 * test_rewrites_mlir.c - the PDLL patterns of `uplift rewrites` applied by
 * upstream MLIR: every size-reducing rule mined from linalg and tosa (small
 * runs) is either written as a PDL pattern (emit_pdll) or listed with the
 * reason it cannot be one (emit_pdll_why).  Every pattern is compiled with
 * mlir-pdll-16 -x=mlir and applied by mlir-opt-16
 * --test-pdl-bytecode-pass to a module whose function computes the rule's
 * left-hand side (emit_mlir_run_rewritten); it must apply (or the driver's
 * own folders must have rewritten the program first: a ground rule MLIR
 * folds itself), and the rewritten module and the original are run in
 * mlir-cpu-runner-16 on the same seeded inputs and must agree.  hlo is not
 * upstream MLIR 16 (no stablehlo): not run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "rewrites/rewrites.h"
#include "tests/harness.h"

#define SIZE 3 /* every size symbol */

static int total_applied; /* patterns that changed their module */

/* The PDLL of rule r alone (malloc'd). */
static char *rule_pdll(const rw_rules *rs, const rw_rule *r) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  emit_pdll_rule pr = {r->lhs, r->rhs, "rule"};
  emit_pdll(rs->d, rs->k, &pr, 1, f);
  fclose(f);
  return text;
}

/* Do a and b agree where a (the original) is a finite value? */
static int agree(const ir_tensor *a, const ir_tensor *b, double rtol) {
  if (!a->data || !b->data || ir_tensor_size(a) != ir_tensor_size(b)) return 0;
  for (size_t j = 0; j < ir_tensor_size(a); j++)
    if (isfinite(a->data[j]) && !interp_values_agree(a->data[j], b->data[j], rtol)) return 0;
  return 1;
}

static void run(const char *dialect, const char *inputs, int max_ops) {
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_opts o;
  rw_default_options(&o);
  o.dialect = dialect;
  o.inputs = inputs;
  o.fp = 0;
  o.search.max_ops = max_ops;
  o.search.threads = 1;
  rw_rules rs;
  ir_error err;
  CHECKF(rw_mine(&o, &arena, &store, &rs, &err) == PIPE_OK, "%s %s: mined", dialect, inputs);
  const ir_kernel *k = rs.k;
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = SIZE;
  ir_tensor *in = ir_calloc((size_t)rs.nargs + 1, sizeof(ir_tensor));
  interp_rng rng;
  interp_rng_seed(&rng, 0x5eedu);
  for (int i = 0; i < rs.nargs; i++) {
    const ir_tnode *a = rs.args[i];
    in[i].elem = a->type.elem;
    in[i].rank = a->type.rank;
    for (int d = 0; d < a->type.rank; d++)
      in[i].dims[d] = a->type.dims[d] == IR_DIM_ONE ? 1 : sizes[a->type.dims[d]];
    in[i].data = ir_malloc((ir_tensor_size(&in[i]) + 1) * sizeof(double));
    for (size_t j = 0; j < ir_tensor_size(&in[i]); j++)
      in[i].data[j] = (double)interp_rng_range(&rng, 1, 40) / 8.0 *
                      (interp_rng_range(&rng, 0, 1) ? 1 : -1);
  }
  double rtol = k->data_type == IR_F32 ? 1e-5 : 1e-9;
  int applied_n = 0, folded_n = 0, tried = 0, nopat = 0, agreed = 1, ran = 1, missed = 0;
  for (int i = 0; i < rs.n; i++) {
    const rw_rule *r = &rs.rules[i];
    if (r->rhs->size >= r->lhs->size) continue; /* equalities have no pattern */
    char a[512], b[512];
    ir_tp_str(r->lhs, k, a, sizeof a);
    ir_tp_str(r->rhs, k, b, sizeof b);
    emit_pdll_rule pr = {r->lhs, r->rhs, "rule"};
    const char *why = emit_pdll_why(&pr);
    if (why) {
      printf("  not a PDL pattern (%s): %s -> %s\n", why, a, b);
      nopat++;
      continue;
    }
    tried++;
    ir_tprog p = {.nargs = rs.nargs, .nresults = 1, .kernel = k};
    for (int j = 0; j < rs.nargs; j++) p.args[j] = rs.args[j];
    p.results[0] = r->lhs;
    emit_run orig = {.prog = &p, .sizes = sizes, .nsizes = k->nvars, .inputs = in}, rew = orig;
    char *pdll = rule_pdll(&rs, r);
    int applied = 0;
    int rc0 = emit_mlir_run(rs.d, &orig, 1, &err, NULL);
    int rc1 = rc0 ? -1 : emit_mlir_run_rewritten(rs.d, &rew, 1, pdll, &applied, &err);
    if (rc0 || rc1) {
      printf("  %s -> %s: %s\n", a, b, err.msg);
      ran = 0;
    } else if (!applied) {
      printf("  not applied by mlir-opt-16: %s -> %s\n", a, b);
      missed++;
    } else {
      if (applied > 0) applied_n++;
      else {
        printf("  folded by mlir-opt-16's own folders before the pattern could apply: %s -> %s\n", a, b);
        folded_n++;
      }
      if (!agree(&orig.outputs[0], &rew.outputs[0], rtol)) {
        printf("  the values differ after the pass: %s -> %s\n", a, b);
        agreed = 0;
      }
    }
    if (!rc0) emit_tensor_free(&orig.outputs[0]);
    if (!rc0 && !rc1) emit_tensor_free(&rew.outputs[0]);
    free(pdll);
  }
  CHECKF(!missed, "%s: every printed pattern is applied by mlir-opt-16 (%d missed)", dialect, missed);
  CHECKF(ran, "%s: every rule's module runs before and after the pass", dialect);
  CHECKF(agreed, "%s: every applied rule computes the values of the original", dialect);
  printf("  %s %s: %d patterns: mlir-opt-16 applied %d, its folders took %d; %d rules are no PDL "
         "pattern (listed above)\n", dialect, inputs, tried, applied_n, folded_n, nopat);
  total_applied += applied_n;
  for (int i = 0; i < rs.nargs; i++) ir_free(in[i].data);
  ir_free(in);
  ir_free(sizes);
  rw_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

int main(void) {
  if (!emit_mlir_tools_available() || !ir_have_program("mlir-pdll-16")) {
    CHECK("mlir-opt-16, mlir-cpu-runner-16 and mlir-pdll-16 are installed", 0);
    return TEST_REPORT();
  }
  long live = ir_mem_live();
  run("tosa", "x:f32[n],y:f32[n]", 2);
  run("linalg", "x:f64[n],y:f64[n]", 1);
  CHECKF(total_applied > 0, "mlir-opt-16 applied %d patterns", total_applied);
  CHECKF(ir_mem_live() == live, "no leaks (%ld live)", ir_mem_live() - live);
  return TEST_REPORT();
}
