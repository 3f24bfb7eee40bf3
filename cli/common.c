/*
 * common.c - helpers shared by the commands: usage errors and option values.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

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
