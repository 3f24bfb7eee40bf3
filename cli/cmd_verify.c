/*
 * cmd_verify.c - `uplift verify`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_verify(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift verify: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
