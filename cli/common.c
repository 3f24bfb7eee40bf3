/*
 * common.c - helpers shared by the commands: usage errors, option values,
 * and the option groups several commands take (search, verification).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "uplift %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'uplift %s --help'.\n", cmd);
  return IR_EXIT_BAD_INPUT;
}

int cli_parse_long(const char *cmd, const char *opt, const char *text,
                   long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < lo || v > hi) {
    cli_usage_error(cmd, "%s expects an integer in %ld..%ld, not '%s'", opt,
                    lo, hi, text);
    return -1;
  }
  *out = v;
  return 0;
}

int cli_unknown_option(const char *cmd, int c, char **argv) {
  if (c == '?' && optopt)
    return cli_usage_error(cmd, "unknown option '-%c' or missing value", optopt);
  return cli_usage_error(cmd, "unknown option '%s' or missing value", argv[optind - 1]);
}

int cli_search_option(const char *cmd, int c, const char *arg, long max_ops_lo,
                      long max_ops_hi, enum_options *eo) {
  long v;
  switch (c) {
  case CLI_OPT_MAX_OPS:
    if (cli_parse_long(cmd, "--max-ops", arg, max_ops_lo, max_ops_hi, &v)) return -1;
    eo->max_ops = (int)v;
    return 1;
  case CLI_OPT_THREADS:
    if (cli_parse_long(cmd, "--threads", arg, 1, 256, &v)) return -1;
    eo->threads = (int)v;
    return 1;
  case CLI_OPT_SEED:
    if (cli_parse_long(cmd, "--seed", arg, 0, 1L << 40, &v)) return -1;
    eo->seed = (uint64_t)v;
    return 1;
  case CLI_OPT_WORK:
    if (cli_parse_long(cmd, "--work", arg, 0, 1L << 40, &v)) return -1;
    eo->work = v;
    return 1;
  }
  return cli_budget_option(cmd, c, arg, &eo->timeout, &eo->memory_mb);
}

int cli_budget_option(const char *cmd, int c, const char *arg, double *seconds,
                      long *memory_mb) {
  long v;
  switch (c) {
  case CLI_OPT_TIMEOUT:
    if (cli_parse_long(cmd, "--timeout", arg, 1, 86400, &v)) return -1;
    *seconds = (double)v;
    return 1;
  case CLI_OPT_MEMORY:
    if (cli_parse_long(cmd, "--memory", arg, 16, 1L << 20, &v)) return -1;
    *memory_mb = v;
    return 1;
  }
  return 0;
}

void cli_budget_start(const char *cmd, double seconds, long memory_mb, int status) {
  if (ir_budget_start(cmd, seconds, memory_mb, status))
    fprintf(stderr, "uplift %s: warning: the budget watch could not be started\n", cmd);
}

void cli_search_budget_start(const char *cmd, const enum_options *eo, int status) {
  cli_budget_start(cmd, eo->timeout, eo->memory_mb, status);
  ir_work_limit(eo->work * 1000000L);
}

int cli_verify_option(const char *cmd, int c, const char *arg, verify_options *vo,
                      int allow_none) {
  long v;
  switch (c) {
  case CLI_OPT_VERIFY: {
    int m = verify_mode_parse(arg);
    if (m < 0 || (m == VERIFY_NONE && !allow_none)) {
      cli_usage_error(cmd, "--verify expects %s, not '%s'",
                      allow_none ? "real, fp or none" : "real or fp", arg);
      return -1;
    }
    vo->mode = (verify_mode)m;
    return 1;
  }
  case CLI_OPT_BOUND:
    if (cli_parse_long(cmd, "--bound", arg, 1, 8, &v)) return -1;
    vo->bound = (int)v;
    return 1;
  case CLI_OPT_SMT_STEPS:
    return cli_parse_steps(cmd, arg, &vo->steps) ? -1 : 1;
  case CLI_OPT_SMT_TIMEOUT:
    if (cli_parse_long(cmd, "--smt-timeout", arg, 1, 3600, &v)) return -1;
    vo->timeout = (double)v;
    return 1;
  }
  return 0;
}

int cli_parse_steps(const char *cmd, const char *arg, unsigned long *steps) {
  long v;
  if (cli_parse_long(cmd, "--smt-steps", arg, 0, (long)VERIFY_MAX_STEPS, &v)) return -1;
  *steps = (unsigned long)v;
  return 0;
}

const char *cli_solver_budget_help(void) {
  static char text[640];
  snprintf(text, sizeof text,
           "  --smt-steps N             Z3 resource units per solver query (default\n"
           "                            %lu; 0: no limit): the budget that decides,\n"
           "                            a count, so a verdict does not depend on the\n"
           "                            machine's speed or load; past it: unknown\n"
           "  --smt-timeout S           wall-clock seconds per solver query (default\n"
           "                            %g): only a safety net against a solver that\n"
           "                            stops counting\n",
           (unsigned long)VERIFY_DEFAULT_STEPS, (double)VERIFY_DEFAULT_TIMEOUT);
  return text;
}

int cli_parse_sizes(const char *cmd, const ir_kernel *k, const char *text, long max,
                    long *sizes) {
  int given[k->nvars + 1];
  memset(given, 0, sizeof given);
  char *copy = ir_strdup(text), *save = NULL;
  int rc = 0;
  for (char *item = strtok_r(copy, ",", &save); item && !rc;
       item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq) {
      rc = cli_usage_error(cmd, "--sizes expects NAME=VALUE items, not '%s'", item);
      break;
    }
    *eq = 0;
    int v = ir_kernel_find_var(k, item);
    if (v < 0 || k->vars[v]->kind != IR_VAR_SIZE) {
      char names[512] = "";
      size_t at = 0;
      for (int j = 0; j < k->nvars && at < sizeof names; j++)
        if (k->vars[j]->kind == IR_VAR_SIZE)
          at += (size_t)snprintf(names + at, sizeof names - at, "%s%s",
                                 at ? ", " : "", k->vars[j]->name);
      rc = cli_usage_error(cmd, "'%s' is not a size parameter of %s (its sizes: %s)",
                           item, k->name, at ? names : "none");
      break;
    }
    if (given[v]) {
      rc = cli_usage_error(cmd, "size '%s' is given twice", item);
      break;
    }
    long val;
    char opt[80];
    snprintf(opt, sizeof opt, "--sizes %s", item);
    if (cli_parse_long(cmd, opt, eq + 1, 0, max, &val)) {
      rc = IR_EXIT_BAD_INPUT;
      break;
    }
    given[v] = 1;
    sizes[v] = val;
  }
  for (int v = 0; v < k->nvars && !rc; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE && !given[v])
      rc = cli_usage_error(cmd, "--sizes does not give size '%s'", k->vars[v]->name);
  ir_kernel_pin_extents(k, sizes); /* constant extents (float w[3]) at their value */
  ir_free(copy);
  return rc;
}

