/*
 * cmd_rewrites.c - `uplift rewrites`: not built yet (stub).
 */
#include "cli/cli.h"

int cli_cmd_rewrites(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "uplift rewrites: not implemented yet\n");
  return IR_EXIT_BAD_INPUT;
}
