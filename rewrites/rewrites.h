/*
 * rewrites.h - verified rewrite rules mined from a dialect, the way rule
 * synthesizers such as Ruler do (`uplift rewrites`; docs/architecture.md).
 *
 * rw_mine enumerates the dialect's programs over the --inputs leaves
 * (enum_explore); every candidate dropped because a stored one has the same
 * values on all examples gives a proposed rule `dropped -> stored` (kept
 * when the stored one is strictly smaller).  Rules are taken smallest and
 * most general first; a rule is dropped as derivable when its two sides end
 * in one e-class of an e-graph saturated with the rules accepted so far
 * (rw_derivable, egraph.c).  The others are
 * checked with Z3 in real mode (accepted when proved) and then fp mode (its
 * verdict is reported); the rest are refuted (the interpreter confirms a
 * difference) or unknown.  The PDLL writer of the rules is emit_pdll.
 */
#ifndef UPLIFT_REWRITES_H
#define UPLIFT_REWRITES_H

#include "pipeline/pipeline.h"

/* the inputs and size symbols of a rule set, at most */
#define RW_MAXSYM 64

typedef struct rw_rule {
  const ir_tnode *lhs, *rhs;
  int real, fp;    /* verify_verdict of each mode */
  const char *why; /* reason of a real-mode failure (arena) or NULL */
  const char *fp_why; /* the verifier's reason when fp mode did not prove
                         the rule (arena) or NULL */
  const char *ieee;   /* when a mode did not prove it: the rule run in
                         IEEE arithmetic on probe inputs (specials
                         included), "IEEE differs: INPUTS: element E, lhs
                         V, rhs W" or "IEEE agrees ..." (arena) or NULL */
} rw_rule;

typedef struct rw_rules {
  ir_kernel *k; /* the synthetic kernel of --inputs, with the pattern
                   variables (below) as inputs after them */
  const ir_tnode *args[RW_MAXSYM];
  int nargs;    /* args: the --inputs, then the pattern variables */
  int ninputs;  /* of them the --inputs (the enumeration's leaves): a
                   pattern variable `_N` is an input of its own type that
                   the enumeration does not use, which a rule generalizes
                   a subterm to when no input has the subterm's type */
  const gram_dialect *d;
  int n;
  rw_rule *rules; /* accepted (proved) rules, smallest first */
  int nrefuted;
  rw_rule *refuted;       /* refuted in real mode, and the interpreter
                             confirms it: its IEEE run of the sides on the
                             probe inputs differs (ieee says where) */
  int nunknown;
  rw_rule *unknown;       /* neither: the solver ran out of steps, its
                             refutation is not confirmed, or the rule was
                             not checked (the budget ran out); proposal
                             order, so a fixed order */
  long proposed, implied; /* candidate rules; dropped as implied (or
                             vacuous: lhs divides by zero) */
  long generalized;       /* of the implied: instances of a more general
                             rule accepted in their place */
  long folds;             /* ground folds proved (rewrites.c,
                             fold_ground): ground rules derive from them */
  int ntried;
  int shrunk;             /* accepted, then dropped: the rules accepted
                             after them derive them (rewrites.c, shrink) */
  rw_rule *tried;         /* the generalizations checked (rewrites.c) */
  int complete;           /* the enumeration was not cut short */
  int unjudged;           /* proposed rules not checked: the budget ran out
                             (also listed in unknown) */
  int limited;            /* ... by a table limit (enum_limit_text), not
                             by the time or memory budget */
  int old_n;              /* with rw_opts.derive_old: the rules the
                             normal-form miner accepts (-1: not computed) */
  int old_derivable;      /* ... and how many of them end in one e-class
                             with these rules (rw_derivable) */
} rw_rules;

typedef struct rw_opts {
  const char *dialect, *inputs;
  enum_options search; /* max_ops: the largest left-hand side */
  int bound;           /* verify at sizes 1..bound (0: 2) */
  double smt_timeout;  /* wall-clock seconds per solver query (0: the
                        * default VERIFY_DEFAULT_TIMEOUT) */
  long smt_steps;      /* Z3 steps per solver query (--smt-steps): 0 the
                        * default VERIFY_DEFAULT_STEPS, -1 no limit */
  int fp;              /* also check fp mode */
  int derive_old;      /* also mine the normal-form set and check that
                        * every rule of it is derivable (old_n) */
  /* optional: called before proposed rule i of n is judged (progress) */
  void (*on_rule)(void *user, int i, int n);
  void *user;
} rw_opts;

/* The defaults of `uplift rewrites`: verify at sizes 1..2, fp mode too,
 * left-hand sides of at most 2 ops, the search's defaults but no
 * wall-clock budget (every proposed rule is judged, each solver query
 * under its step limit, so the rules do not depend on the machine's speed
 * or load). */
