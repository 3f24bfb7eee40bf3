/*
 * cmd_dump.c - `uplift dump`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_dump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift dump: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
