/*
 * cmd_analyze.c - `uplift analyze FILE.c [--json]`: parse the kernel, run the
 * polyhedral analysis and print it for people, or as JSON with --json
 * (polyhedral/polyhedral.h, docs/analyze.md).
 *
 * Exit status: 0 when the analysis ran (a kernel that is not raisable is a
 * finding, not an error), 1 when it ran out of its --timeout, --memory or
 * --work budget, 2 on bad input or usage.
 */
#include <string.h>

#include "cli/cli.h"
#include "frontend/frontend.h"
#include "polyhedral/polyhedral.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift analyze FILE.c [--json] [--timeout S] [--memory MB] [--work M]\n"
          "                      [--function NAME]\n"
          "                      [-I DIR] [-D NAME[=VALUE]]\n"
          "\n"
          "Polyhedral analysis of the kernel in FILE.c: iteration domains,\n"
          "dependences, reductions, tasks (loop distribution) with their inputs,\n"
          "outputs, read and written regions and op hints, and whether the kernel\n"
          "is raisable, with the reason when it is not.\n"
          "\n"
          "options:\n"
          "  --json                    print the analysis as JSON\n"
          "  --timeout S               time budget in seconds (default 120)\n"
          "  --memory MB               memory budget (default 4096)\n"
          "  --work M                  work budget: M million isl operations (default:\n"
          "                            none)\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 analysed (raisable or not), 1 out of the time, memory or\n"
          "work budget, 2 bad input or usage\n",
          cli_frontend_help);
}

enum { OPT_JSON = 0x1f1 };

int cli_cmd_analyze(int argc, char **argv) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      {"json", no_argument, NULL, OPT_JSON},
      CLI_BUDGET_LONGOPTS,
      {"work", required_argument, NULL, CLI_OPT_WORK},
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  int json = 0, c;
  double seconds = 120;
  long memory_mb = 4096, work = 0;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("analyze", c, optarg, &fe);
    if (!r) r = cli_budget_option("analyze", c, optarg, &seconds, &memory_mb);
    if (!r && c == CLI_OPT_WORK) r = cli_parse_long("analyze", "--work", optarg, 0, 1L << 40, &work) ? -1 : 1;
    if (r < 0) {
      pipe_fe_options_free(&fe);
      return IR_EXIT_BAD_INPUT;
    }
    if (r > 0) continue;
    if (c == OPT_JSON) {
      json = 1;
      continue;
    }
    pipe_fe_options_free(&fe);
    if (c == 'h') {
      usage(stdout);
      return IR_EXIT_OK;
    }
    return cli_unknown_option("analyze", c, argv);
  }
  int nfiles = argc - optind;
  if (nfiles != 1) {
    pipe_fe_options_free(&fe);
    if (!nfiles) return cli_usage_error("analyze", "missing FILE.c");
    return cli_usage_error("analyze", "expects one FILE.c, got %d files", nfiles);
  }
  const char *path = argv[optind];
  cli_budget_start("analyze", seconds, memory_mb, IR_EXIT_NOT_RAISED);
  ir_work_limit(work * 1000000L);
  ir_arena arena;
  ir_arena_init(&arena);
  int status = IR_EXIT_BAD_INPUT;
  ir_kernel *k = fe_parse_file(path, &fe, &arena);
  if (k) {
    poly_analysis *a = poly_analyze(k, &arena);
    if (a->error) {
      fprintf(stderr, "uplift analyze: %s: %s\n", path, a->error);
      if (a->out_of_budget) status = IR_EXIT_NOT_RAISED; /* --timeout, --memory, --work */
    } else if (json) {
      char *text = poly_to_json(a);
      fputs(text, stdout);
      fputc('\n', stdout);
      ir_free(text);
      status = IR_EXIT_OK;
    } else {
      poly_print(a, stdout);
      status = IR_EXIT_OK;
    }
  }
  ir_arena_free(&arena);
  pipe_fe_options_free(&fe);
  return status;
}
