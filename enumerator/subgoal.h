/*
 * subgoal.h - private to enumerator/: sub-goals read off the source
 * statement's expression tree (docs/enumerator.md), constant leaves and
 * the op hints.
 */
#ifndef UPLIFT_ENUM_SUBGOAL_H
#define UPLIFT_ENUM_SUBGOAL_H

#include "enumerator/internal.h"

#define SG_MAX 16

typedef struct sg_goal {
  int var;                 /* the array whose shape the sub-goal has; -1:
                              a value-space goal, offered for every output */
  int nidx;                /* var < 0: the goal's elements are indexed by */
  int idx[IR_MAX_RANK];    /* these iterators (var ids), in this order */
  ir_type type;            /* the sub-goal's type */
  int zero_outside;        /* points the loops do not reach are 0, not
                              undefined (a factor of a sum over a domain
                              smaller than its box: zeros add nothing) */
  const ir_stmt *stmt;
  const ir_expr *expr;     /* evaluated at every iteration point */
  int nred;                /* summed over these iterators (0: assigned) */
  int red[IR_MAX_RANK + 2];
  double sign;
  double fold_from;        /* a running maximum or minimum (nred > 0):
                              NaN for a sum; else expr is the statement's
                              whole right side, folded in loop order from
                              this start (-inf or +inf) with the written
                              element standing for the value so far */
  const char *what;
  int solved;
  ir_tensor vals[ES_MAX_EX];
} sg_goal;

typedef struct sg_set {
  const poly_analysis *a;
  const ir_kernel *k;
  const poly_task *pt;
  int maxrank;             /* the largest rank of the task's arrays: no
                              loop sub-goal has a higher one */
  int n;
  sg_goal goals[SG_MAX];
  const ir_stmt *loops[SG_MAX][16];
  int depth[SG_MAX];
  double rtol;             /* the task's comparison tolerance (below its
                              smallest nonzero constant) */
  int empty_sums_zero;     /* sg_run: a sum whose reduction loop has no
                              iteration is 0 (the empty sum), not undefined;
                              for the examples that show a masked-zero
                              assumption (raise.c) */
} sg_set;

/* Find the sub-goals of task pt of analysis a: those read off the
 * statement of a single-statement task whose written element is indexed by
 * distinct iterators, and, for every sum reduction of the task, tensors
 * over its loops: the sum at each point of its value space (poly_stmt) when
 * that is not the written array's shape, and the summand, its terms and
 * its factors at each point of the loop nest (dims ordered like the
 * subscripts of an array the summand reads with every iterator, else like
 * the loops). */
void sg_init(sg_set *s, const poly_analysis *a, const poly_task *pt, ir_arena *arena);
void sg_free(sg_set *s);

/* Compute every sub-goal's values on example e from the values before the
 * task (env holds them; mask unused but for symmetry).  Returns 0 or -1. */
int sg_run(sg_set *s, interp_env *env, const unsigned char *mask, int e,
           ir_error *err);

/* Write the unsolved sub-goals of output var into goals (at most cap);
 * those whose expected values equal an extra leaf's are marked solved by
 * the caller through goals[i].id.  Returns the count. */
int sg_goals(sg_set *s, int var, int nex, es_goal *goals, int cap,
             const ir_tnode *const *extra, int nextra, ir_arena *arena);
void sg_mark_solved(sg_set *s, int id);

/* Constant leaves: 0, 1, the literals of the task's statements and the
 * values of the local constants it reads (each once), as splat tensors of
 * type t (NULL: rank-0 of the kernel's data type), the first cap of them
 * into out (sg_constant_count: how many there are).  Returns the count
 * written. */
int sg_constant_leaves(const sg_set *s, ir_tp_store *store, const ir_kernel *k,
                       const ir_type *t, const ir_tnode **out, int cap);

/* How many constant leaves sg_constant_leaves has for the task. */
int sg_constant_count(const sg_set *s, const ir_kernel *k);

/* A hint beside the POLY_OP_* bits: a product without a sum may still be
 * a dot_general, an outer product (an input, not a scalar, has fewer dims
 * than the output) or a masked contraction (an input of more dims than
 * the output, or a matrix). */
#define SG_HINT_OUTER (1u << POLY_OP_NBITS)

/* Is an op with this semantic kernel worth trying for a task with these
 * POLY_OP_* hints (and SG_HINT_OUTER)? */
int sg_kernel_allowed(const char *kernel, unsigned hints);

#endif
