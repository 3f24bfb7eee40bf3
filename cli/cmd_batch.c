/*
 * cmd_batch.c - `uplift batch [--jobs N] [-o OUT.jsonl] [raise options]
 * FILE|DIR...`: raise every kernel file found, one JSON line per kernel
 * (docs/batch.md).  The work is pipeline/batch.c's; this file parses the
 * options (batch's own, and the `raise` options it passes on), skips the
 * kernels already in OUT, appends the lines and prints the summary table.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift batch [--jobs N] [-o OUT.jsonl] [raise options] FILE|DIR...\n"
          "\n"
          "Raise every kernel file (a DIR: its *.c files, sorted by name) with\n"
          "`uplift raise FILE --json -q` and write one JSON line per kernel: the\n"
          "raise report, compact, with \"file\" and the raise's \"exit\" status.\n"
          "The lines come in the order of the files whatever --jobs is, each as\n"
          "soon as it and the ones before it are done.  A summary table (kernel,\n"
          "raised, proved task outputs, seconds) goes to stderr at the end.\n"
          "\n"
          "options:\n"
          "  --jobs N                  kernels raised at once (default 1)\n"
          "  -o OUT.jsonl              append the lines to OUT.jsonl; the files\n"
          "                            already in it are skipped (resume)\n"
          "  raise options             passed to each raise: --dialect, --max-ops,\n"
          "                            --timeout, --work, --memory, --threads, --seed,\n"
          "                            --verify, --bound, --smt-steps, --smt-timeout,\n"
          "                            --check, --element-type, --function, -I, -D\n"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 every kernel raised (raise exit 0), 1 some kernel not\n"
          "raised or not proved (its line says why, with the raise's exit status:\n"
          "uplift raise --help), 2 bad input or usage\n");
}

/* The raise options batch passes on: taking a value or not. */
static const char *const valued[] = {"--dialect", "--max-ops", "--timeout", "--work", "--memory",
                                     "--threads", "--seed",    "--verify",  "--bound",
                                     "--smt-steps", "--smt-timeout", "--function", "--include",
                                     "--define",
                                     "-I", "-D", "--element-type"};
static const char *const flags[] = {"--check"};

/* Whether arg is one of the n names in list (or "NAME=VALUE" of one). */
static int in_list(const char *arg, const char *const *list, size_t n, int allow_eq) {
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(list[i]);
    if (!strncmp(arg, list[i], len) && (!arg[len] || (allow_eq && arg[len] == '=')))
      return 1;
  }
  return 0;
}

/* The summary state: the OUT stream and the table rows. */
typedef struct batch_cli {
  FILE *out;
  int nrows, failed;
  ir_buf table;
} batch_cli;

static void on_line(void *user, const char *file, const pipe_batch_result *r) {
  batch_cli *b = user;
  fprintf(b->out, "%s\n", r->line);
  fflush(b->out);
  ir_buf_printf(&b->table, "%-40s %-22s %-6s %3d/%-3d %8.2f\n", file, r->kernel,
                r->raised ? "yes" : "no", r->proved, r->tasks, r->seconds);
  b->nrows++;
  if (r->exit != 0) b->failed = 1;
}

int cli_cmd_batch(int argc, char **argv) {
  const char *outpath = NULL;
  long jobs = 1;
  const char **rargs = ir_malloc(sizeof *rargs * (size_t)(argc + 1));
  char **paths = ir_malloc(sizeof *paths * (size_t)(argc + 1));
  int nr = 0, np = 0, status = IR_EXIT_BAD_INPUT;
  pipe_batch_files f = {0};
  batch_cli b = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      status = IR_EXIT_OK;
      goto done;
    } else if (!strcmp(a, "--jobs") || !strcmp(a, "-o")) {
      if (i + 1 == argc) {
        cli_usage_error("batch", "%s expects a value", a);
        goto done;
      }
      if (a[1] == 'o') outpath = argv[++i];
      else if (cli_parse_long("batch", "--jobs", argv[++i], 1, 256, &jobs)) goto done;
    } else if (!strncmp(a, "--jobs=", 7)) {
      if (cli_parse_long("batch", "--jobs", a + 7, 1, 256, &jobs)) goto done;
    } else if (in_list(a, valued, sizeof valued / sizeof *valued, a[1] == '-')) {
      rargs[nr++] = a;
      if (!strchr(a, '=')) {
        if (i + 1 == argc) {
          cli_usage_error("batch", "%s expects a value", a);
          goto done;
        }
        rargs[nr++] = argv[++i];
      }
    } else if (in_list(a, flags, sizeof flags / sizeof *flags, 0)) {
      rargs[nr++] = a;
    } else if (a[0] == '-' && a[1]) {
      cli_usage_error("batch", "option '%s' is not one batch takes (the report is "
                               "always JSON, one line per kernel)", a);
      goto done;
    } else
      paths[np++] = argv[i];
  }
  if (!np) {
    cli_usage_error("batch", "missing FILE or DIR");
    goto done;
  }
  ir_error err;
  if (pipe_batch_collect(paths, np, &f, &err)) {
    fprintf(stderr, "uplift batch: %s\n", err.msg);
    goto done;
  }
  /* resume: the files already recorded in OUT are skipped */
  const char **todo = ir_malloc(sizeof *todo * (size_t)(f.n + 1));
  int ntodo = 0, skipped = 0;
  for (int i = 0; i < f.n; i++) {
    if (outpath && pipe_batch_recorded(outpath, f.paths[i])) skipped++;
    else todo[ntodo++] = f.paths[i];
  }
  b.out = outpath ? fopen(outpath, "a") : stdout;
  if (!b.out) {
    fprintf(stderr, "uplift batch: cannot write %s\n", outpath);
    ir_free(todo);
    goto done;
  }
  if (skipped)
    fprintf(stderr, "uplift batch: %d of %d kernel files already in %s: skipped\n", skipped,
            f.n, outpath);
  pipe_batch_opts bo = {(int)jobs, rargs, nr, on_line, &b};
  status = IR_EXIT_OK;
  if (pipe_batch_run(todo, ntodo, &bo, &err)) {
    fprintf(stderr, "uplift batch: %s\n", err.msg);
    status = IR_EXIT_MISMATCH;
  }
  ir_free(todo);
  if (b.out != stdout) fclose(b.out);
  fprintf(stderr, "%-40s %-22s %-6s %-7s %8s\n", "file", "kernel", "raised", "proved",
          "seconds");
  fputs(ir_buf_str(&b.table), stderr);
  fprintf(stderr, "%d kernel files raised now, %d skipped\n", b.nrows, skipped);
  if (!status && b.failed) status = IR_EXIT_NOT_RAISED;
done:
  ir_buf_free(&b.table);
  pipe_batch_files_free(&f);
  ir_free(rargs);
  ir_free(paths);
  return status;
}
