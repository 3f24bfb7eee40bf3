/*
 * explore.c - the kernel-less search behind `uplift explore` and `uplift
 * rewrites`: every op of a dialect over given argument leaves and the
 * constants 0 and 1, on random integer-valued examples at two size
 * assignments, with no goal, so the search runs to max_ops and reports
 * each kept and each dropped (observationally equal) candidate through
 * hooks.
 */
#include <math.h>
#include <string.h>

#include "enumerator/internal.h"

void enum_explore_sizes(const ir_kernel *k, int which, long *sizes) {
  static const long base[2][6] = {{2, 3, 4, 5, 6, 7}, {3, 4, 2, 6, 5, 2}};
  int n = 0;
  for (int v = 0; v < k->nvars; v++) {
    sizes[v] = 0;
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = base[which & 1][n++ % 6];
  }
  ir_kernel_pin_extents(k, sizes);
}

typedef struct hook_fwd {
  const enum_explore_hooks *h;
} hook_fwd;

static void fwd_keep(void *u, const ir_tnode *n, int level) {
  const enum_explore_hooks *h = ((hook_fwd *)u)->h;
  if (h && h->keep) h->keep(h->user, n, level);
}

static void fwd_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  const enum_explore_hooks *h = ((hook_fwd *)u)->h;
  if (h && h->equal) h->equal(h->user, n, level, rep);
}

static void fwd_level(void *u, int level, const enum_stats *s) {
  const enum_explore_hooks *h = ((hook_fwd *)u)->h;
  if (h && h->level_done) h->level_done(h->user, level, s);
}

#define STR_(x) #x
#define STR(x) STR_(x)

const char *enum_limit_text(void) {
  return "more than " STR(ES_MAX_TYPES) " value types, or more than " STR(ES_MAX_PRODS)
         " productions of one op";
}

int enum_explore(const ir_kernel *k, const gram_dialect *d, const ir_tnode *const *args,
                 int nargs, const enum_options *o, const enum_explore_hooks *h,
                 ir_tp_store *store, enum_stats *stats) {
  memset(stats, 0, sizeof *stats);
  double start = es_now();
  ir_arena arena;
  ir_arena_init(&arena);
  es_examples ex;
  memset(&ex, 0, sizeof ex);
  ir_tensor **argv = ir_calloc(ES_MAX_EX, sizeof(ir_tensor *));
  int status = 0;
  /* examples: 2 size assignments x 4 input sets */
  for (int which = 0; which < 2; which++)
    for (int set = 0; set < 4; set++) {
      int e = ex.n++;
      ex.sizes[e] = IR_NEW_N(&arena, long, k->nvars + 1);
      enum_explore_sizes(k, which, ex.sizes[e]);
      argv[e] = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
      interp_rng rng;
      interp_rng_seed(&rng, o->seed * 1000003u + (uint64_t)(which * 4 + set) * 7919u + 17u);
      for (int i = 0; i < nargs; i++) {
        const ir_tnode *a = args[i];
        ir_tensor *t = &argv[e][a->arg];
        t->elem = a->type.elem;
        t->rank = a->type.rank;
        for (int dd = 0; dd < a->type.rank; dd++)
          t->dims[dd] = a->type.dims[dd] == IR_DIM_ONE ? 1 : ex.sizes[e][a->type.dims[dd]];
        size_t n = ir_tensor_size(t);
        t->data = ir_malloc((n ? n : 1) * sizeof(double));
        for (size_t j = 0; j < n; j++)
          t->data[j] = a->type.elem == IR_I1
                           ? (double)interp_rng_range(&rng, 0, 1)
                           : (double)interp_rng_range(&rng, INTERP_ARRAY_MIN, INTERP_ARRAY_MAX);
      }
    }
  /* leaves: the arguments, then 0 and 1 */
  const ir_tnode *lnodes[64];
  int nl = 0;
  for (int i = 0; i < nargs && nl < 60; i++) lnodes[nl++] = args[i];
  ir_type scalar = {k->data_type, 0, {0, 0, 0, 0}};
  lnodes[nl++] = ir_tp_const(store, 0, &scalar);
  lnodes[nl++] = ir_tp_const(store, 1, &scalar);
  es_leaf *leaves = ir_calloc((size_t)nl, sizeof(es_leaf));
  for (int i = 0; i < nl; i++) {
    leaves[i].node = lnodes[i];
    for (int e = 0; e < ex.n; e++) {
      ir_error err;
      if (enum_eval_node(lnodes[i], argv[e], k->nvars, ex.sizes[e], &leaves[i].values[e],
                         &err))
        status = -1;
    }
  }
  const gram_op **ops = ir_calloc((size_t)d->nops + 1, sizeof(gram_op *));
  for (int i = 0; i < d->nops; i++) ops[i] = d->ops[i];
  hook_fwd fw = {h};
  double left = ir_budget_left(o->timeout); /* 0: no time budget at all */
  if (!status) {
    es_search_in in = {
        .kernel = k, .dialect = d, .ops = ops, .nops = d->nops, .ex = &ex,
        .leaves = leaves, .nleaves = nl, .goals = NULL, .ngoals = 0,
        .max_ops = o->max_ops, .deadline = left > 0 ? start + left : HUGE_VAL,
        .memory_bytes = o->memory_mb * 1024 * 1024, .progress = o->progress,
        .threads = o->threads, .task = 0, .store = store,
        .on_keep = fwd_keep, .on_equal = fwd_equal, .on_level = fwd_level,
        .hook_user = &fw};
    es_outcome oc = es_search(&in, stats);
    status = oc == ES_EXHAUSTED ? 0 : oc == ES_LIMIT ? ENUM_EXPLORE_LIMIT : 1;
  }
  for (int i = 0; i < nl; i++)
    for (int e = 0; e < ex.n; e++) interp_tensor_free(&leaves[i].values[e]);
  ir_free(leaves);
  ir_free(ops);
  for (int e = 0; e < ex.n; e++) {
    for (int v = 0; v < k->nvars; v++) ir_free(argv[e][v].data);
    ir_free(argv[e]);
  }
  ir_free(argv);
  ir_arena_free(&arena);
  stats->seconds = es_now() - start;
  return status;
}
