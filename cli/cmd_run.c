/*
 * cmd_run.c - `uplift run`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_run(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift run: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
