/*
 * enumerator.h - the bottom-up enumerator (docs/enumerator.md) and the
 * driver that raises a whole kernel task by task.
 *
 * For each task of the polyhedral analysis and each array it outputs, the
 * enumerator builds examples with the interpreter (several size
 * assignments, several seeded input sets, every task input random), plus
 * sub-goals read off the source statement's expression tree (the reduction
 * part of `X += sum ...`, each term of a sum, each factor of a product),
 * and searches the dialect's typed productions smallest program first,
 * dropping candidates whose values on every example equal a stored one's
 * (observational equivalence).  Solved sub-goals become leaves of the next
 * round.  A candidate that matches the output is checked on fresh examples
 * and handed to the verification callback; a counterexample becomes an
 * example and the search resumes.
 *
 * Ownership: every node of the results lives in the caller's ir_tp_store
 * (and its arena); enum_result arrays live in the caller's arena.
 */
#ifndef UPLIFT_ENUMERATOR_H
#define UPLIFT_ENUMERATOR_H

#include <stdint.h>

#include "grammar/grammar.h"
#include "interp/interp.h"
#include "interp/ops.h"
#include "ir/ir.h"
#include "ir/tprog.h"
#include "polyhedral/polyhedral.h"

typedef struct enum_options {
  int max_ops;       /* largest program size searched per goal (--max-ops) */
  double timeout;    /* seconds for the whole raise (--timeout; 0: none) */
  long memory_mb;    /* budget for stored candidate values (MiB) */
  long work;         /* work budget of the command in millions of result
                        elements computed (--work; 0: none): a count, so
                        its end does not depend on the machine */
  int threads;       /* evaluation threads (--threads); results identical */
  uint64_t seed;     /* --seed */
  int progress;      /* print a progress line on stderr */
} enum_options;

/* Defaults: max_ops 6, timeout 120 s, memory 4096 MiB, threads = cores,
 * seed 1, no progress. */
void enum_default_options(enum_options *o);

/* The statistics of one task (the mlirSynth paper's Table II). */
typedef struct enum_stats {
  long enumerated;           /* candidate programs formed */
  long static_filtered;      /* rejected by the grammar's type check */
  long evaluated;            /* run on the examples */
  long equivalence_filtered; /* dropped: same values as a stored one */
  long elements;             /* result elements computed, over all examples
                                (the work the candidates took) */
  int ops;                   /* ops of the final program (0 if none) */
  double seconds;            /* synthesis time */
} enum_stats;

typedef enum enum_verdict {
  ENUM_SKIPPED,  /* no verification asked */
  ENUM_PROVED,
  ENUM_REFUTED,
  ENUM_UNKNOWN
} enum_verdict;
const char *enum_verdict_name(enum_verdict v); /* "proved", ... */

/* What a search hands to the verification callback: the task, the
 * program's argument leaves (one per input variable, in `in_vars` order)
 * and the candidate for output variable `out_var` (the complete value of
 * the array, old values kept outside the written region). */
typedef struct enum_query {
  const ir_kernel *kernel;       /* the analysed kernel */
  const poly_analysis *analysis;
  int task;                      /* index in analysis->tasks */
  const unsigned char *mask;     /* assignment mask of the task (+ prelude) */
  int nin;
  const int *in_vars;            /* var ids of the inputs */
  const ir_tnode *const *in_args; /* their argument leaves */
  int out_var;
  const ir_tnode *cand;
  const gram_dialect *dialect;
  int show_avoidable; /* on a proof with an avoidable assumption, also hand
                       * out (has_cex) an input where the candidate differs
                       * without it, when the verifier finds one */
} enum_query;

/* A counterexample: sizes (by var id, kernel->nvars entries) and a value
 * tensor per input of the query (in in_vars order), owned by the verifier
 * until the callback returns (the enumerator copies it). */
typedef struct enum_cex {
  long *sizes;
  ir_tensor *inputs;
  int zero_sign; /* the difference is the sign of a zero only */
} enum_cex;

