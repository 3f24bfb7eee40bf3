/*
 * cli.h - the uplift driver: one function per command, each parsing its
 * own GNU-style options (getopt_long) and returning the exit status.
 */
#ifndef UPLIFT_CLI_H
#define UPLIFT_CLI_H

#include <getopt.h>

#include "frontend/frontend.h"
#include "ir/ir.h"

typedef struct cli_command {
  const char *name;
  int (*run)(int argc, char **argv); /* argv[0] is the command name */
  const char *summary;
} cli_command;

int cli_cmd_raise(int argc, char **argv);
int cli_cmd_analyze(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_dump(int argc, char **argv);
int cli_cmd_verify(int argc, char **argv);
int cli_cmd_explore(int argc, char **argv);
int cli_cmd_rewrites(int argc, char **argv);
int cli_cmd_dialects(int argc, char **argv);

/* Print "uplift CMD: MESSAGE" and "Try 'uplift CMD --help'." to stderr and
 * return IR_EXIT_BAD_INPUT. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse a decimal integer option value in [lo, hi]; on error report it as
 * a usage error and return -1 (the value is then unchanged). */
int cli_parse_long(const char *cmd, const char *opt, const char *text,
                   long lo, long hi, long *out);

/* ------------------------------------------- front-end options (shared)
 * The commands that read a C kernel (dump, run, analyze, raise) take the
 * same options: -I DIR, -D NAME[=VALUE], --function NAME.  Put
 * CLI_FE_SHORTOPTS into the getopt_long short-option string and
 * CLI_FE_LONGOPTS into the long-option table, and hand every option
 * character to cli_frontend_option first:
 *
 *   fe_options fe = {0};
 *   while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, 0)) != -1) {
 *     int r = cli_frontend_option("dump", c, optarg, &fe);
 *     if (r < 0) { cli_frontend_options_free(&fe); return IR_EXIT_BAD_INPUT; }
 *     if (r > 0) continue;
 *     ...
 *   }
 *   ... fe_parse_file(path, &fe, &arena) ...
 *   cli_frontend_options_free(&fe);
 */
#define CLI_FE_SHORTOPTS "I:D:"
#define CLI_FE_OPT_FUNCTION 0x1f0 /* getopt value of --function */
#define CLI_FE_LONGOPTS                                              \
  {"function", required_argument, NULL, CLI_FE_OPT_FUNCTION},        \
      {"include", required_argument, NULL, 'I'},                     \
      {"define", required_argument, NULL, 'D'}

/* The help lines describing the front-end options. */
extern const char cli_frontend_help[];

/* Record option c (from getopt_long, value arg) in opt if it is a
 * front-end option.  Returns 1 if it was one, 0 if not, -1 after reporting
 * a usage error (a -D that does not start with a C identifier).  The arrays
 * of opt are heap-allocated; arg strings are borrowed (argv). */
int cli_frontend_option(const char *cmd, int c, const char *arg, fe_options *opt);

/* Free the arrays cli_frontend_option allocated and clear opt. */
void cli_frontend_options_free(fe_options *opt);

/* ------------------------------------------- verification glue (shared)
 * verify_glue.c: what `uplift raise` and `uplift verify` (and the mutation
 * tests) share to check a task's program with verify/.  */

struct enum_query;
struct enum_verify_result;
struct poly_analysis;
struct ir_tp_store;
struct ir_tnode;
struct verify_ctx;
struct verify_result;

/* The state of the verification callback: the verifier (owned by whoever
 * made it) and the last result, whose counterexample is handed out until
 * the next call.  Zero it, set v, and call cli_verify_state_free at the end
 * (it frees the last result, not v). */
typedef struct cli_verify_state {
  struct verify_ctx *v;
  struct verify_result *last; /* ir_malloc'd; NULL before the first call */
  void *cex_inputs;           /* ir_tensor[64] for the handed-out cex */
} cli_verify_state;

/* The enumerator's verification callback (enum_verify_fn): check q->cand
 * for q->out_var against the task's statements (q->mask) with user's
 * verifier and fill r (verdict, mode, bound, seconds, a confirmed
 * counterexample over q's inputs).  user is a cli_verify_state. */
void cli_verify_cb(void *user, const struct enum_query *q,
                   struct enum_verify_result *r);
void cli_verify_state_free(cli_verify_state *vs);

/* The size cases of a task (statement mask over k) and a candidate (its
 * mask leaves): poly_size_cases_build with at most CLI_SIZE_CASES cells.
 * On failure sc is empty with left_out 1, so nothing is proved. */
#define CLI_SIZE_CASES 64
struct poly_size_cases;
struct ir_tnode;
/* Append the distinct mask leaves of n to out[nout..cap-1]; returns the
 * new count. */
int cli_tnode_masks(const struct ir_tnode *n, const struct ir_tnode **out, int nout, int cap);
void cli_size_cases(const ir_kernel *k, const unsigned char *mask,
                    const struct ir_tnode *cand, struct poly_size_cases *sc);

/* The verification options shared by `raise` and `verify`: put
 * CLI_VERIFY_LONGOPTS into the long-option table and hand each option to
 * cli_verify_option first.  Returns 1 if it handled c (setting *vo), 0 if
 * c is not one of them, -1 after reporting a usage error.  allow_none:
 * whether `--verify none` is accepted. */
struct verify_options;
#define CLI_OPT_VERIFY 0x1e0
#define CLI_OPT_BOUND 0x1e1
#define CLI_OPT_SMT_TIMEOUT 0x1e2
#define CLI_VERIFY_LONGOPTS                                          \
  {"verify", required_argument, NULL, CLI_OPT_VERIFY},               \
  {"bound", required_argument, NULL, CLI_OPT_BOUND},                 \
  {"smt-timeout", required_argument, NULL, CLI_OPT_SMT_TIMEOUT}
int cli_verify_option(const char *cmd, int c, const char *arg,
                      struct verify_options *vo, int allow_none);

/* A task of the analysis set up as the enumerator sets it up: the statement
 * mask (the task's statements plus the prelude), its inputs (var ids) and
 * their leaves in store (arguments numbered by var id, POLY_IN_CONST inputs
 * as constants).  Everything lives in arena.  Returns 0, or -1 when an
 * input's dims are not size parameters. */
typedef struct cli_task_setup {
  unsigned char *mask;
  int nin;
  int *in_vars;
  const struct ir_tnode **in_args;
} cli_task_setup;
int cli_task_setup_make(const struct poly_analysis *a, int task, struct ir_tp_store *store,
                        ir_arena *arena, cli_task_setup *out);

/* ------------------------------------------- --inputs (explore, rewrites)
 * Parse "A:f64[m,k],B:f64[k,n],alpha:f64[]" (dims: names or 1; element
 * types f64 or f32, one per run) into a synthetic kernel in arena (size
 * variables per dim name, then a parameter per input) and an argument leaf
 * per input in store (args[i], arg number = var id).  Returns 0, or -1
 * with a message for people in err. */
struct ir_tnode;
struct ir_tp_store;
int cli_inputs_parse(const char *spec, ir_arena *arena, struct ir_tp_store *store,
                     ir_kernel **k, const struct ir_tnode **args, int cap, int *nargs,
                     char *err, size_t errn);

/* ------------------------------------------------------------ rewrites
 * Mine rewrite rules (uplift rewrites): enumerate dialect programs over the
 * --inputs leaves (enum_explore), take each candidate dropped as equal to a
 * smaller stored one as `lhs -> rhs`, smallest rules first; drop a rule when
 * rewriting both sides with the rules accepted so far (arguments are
 * pattern variables, dims renamed consistently) gives the same term; verify
 * the rest with Z3 (real, then fp) and accept the rules proved in real
 * mode.  Everything lives in arena/store, except rules (ir_malloc'd, freed
 * by cli_rules_free). */
typedef struct cli_rule {
  const struct ir_tnode *lhs, *rhs;
  int real, fp;        /* verify_verdict of each mode */
  const char *why;     /* reason of a real-mode failure (arena) or NULL */
} cli_rule;

typedef struct cli_rules {
  ir_kernel *k;                  /* the synthetic kernel of --inputs */
  const struct ir_tnode *args[16];
  int nargs;
  const struct gram_dialect *d;
  int n;
  cli_rule *rules;               /* accepted (proved) rules, smallest first */
  int nfailed;
  cli_rule *failed;              /* not proved in real mode */
  long proposed, implied;        /* candidate rules; dropped as implied (or
                                    vacuous: lhs divides by zero) */
  int complete;                  /* the enumeration was not cut short */
} cli_rules;

typedef struct cli_rewrites_opts {
  const char *dialect, *inputs;
  int max_ops, threads, bound;
  uint64_t seed;
  double smt_timeout, timeout;
  int fp;                        /* also check fp mode */
} cli_rewrites_opts;

/* Returns 0, 2 (IR_EXIT_BAD_INPUT) after a message in err (bad --inputs,
 * unknown dialect) or -1 on an internal error. */
int cli_rewrites_mine(const cli_rewrites_opts *o, ir_arena *arena,
                      struct ir_tp_store *store, cli_rules *out, char *err, size_t errn);
void cli_rules_free(cli_rules *r);

#endif
