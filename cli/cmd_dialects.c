/*
 * cmd_dialects.c - `uplift dialects [NAME|PATH]`: without an argument lists
 * the shipped dialects (the files of the dialects/ folder) with their op
 * counts; with one, loads that dialect and prints its ops with signatures,
 * attributes and kernels.  A malformed dialect file exits 2 with positioned
 * errors.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "grammar/grammar.h"

static void help(FILE *out) {
  fprintf(out,
          "usage: uplift dialects [NAME|PATH]\n\n"
          "Without an argument, list the shipped dialects (in %s) and their op\n"
          "counts.  With a dialect name (hlo, linalg, tosa) or the path of a dialect\n"
          "file, list its ops: signature (operand type patterns -> result), MLIR\n"
          "spelling, semantic kernel, element types, rank limits and attributes\n"
          "with their domains.  The file format is described in docs/dialects.md.\n\n"
          "  -h, --help   print this help\n\n"
          "exit status: 0 done, 2 unknown dialect, malformed file or bad usage\n",
          gram_dialect_dir());
}

static int list_all(void) {
  char **names;
  ir_error err;
  int n = gram_dialect_list(&names, &err);
  if (n < 0) {
    fprintf(stderr, "uplift dialects: %s\n", err.msg);
    return IR_EXIT_BAD_INPUT;
  }
  int status = IR_EXIT_OK;
  for (int i = 0; i < n; i++) {
    ir_arena a;
    ir_arena_init(&a);
    gram_dialect *d = gram_load(names[i], &a);
    if (d)
      printf("%-8s %3d ops  %s\n", d->name, d->nops, d->summary);
    else
      status = IR_EXIT_BAD_INPUT;
    ir_arena_free(&a);
  }
  gram_dialect_list_free(names, n);
  return status;
}

int cli_cmd_dialects(int argc, char **argv) {
  static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    if (c == 'h') {
      help(stdout);
      return IR_EXIT_OK;
    }
    return cli_usage_error("dialects", "unknown option");
  }
  if (argc - optind > 1) return cli_usage_error("dialects", "expected at most one dialect");
  if (argc == optind) return list_all();
  ir_arena a;
  ir_arena_init(&a);
  gram_dialect *d = gram_load(argv[optind], &a);
  int status = IR_EXIT_BAD_INPUT;
  if (d) {
    gram_dialect_print(d, stdout);
    status = IR_EXIT_OK;
  }
  ir_arena_free(&a);
  return status;
}
