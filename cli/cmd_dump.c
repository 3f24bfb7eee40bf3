/*
 * cmd_dump.c - `uplift dump FILE.c`: parse the kernel with the front end and
 * print the loop program (ir_kernel_dump) on stdout.  Bad input: the front
 * end's diagnostic on stderr, nothing on stdout, exit status 2.
 */
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift dump FILE.c [--function NAME] [-I DIR] [-D NAME[=VALUE]]\n"
          "\n"
          "Parse the kernel function of FILE.c and print the loop program that\n"
          "uplift works on: signature with array shapes, locals, loops with\n"
          "inclusive bounds, and the assignments numbered S0, S1, ...\n"
          "\n"
          "options:\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 done, 2 bad input or usage\n",
          cli_frontend_help);
}

int cli_cmd_dump(int argc, char **argv) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'}, CLI_FE_LONGOPTS, {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("dump", c, optarg, &fe);
    if (r < 0) {
      pipe_fe_options_free(&fe);
      return IR_EXIT_BAD_INPUT;
    }
    if (r > 0) continue;
    if (c == 'h') {
      pipe_fe_options_free(&fe);
      usage(stdout);
      return IR_EXIT_OK;
    }
    pipe_fe_options_free(&fe);
    return cli_unknown_option("dump", c, argv);
  }
  int nfiles = argc - optind;
  if (nfiles != 1) {
    pipe_fe_options_free(&fe);
    if (!nfiles) return cli_usage_error("dump", "missing FILE.c");
    return cli_usage_error("dump", "expects one FILE.c, got %d files", nfiles);
  }
  const char *path = argv[optind];
  ir_arena arena;
  ir_arena_init(&arena);
  ir_kernel *k = fe_parse_file(path, &fe, &arena);
  int status = IR_EXIT_BAD_INPUT;
  if (k) {
    ir_kernel_dump(k, stdout);
    status = IR_EXIT_OK;
  }
  ir_arena_free(&arena);
  pipe_fe_options_free(&fe);
  return status;
}
