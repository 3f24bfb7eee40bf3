/*
 * cmd_analyze.c - `uplift analyze`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_analyze(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift analyze: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
