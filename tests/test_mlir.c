/* test_mlir.c - MLIR emission against upstream MLIR 16.
 *
 * For every op of every shipped dialect, operand types are drawn from a
 * pool of symbolic types (and proposed targets from the same pool), the
 * generator's productions are collected, and a few of them (spread over
 * the list, deterministically) become one-op functions:
 *   - hlo: the module must parse with mlir-opt-16 --allow-unregistered-dialect;
 *   - linalg, tosa: the module must pass mlir-opt-16's verifier, and each
 *     function is run through the lowering pipeline and mlir-cpu-runner-16 on
 *     seeded random integer-valued inputs and compared with our kernel.
 * All functions of a dialect go into one module per tool call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "grammar/grammar.h"
#include "tests/harness.h"

enum { M = 0, N = 1, K = 2, B = 3, NSYMS = 4 };
static const long sizes[NSYMS] = {3, 4, 5, 2};
#define O IR_DIM_ONE

static const int pool_dims[][5] = {
    /* rank, dims */
    {0}, {1, M}, {1, N}, {1, K}, {1, O},
    {2, M, N}, {2, N, M}, {2, M, K}, {2, K, N}, {2, O, N}, {2, M, O}, {2, N, N},
    {3, B, M, K}, {3, B, K, N}, {3, M, N, K}, {3, O, M, N}};
#define NPOOL (int)(sizeof pool_dims / sizeof pool_dims[0])

static ir_type pool_type(int i, ir_elem e) {
  ir_type t = {e, pool_dims[i][0], {0}};
  for (int k = 0; k < t.rank; k++) t.dims[k] = pool_dims[i][k + 1];
  return t;
}

#define PER_OP 4
#define MAX_FUNCS 256

typedef struct chosen {
  gram_prod prod;
  ir_type ops[IR_TP_MAX_OPERANDS];
} chosen;

/* Collect the productions of op over the pool; choose up to PER_OP spread
 * over the list.  Returns the number chosen. */
static int choose(const gram_op *op, ir_elem fe, chosen *out) {
  static chosen all[4096];
  int n = 0;
  ir_elem elems[2] = {fe, IR_I1};
  int combos = 1;
  for (int i = 0; i < op->nops; i++) combos *= NPOOL * 2;
  for (int c = 0; c < combos; c++) {
    ir_type ops[IR_TP_MAX_OPERANDS];
    int x = c;
    for (int i = 0; i < op->nops; i++) {
      ops[i] = pool_type(x % NPOOL, elems[(x / NPOOL) % 2]);
      x /= NPOOL * 2;
    }
    for (int t = 0; t < (gram_op_needs_target(op) ? NPOOL : 1); t++) {
      ir_type target = pool_type(t, fe);
      gram_prod ps[64];
      int np = gram_productions(op, ops, gram_op_needs_target(op) ? &target : NULL, ps, 64, NULL);
      if (np > 64) np = 64;
      for (int k = 0; k < np && n < 4096; k++) {
        all[n].prod = ps[k];
        memcpy(all[n].ops, ops, sizeof ops);
        n++;
      }
    }
  }
  if (n == 0) return 0;
  int want = n < PER_OP ? n : PER_OP;
  for (int i = 0; i < want; i++) out[i] = all[(long)i * n / want + (n / want) / 2];
  return want;
}

/* A one-op program over arguments of the chosen operand types. */
static ir_tprog one_op(ir_tp_store *s, const chosen *c) {
  ir_tprog p;
  memset(&p, 0, sizeof p);
  const gram_op *op = c->prod.op;
  const ir_tnode *args[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < op->nops; i++) {
    args[i] = ir_tp_arg(s, i, op->opnames[i], &c->ops[i]);
    p.args[p.nargs++] = args[i];
  }
  p.results[0] = ir_tp_op(s, &op->desc, c->prod.attrs, args, op->nops, &c->prod.result);
  p.nresults = 1;
  return p;
}

static void test_dialect(const char *name, ir_elem fe, int registered, ir_arena *a) {
  gram_dialect *d = gram_load(name, a);
  CHECKF(d != NULL, "%s loads", name);
  if (!d) return;
  ir_tp_store s;
  ir_tp_store_init(&s, a);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int nfuncs = 0;
  for (int i = 0; i < d->nops; i++) {
    chosen cs[PER_OP];
    int n = choose(d->ops[i], fe, cs);
    CHECKF(n > 0, "%s.%s: the pool yields productions", name, d->ops[i]->name);
    for (int k = 0; k < n; k++) {
      ir_tprog p = one_op(&s, &cs[k]);
      char fname[64];
      snprintf(fname, sizeof fname, "%s_%d", d->ops[i]->name, k);
      emit_opts o = {fname, sizes, NSYMS, 0};
      CHECKF(emit_mlir_func(d, &p, &o, f) == 0, "%s: emits", fname);
      nfuncs++;
    }
  }
  fclose(f);
  char err[4096];
  int rc = emit_mlir_check(text, !registered, err, sizeof err);
  CHECKF(rc == 0, "%s: %d one-op functions pass mlir-opt-16%s:\n%s", name, nfuncs,
         registered ? "" : " --allow-unregistered-dialect", err);
  if (rc) fprintf(stderr, "%s\n", text);
  free(text);
  ir_tp_store_free(&s);
}

int main(void) {
  if (system("command -v mlir-opt-16 >/dev/null 2>&1")) {
    printf("mlir-opt-16 missing: skipped\n");
    return TEST_REPORT();
  }
  ir_arena a;
  ir_arena_init(&a);
  test_dialect("hlo", IR_F64, 0, &a);
  test_dialect("linalg", IR_F64, 1, &a);
  test_dialect("tosa", IR_F32, 1, &a);
  ir_arena_free(&a);
  CHECK("no leaks", ir_mem_live() == 0);
  return TEST_REPORT();
}
