/*
 * cmd_explore.c - `uplift explore`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_explore(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift explore: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