typedef struct enum_verify_result {
  enum_verdict verdict;
  const char *mode;   /* "real", "fp", "none" (static string) */
  int bound;
  double seconds;
  unsigned long steps; /* the solver's step limit per query (--smt-steps;
                        * 0: none) */
  unsigned long steps_used; /* the most steps one of its queries took */
  long size_cases;     /* size assignments checked */
  long cases_left_out; /* size cases not checked (then not proved) */
  unsigned assumes;    /* what a proof relies on: VERIFY_ASSUMES_* bits
                        * (verify/verify.h names them) */
  int avoidable;       /* set by the callback on a proof: it relies on an
                        * assumption another program may do without
                        * (masked_zero_times_finite, inputs without NaN or
                        * -0); the search keeps the candidate as its
                        * fallback answer and looks on, among programs of
                        * at most avoidable ops more than it */
  int alt_max_ops;     /* set by the search when it answers such a proof:
                        * no candidate of at most this many ops was proved
                        * without the assumption (0: none was searched for,
                        * no input where the assumption matters was found) */
  int alt_complete;    /* ... and every candidate up to alt_max_ops was tried
                        * (0: the search's work cap or a budget cut it short) */
  char differs[320];   /* set by the callback with show_avoidable: where the
                        * candidate differs without the assumption ("" if
                        * no such input was found) */
  int all_sizes;       /* proved for every size assignment too */
  char all_sizes_reason[400]; /* why not (any verdict), for JSON reports */
  char reason[320];    /* why not proved (unknown, refuted), in the
                        * verifier's words; "" when proved */
  int has_cex;
  enum_cex cex;
} enum_verify_result;

/* The callback: fill r (r->cex stays valid until the next call). */
typedef void (*enum_verify_fn)(void *user, const enum_query *q,
                               enum_verify_result *r);

/* The result for one output array of one task. */
typedef struct enum_output {
  int var;                    /* the written variable */
  const ir_tnode *program;    /* its new value over the task's arguments,
                                 NULL if not found */
  enum_stats stats;
  enum_verify_result verify;
} enum_output;

typedef struct enum_task_result {
  int task;
  int nin;
  int *in_vars;
  const ir_tnode **in_args;
  int noutputs;
  enum_output *outputs;
} enum_task_result;

typedef struct enum_result {
  int raised;                 /* every output of every task found (and not
                                 refuted) */
  const char *reason;         /* why not, when raised == 0 */
  double seconds;
  int ntasks;
  enum_task_result *tasks;
  ir_tprog prog;              /* the whole kernel: arguments = the kernel's
                                 array and scalar parameters, results = the
                                 arrays it writes (valid when raised) */
  int result_vars[IR_TP_MAX_RESULTS];
  /* the part of a sequence that runs after this one (pipeline/kept.c,
   * pipe_split), on the variables as this one leaves them; NULL: none */
  const struct enum_result *then;
  /* a kept loop whose body is itself a sequence of items (pipeline/kept.c,
   * nested kept loops): prog.loop is the loop, prog has no nodes and its
   * results are those of the items; body is the chain (then) of the items,
   * run in order once per iteration with the loop's iterator a size of
   * each; NULL: none */
  const struct enum_result *body;
} enum_result;

/* Raise the analysed kernel a->kernel to dialect d.  vf may be NULL (no
 * verification).  Returns 0 when raised, 1 when not (res->reason says
 * why: budget, not raisable, unsupported), -1 on an internal error. */
int enum_raise(const poly_analysis *a, const gram_dialect *d,
               const enum_options *o, enum_verify_fn vf, void *vuser,
               ir_tp_store *store, ir_arena *arena, enum_result *res);

/* ----------------------------------------------------------- observing
 * What the searches report while they run, for a driver's progress display
 * and per-task lines (uplift raise, explore).  One observer for the whole
 * process, set by the driver around a raise: enum_raise takes no hook of
 * its own, and every search it runs reports here.  Both hooks are called
 * from the thread that called enum_raise (or enum_explore); either may be
 * NULL.  search_begins: a search for task `task` (enum_raise's task index;
 * 0 in enum_explore) starts; every task of enum_raise runs at least one
 * search, in task order, so task t is done when a search of a later task
 * begins.  progress: with enum_options.progress, about twice a second
 * during a search (stored: candidates kept so far; rate: candidates
 * evaluated per second since the last call). */