void rw_default_options(rw_opts *o);

/* Mine the rules of o.  Everything lives in arena/store, except the rule
 * arrays of out (ir_malloc'd, freed by rw_rules_free, also after an
 * error).  Returns PIPE_OK; PIPE_ERR_INPUTS or PIPE_ERR_ELEM with err
 * filled (its position: the column in o->inputs, when there is one);
 * PIPE_ERR_DIALECT (gram_load printed why); PIPE_ERR_INTERNAL or
 * PIPE_ERR_SOLVER with err filled. */
pipe_error rw_mine(const rw_opts *o, ir_arena *arena, ir_tp_store *store, rw_rules *out,
                   ir_error *err);

/* The normal form of n under rules[0..nr-1] (bounded rewriting; argument
 * leaves of the rules are pattern variables that match any term of their
 * element type and rank, renaming size symbols consistently).  New nodes
 * go to store. */
const ir_tnode *rw_normalize(ir_tp_store *store, const rw_rule *rules, int nr,
                             const ir_tnode *n);

void rw_rules_free(rw_rules *r);

/* ------------------------------------------------------------ e-graph
 * An e-graph with equality saturation (egraph.c): terms of the store as
 * e-nodes, classes in a union-find, hash-consed canonical nodes,
 * congruence closure on rebuild, rules applied by matching their left
 * side (argument leaves are pattern variables, as for rw_normalize).  All
 * limits are counts (nodes, iterations), not times. */
#define RW_EGRAPH_NODES 4096 /* node limit of one derivability check */
#define RW_EGRAPH_ITERS 16   /* saturation iterations of one check */

typedef struct rw_egraph rw_egraph;

/* Ground folding, as an e-class analysis: fn(user, t) for a ground term t
 * (no argument leaf) gives a term equal to it, a constant or another
 * ground term, which the e-graph merges into t's class, or NULL.
 * rw_mine's folder evaluates t and proves each fold with Z3 (rewrites.c,
 * fold_ground). */
typedef struct rw_folder {
  const ir_tnode *(*fn)(void *user, const ir_tnode *t);
  void *user;
} rw_folder;

/* A new empty e-graph over store (constants of rule right sides are made
 * there); owned by the caller, freed with rw_egraph_free.  Saturation
 * stops once more than node_limit nodes exist. */
rw_egraph *rw_egraph_new(ir_tp_store *store, long node_limit);
/* Fold constants with f (NULL: none) in later saturations. */
void rw_egraph_set_folder(rw_egraph *g, const rw_folder *f);
void rw_egraph_free(rw_egraph *g);
/* Add term t (and its subterms); returns its class. */
int rw_egraph_add(rw_egraph *g, const ir_tnode *t);
/* The root of class c. */
int rw_egraph_find(rw_egraph *g, int c);
/* Merge the classes of a and b; 1 if they were different.  Call
 * rw_egraph_rebuild before matching or comparing further. */
int rw_egraph_union(rw_egraph *g, int a, int b);
/* Restore congruence (equal nodes are one node, so their classes merge);
 * returns 1 if classes merged. */
int rw_egraph_rebuild(rw_egraph *g);
/* Nodes made so far. */
long rw_egraph_size(const rw_egraph *g);
/* Apply rules[0..nr-1] (left to right) until nothing changes, classes
 * goal_a and goal_b meet (goal_a < 0: no goal), max_iters iterations or the
 * node limit.  Returns 0 when saturated or the goal met, 1 at a limit. */
int rw_egraph_saturate(rw_egraph *g, const rw_rule *rules, int nr, int max_iters, int goal_a,
                       int goal_b);
/* A rule over an attribute variable (`compare[dir=$0](...)`, an ir_attr
 * with n = -1) stands for one rule per value of that enum attribute:
 * how many (1 for a rule without one), and the i-th (the rule itself
 * for a rule without one). */
int rw_rule_ninstances(const rw_rule *r);
rw_rule rw_rule_instance(ir_tp_store *st, const rw_rule *r, int i);

/* Do a and b end in one class after saturating an e-graph of the two with
 * rules[0..nr-1] and the constant folder fold (NULL: none;
 * RW_EGRAPH_NODES, RW_EGRAPH_ITERS)?  The rules are applied left to
 * right, and with both right to left too (each is an equality), where a
 * rule's rhs is an op that binds every variable of its lhs (after a
 * saturation left to right only). */
int rw_derivable(ir_tp_store *store, const rw_rule *rules, int nr, const ir_tnode *a,
                 const ir_tnode *b, const rw_folder *fold, int both);

#endif
