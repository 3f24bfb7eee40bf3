/*
 * cli.h - the uplift driver: one function per command, each parsing its
 * own GNU-style options (getopt_long) and returning the exit status.
 */
#ifndef UPLIFT_CLI_H
#define UPLIFT_CLI_H

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

#endif
