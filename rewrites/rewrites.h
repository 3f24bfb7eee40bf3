/*
 * rewrites.h - verified rewrite rules mined from a dialect, the way rule
 * synthesizers such as Ruler do (`uplift rewrites`; docs/architecture.md).
 *
 * rw_mine enumerates the dialect's programs over the --inputs leaves
 * (enum_explore); every candidate dropped because a stored one has the same
 * values on all examples gives a proposed rule `dropped -> stored` (kept
 * when the stored one is strictly smaller).  Rules are taken smallest
 * first; a rule is dropped as implied when rw_normalize with the rules
 * accepted so far rewrites both sides to the same term.  The others are
 * checked with Z3 in real mode (accepted when proved) and then fp mode (its
 * verdict is reported); the rest are refuted (the interpreter confirms a
 * difference) or unknown.  The PDLL writer of the rules is emit_pdll.
 */
#ifndef UPLIFT_REWRITES_H
#define UPLIFT_REWRITES_H

#include "pipeline/pipeline.h"

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
  ir_kernel *k; /* the synthetic kernel of --inputs */
  const ir_tnode *args[PIPE_MAX_INPUTS];
  int nargs;
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
  int complete;           /* the enumeration was not cut short */
  int unjudged;           /* proposed rules not checked: the budget ran out
                             (also listed in unknown) */
  int limited;            /* ... by a table limit (enum_limit_text), not
                             by the time or memory budget */
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
  /* optional: called before proposed rule i of n is judged (progress) */
  void (*on_rule)(void *user, int i, int n);
  void *user;
} rw_opts;

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


#endif