/* ------------------------------------------------------ progress line */

void cli_progress_start(cli_progress *p, const char *cmd, double budget) {
  p->cmd = cmd;
  p->tty = isatty(2);
  p->drawn = 0;
  p->start = ir_monotonic_seconds();
  p->budget = budget;
  p->what[0] = 0;
  p->ticking = p->stop = 0;
  pthread_mutex_init(&p->mu, NULL);
}

/* Draw the line with p->what (p->mu held). */
static void progress_render(cli_progress *p) {
  fprintf(stderr, "\r\033[Kuplift %s: %.1f s", p->cmd, ir_monotonic_seconds() - p->start);
  if (p->budget > 0) fprintf(stderr, " of %g s budget", p->budget);
  fprintf(stderr, ", %s", p->what);
  fflush(stderr);
  p->drawn = 1;
}

/* Redraw the drawn line every half second until cli_progress_end. */
static void *progress_tick(void *arg) {
  cli_progress *p = arg;
  for (;;) {
    struct timespec ts = {0, 500000000L};
    nanosleep(&ts, NULL);
    pthread_mutex_lock(&p->mu);
    int stop = p->stop;
    if (!stop && p->drawn) progress_render(p);
    pthread_mutex_unlock(&p->mu);
    if (stop) return NULL;
  }
}

void cli_progress_draw(cli_progress *p, const char *fmt, ...) {
  if (!p->tty) return;
  pthread_mutex_lock(&p->mu);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->what, sizeof p->what, fmt, ap);
  va_end(ap);
  progress_render(p);
  if (!p->ticking && !p->stop) p->ticking = pthread_create(&p->ticker, NULL, progress_tick, p) == 0;
  pthread_mutex_unlock(&p->mu);
}

void cli_progress_clear(cli_progress *p) {
  if (!p->tty) return;
  pthread_mutex_lock(&p->mu);
  if (p->drawn) {
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->drawn = 0;
  }
  pthread_mutex_unlock(&p->mu);
}

void cli_progress_search_begins(void *user, int task) {
  (void)task;
  cli_progress_draw(user, "enumerating");
}

void cli_progress_search_rate(void *user, int task, long stored, double rate) {
  (void)task;
  cli_progress_draw(user, "enumerating, %.0f candidates/s, %ld stored", rate, stored);
}

void cli_progress_end(cli_progress *p) {
  cli_progress_clear(p);
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  int ticking = p->ticking;
  pthread_mutex_unlock(&p->mu);
  if (ticking) pthread_join(p->ticker, NULL);
  p->ticking = 0;
}
