/*
 * cmd_dialects.c - `uplift dialects`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_dialects(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift dialects: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
