/*
 * cmd_raise.c - `uplift raise`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_raise(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift raise: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