typedef struct enum_observer {
  void (*search_begins)(void *user, int task);
  void (*progress)(void *user, int task, long stored, double rate);
  void *user;
} enum_observer;

/* Report to ob (copied; NULL: nobody) from now on.  Without an observer's
 * progress hook, enum_options.progress prints a line of its own. */
void enum_set_observer(const enum_observer *ob);

/* ------------------------------------------------------------ explore */

/* What enum_explore reports while it searches (any hook may be NULL).
 * keep: node is a new observable function of `level` ops (level 0: a leaf).
 * equal: node (of `level` ops) computes the same values as the stored rep
 * on every example, so it is dropped.  level_done: every program of
 * `level` ops was tried; stats are cumulative. */
typedef struct enum_explore_hooks {
  void (*keep)(void *user, const ir_tnode *node, int level);
  void (*equal)(void *user, const ir_tnode *node, int level, const ir_tnode *rep);
  void (*level_done)(void *user, int level, const enum_stats *stats);
  void *user;
} enum_explore_hooks;

/* Enumerate every observationally distinct program of at most o->max_ops
 * ops of dialect d (every op allowed) over the argument leaves args[0..nargs-1]
 * (IR_TN_ARG nodes whose arg numbers are var ids of k, a kernel that only
 * needs IR_VAR_SIZE variables for the dims and a variable per argument) and
 * the rank-0 constants 0 and 1 of k->data_type.  Examples: random integer
 * inputs (seed o->seed) at two distinct small size assignments, four input
 * sets each.  Results do not depend on o->threads.  Nodes live in store.
 * Returns the search outcome: 0 exhausted, 1 time or memory budget hit,
 * ENUM_EXPLORE_LIMIT every program was tried but a table limit of the
 * search (enum_limit_text) left candidates out, -1 internal error (too
 * many examples or types). */
#define ENUM_EXPLORE_LIMIT 2
int enum_explore(const ir_kernel *k, const gram_dialect *d, const ir_tnode *const *args,
                 int nargs, const enum_options *o, const enum_explore_hooks *h,
                 ir_tp_store *store, enum_stats *stats);

/* The search's table limits, for a report that one left candidates out
 * (enum_explore's ENUM_EXPLORE_LIMIT, enum_raise's reason). */
const char *enum_limit_text(void);

/* The size assignment number `which` (0 or 1) enum_explore uses: distinct
 * small values for the size variables of k (sizes by var id). */
void enum_explore_sizes(const ir_kernel *k, int which, long *sizes);

/* Evaluate a tensor program node on concrete argument values: args[i] is
 * the value of argument leaf number i (ir_tnode.arg); sizes gives each size
 * symbol's value (by var id).  The result is ir_malloc'd (free with
 * interp_tensor_free).  Returns 0, or -1 with err filled (a failed op
 * precondition). */
int enum_eval_node(const ir_tnode *n, const ir_tensor *args, int nargs,
                   const long *sizes, ir_tensor *out, ir_error *err);

/* The same over symbolic values (the verifier's): argument leaf v takes
 * inputs[i] where in_vars[i] == v.  out is ir_malloc'd
 * (interp_sym_tensor_free). */
int enum_eval_node_sym(const ir_tnode *n, const int *in_vars,
                       const interp_sym_tensor *inputs, int nin, const long *sizes,
                       const interp_sym_algebra *alg, interp_sym_tensor *out,
                       ir_error *err);

/* The symbolic type of variable v of k as the enumerator types its
 * argument leaves: dims must each be one size parameter or 1.  Returns 0,
 * or -1 when a dim is another expression. */
int enum_var_type(const ir_kernel *k, int v, ir_type *t);

#endif
