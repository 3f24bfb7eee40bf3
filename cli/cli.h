/*
 * cli.h - the uplift driver: one function per command, each parsing its
 * own GNU-style options (getopt_long), calling the pipeline (pipeline/,
 * rewrites/) and printing; it returns the exit status.
 */
#ifndef UPLIFT_CLI_H
#define UPLIFT_CLI_H

#include <pthread.h>
#include <getopt.h>

#include "pipeline/pipeline.h"

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
int cli_cmd_batch(int argc, char **argv);

/* Print "uplift CMD: MESSAGE" and "Try 'uplift CMD --help'." to stderr and
 * return IR_EXIT_BAD_INPUT. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse a decimal integer option value in [lo, hi]; on error report it as
 * a usage error and return -1 (the value is then unchanged). */
int cli_parse_long(const char *cmd, const char *opt, const char *text,
                   long lo, long hi, long *out);

/* "ni=3,nj=5" (--sizes): fill sizes[var id] of k, each value in 0..max;
 * every size parameter must be given once.  Returns 0, or reports a usage
 * error and returns IR_EXIT_BAD_INPUT. */
int cli_parse_sizes(const char *cmd, const ir_kernel *k, const char *text, long max,
                    long *sizes);

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
 *     if (r < 0) { pipe_fe_options_free(&fe); return IR_EXIT_BAD_INPUT; }
 *     if (r > 0) continue;
 *     ...
 *   }
 *   ... fe_parse_file(path, &fe, &arena) ...
 *   pipe_fe_options_free(&fe);
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

/* The arrays are freed with pipe_fe_options_free. */

/* ------------------------------------------- verification options (shared)
 * The verification options of `raise` and `verify`: put
 * CLI_VERIFY_LONGOPTS into the long-option table and hand each option to
 * cli_verify_option first.  Returns 1 if it handled c (setting *vo), 0 if
 * c is not one of them, -1 after reporting a usage error.  allow_none:
 * whether `--verify none` is accepted. */
#define CLI_OPT_VERIFY 0x1e0
#define CLI_OPT_BOUND 0x1e1
#define CLI_OPT_SMT_TIMEOUT 0x1e2
#define CLI_OPT_SMT_STEPS 0x1e3
#define CLI_VERIFY_LONGOPTS                                          \
  {"verify", required_argument, NULL, CLI_OPT_VERIFY},               \
  {"bound", required_argument, NULL, CLI_OPT_BOUND},                 \
  {"smt-steps", required_argument, NULL, CLI_OPT_SMT_STEPS},         \
  {"smt-timeout", required_argument, NULL, CLI_OPT_SMT_TIMEOUT}
int cli_verify_option(const char *cmd, int c, const char *arg, verify_options *vo,
                      int allow_none);
/* The help lines of --smt-steps and --smt-timeout (with their defaults),
 * for every command that verifies. */
const char *cli_solver_budget_help(void);
/* --smt-steps N (0..VERIFY_MAX_STEPS; 0: no limit) into *steps.  Returns
 * 0, or -1 after reporting a usage error. */
int cli_parse_steps(const char *cmd, const char *arg, unsigned long *steps);

/* ------------------------------------------------- search options (shared)
 * The enumerator's options of `raise`, `explore` and `rewrites`:
 * --max-ops N (in max_ops_lo..max_ops_hi), --threads N (1..256), --seed S
 * (0..2^40), --work M (0..2^40), --timeout S (1..86400), --memory MB
 * (16..2^20).  --work, --timeout and --memory are the budget of the whole
 * command (cli_search_budget_start).
 * Put CLI_SEARCH_LONGOPTS into the
 * long-option table and hand each option to cli_search_option; it returns
 * 1 if it handled c (setting *eo), 0 if c is not one of them, -1 after
 * reporting a usage error. */
#define CLI_OPT_MAX_OPS 0x1d0
#define CLI_OPT_THREADS 0x1d1
#define CLI_OPT_SEED 0x1d2
#define CLI_OPT_TIMEOUT 0x1d3
#define CLI_OPT_MEMORY 0x1d4
#define CLI_OPT_WORK 0x1d5
#define CLI_BUDGET_LONGOPTS                                          \
  {"timeout", required_argument, NULL, CLI_OPT_TIMEOUT},             \
  {"memory", required_argument, NULL, CLI_OPT_MEMORY}
#define CLI_SEARCH_LONGOPTS                                          \
  {"max-ops", required_argument, NULL, CLI_OPT_MAX_OPS},             \
  {"threads", required_argument, NULL, CLI_OPT_THREADS},             \
  {"seed", required_argument, NULL, CLI_OPT_SEED},                   \
  {"work", required_argument, NULL, CLI_OPT_WORK},                   \
  CLI_BUDGET_LONGOPTS
int cli_search_option(const char *cmd, int c, const char *arg, long max_ops_lo,
                      long max_ops_hi, enum_options *eo);

/* The budget options alone (`analyze`, `verify`): CLI_BUDGET_LONGOPTS in
 * the long-option table; --timeout S (1..86400) into *seconds, --memory MB
 * (16..2^20) into *memory_mb.  Returns 1, 0 or -1 as cli_search_option. */
int cli_budget_option(const char *cmd, int c, const char *arg, double *seconds,
                      long *memory_mb);

/* Hold the command to its budget from here on: `seconds` (0: none) and
 * `memory_mb` (0: none) through ir_budget_start; past them the command is
 * stopped with exit status `status` (its documented "out of budget"
 * status) and a message naming the budget. */
void cli_budget_start(const char *cmd, double seconds, long memory_mb, int status);
/* The same for a command that searches: also its work budget (--work,
 * ir_work_limit). */
void cli_search_budget_start(const char *cmd, const enum_options *eo, int status);

/* ------------------------------------------------ the progress line
 * A line on stderr redrawn in place while a long command works, on a
 * terminal only (nothing is drawn otherwise): "uplift CMD: 12.3 s of 120 s
 * budget, WHAT".  Erase it (cli_progress_clear) before printing a line of
 * output on stderr.  While a line is drawn a thread redraws it every half
 * second, so the time goes on where the work does not report (a long
 * verification); cli_progress_end stops it. */
typedef struct cli_progress {
  const char *cmd;
  int tty;       /* stderr is a terminal */
  int drawn;     /* a line is on the screen */
  double start;  /* monotonic seconds at cli_progress_start */
  double budget; /* the command's --timeout (0: none) */
  char what[256];       /* the last WHAT, which the ticker redraws */
  pthread_mutex_t mu;   /* guards the fields above and the drawing */
  pthread_t ticker;
  int ticking, stop;
} cli_progress;

/* Start the clock of p for command cmd with its time budget (0: none). */
void cli_progress_start(cli_progress *p, const char *cmd, double budget);
/* Draw the line with WHAT (printf format). */
void cli_progress_draw(cli_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Erase the line, if one is drawn. */
void cli_progress_clear(cli_progress *p);
/* Erase the line and stop the ticker: the end of the command's work. */
void cli_progress_end(cli_progress *p);
/* An enumeration without tasks to name (explore --inputs, rewrites):
 * enum_observer hooks that draw "enumerating[, N candidates/s, M stored]"
 * on the cli_progress given as user. */
void cli_progress_search_begins(void *user, int task);
void cli_progress_search_rate(void *user, int task, long stored, double rate);

/* Report option c (getopt_long's answer for argv[optind - 1]) as unknown
 * or missing its value; returns IR_EXIT_BAD_INPUT. */
int cli_unknown_option(const char *cmd, int c, char **argv);

#endif
