/*
 * internal.h - private to enumerator/: the search over one task's examples.
 */
#ifndef UPLIFT_ENUM_INTERNAL_H
#define UPLIFT_ENUM_INTERNAL_H

#include "enumerator/enumerator.h"

#define ES_MAX_EX 24    /* examples (grows with counterexamples) */
#define ES_MAX_TYPES 96 /* distinct types in one search */
#define ES_MAX_PRODS 512 /* productions of one op per operand types */
#define ES_MAX_GOALS 24

/* The examples of a search: size assignments and, per leaf, its values. */
typedef struct es_examples {
  int n;
  long *sizes[ES_MAX_EX]; /* by var id, kernel->nvars entries (arena) */
  /* compare the signs of zeros on this example: it is a counterexample
   * that told a candidate apart by the sign of a zero only; elsewhere a
   * proof may rely on the zero-sign assumption (docs/verify.md) */
  unsigned char zero_sign[ES_MAX_EX];
} es_examples;

/* A leaf of the search: an argument, a constant, a mask or a solved
 * sub-goal; values[e] for each example (tensor in the leaf node's type). */
typedef struct es_leaf {
  const ir_tnode *node;
  ir_tensor values[ES_MAX_EX];
} es_leaf;

/* A goal: expected values on every example, compared where cmp is set. */
typedef struct es_goal {
  ir_type type;
  ir_tensor expect[ES_MAX_EX];
  unsigned char *cmp[ES_MAX_EX]; /* per element: compare it (arena) */
  double rtol;
  int is_main;
  int id;                         /* sub-goal number (-1: main) */
  const char *what;               /* for people: "reduction of S3" */
  const ir_tnode *solution;       /* set by the search */
  int solved_level;
} es_goal;

typedef struct es_search_in {
  const ir_kernel *kernel;
  const gram_dialect *dialect;
  const gram_op **ops;   /* allowed ops */
  int nops;
  es_examples *ex;
  es_leaf *leaves;
  int nleaves;
  es_goal *goals;
  int ngoals;
  int max_ops;
  /* unit-dim reshapes cost no level (view_pass in search.c): max_ops and
   * the levels count the other ops */
  int free_views;
  double deadline;       /* absolute time (es_now) */
  long memory_bytes;
  long max_elements;     /* stop (ES_LIMIT) once stats->elements passes it
                            (checked per batch; 0: no such cap) */
  int progress;
  int threads;           /* evaluation threads (results do not depend on it) */
  int task;
  unsigned elems;        /* element types the task's conversions involve
                            (bit 1 << ir_elem): proposed as convert targets */
  ir_tp_store *store;
  /* Programs never to store (a raise's candidates whose verification was
   * unknown), so that another program with the same values takes their
   * place in the observational classes. */
  const ir_tnode *const *blocked;
  int nblocked;
  /* Optional observers (explore, rewrites; NULL in a raise).  on_keep: a
   * candidate was stored (a new observable function).  on_equal: a
   * candidate of `level` ops was dropped because stored candidate `rep`
   * has the same values (its node is built only when this hook is set).
   * on_level: every candidate of `level` ops was tried; stats so far. */
  void (*on_keep)(void *user, const ir_tnode *node, int level);
  void (*on_equal)(void *user, const ir_tnode *node, int level, const ir_tnode *rep);
  void (*on_level)(void *user, int level, const enum_stats *stats);
  void *hook_user;
} es_search_in;

typedef enum es_outcome {
  ES_FOUND_MAIN,   /* the main goal has a solution */
  ES_FOUND_SUB,    /* new sub-goals were solved: restart with them as leaves */
  ES_EXHAUSTED,    /* every program up to max_ops was tried */
  ES_LIMIT,        /* as ES_EXHAUSTED, but a table limit (ES_MAX_TYPES
                      value types, ES_MAX_PRODS productions per operand types,
                      ES_MAX_TYPES target types) left candidates out */
  ES_TIMEOUT,
  ES_MEMORY,
  ES_WORK          /* the command's work budget (--work, ir_work_over) */
} es_outcome;

/* Search bottom-up; stats accumulate. */
es_outcome es_search(const es_search_in *in, enum_stats *stats);

double es_now(void);

/* The relative tolerance a candidate's values must meet against a goal
 * of kernel k: 0 when the kernel's arithmetic is exact, else the kernel's
 * rounding tolerance (interp_kernel_tolerance), at least 1e-9. */
double es_goal_rtol(const ir_kernel *k);

#endif
