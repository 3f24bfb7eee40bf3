/*
 * cmd_verify.c - `uplift verify FILE.c REPORT.json`: re-check a saved raise
 * report.  pipe_report_load (pipeline/report.c) parses and analyses the
 * kernel again, reads the report and rebuilds each task entry's program;
 * pipe_report_check verifies each with the same callback as `uplift raise`.
 * This file parses the options and prints the verdict, mode, bound and
 * seconds per task (or a JSON document).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift verify FILE.c REPORT.json [options]\n"
          "\n"
          "Re-check a report written by `uplift raise FILE.c --json`: rebuild the\n"
          "program of every task from the report and prove it equivalent to the\n"
          "task's loops with Z3 again.\n"
          "\n"
          "options:\n"
          "  --verify real|fp          mode (default real)\n"
          "  --bound B                 verify at every size 1..B (default 3)\n"
          "%s"
          "  --timeout S               time budget of the whole check (default: none);\n"
          "                            tasks not decided by then are unknown\n"
          "  --memory MB               memory budget (default 4096); past it: exit 3\n"
          "  --json                    print the results as JSON\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 every task proved, 2 bad input or usage (unreadable or\n"
          "malformed report, unknown op, a report for another kernel), 3 some task\n"
          "not proved (refuted, unknown, error, or missing from the report)\n",
          cli_solver_budget_help(), cli_frontend_help);
}

enum { OPT_JSON = 0x200 };

/* One `uplift verify`: the kernel's and the report's paths and what
 * pipe_report_load made of them. */
typedef struct vjob {
  const char *path, *rpath;
  pipe_report r;
} vjob;

/* Print why pipe_report_load failed with pe; returns the exit status. */
static int print_load_error(const vjob *j, pipe_error pe) {
  if (pe == PIPE_ERR_REPORT || pe == PIPE_ERR_PROGRAM)
    fprintf(stderr, "uplift verify: %s: error: %s\n", j->rpath, j->r.why);
  else if (pe == PIPE_ERR_ANALYSIS)
    fprintf(stderr, "uplift verify: %s: %s\n", j->path, j->r.why);
  /* the analysis stopped at --timeout or --memory: the budget's status, as
   * a hard stop's */
  if (pe == PIPE_ERR_ANALYSIS && j->r.a && j->r.a->out_of_budget) return IR_EXIT_MISMATCH;
  return pipe_exit_status(pe);
}

/* The result of entry i (checked when it has a program) as JSON or text. */
static void print_entry(const pipe_report *r, int i, const pipe_verify_state *vs,
                        cJSON *jtasks) {
  const ir_kernel *ak = r->a->kernel;
  const pipe_report_entry *e = &r->ents[i];
  const verify_result *vr = vs->last;
  if (!jtasks) {
    printf("task %d (%s): ", e->task, ak->vars[e->var]->name);
    if (r->progs[i]) verify_result_print(vr, ak, stdout);
    else printf("no program in the report\n");
    return;
  }
  cJSON *jt = cJSON_CreateObject();
  cJSON_AddNumberToObject(jt, "task", e->task);
  cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
  cJSON_AddItemToArray(outs, cJSON_CreateString(ak->vars[e->var]->name));
  if (e->program) cJSON_AddStringToObject(jt, "program", e->program);
  else cJSON_AddNullToObject(jt, "program");
  cJSON *jv = cJSON_AddObjectToObject(jt, "verify");
  if (r->progs[i]) {
    cJSON_AddStringToObject(jv, "verdict", verify_verdict_word(vr->verdict, vr->assumes, 1));
    cJSON_AddStringToObject(jv, "mode", verify_mode_name(vr->mode));
    cJSON_AddNumberToObject(jv, "bound", vr->bound);
    cJSON_AddNumberToObject(jv, "size_cases", (double)vr->size_cases);
    cJSON_AddNumberToObject(jv, "cases_left_out", (double)vr->cases_left_out);
    cJSON *as = cJSON_AddArrayToObject(jv, "assumes");
    for (int a = 0; a < VERIFY_ASSUMES_ALL && vr->verdict == VERIFY_PROVED; a++)
      if (vr->assumes & (1u << a))
        cJSON_AddItemToArray(as, cJSON_CreateString(verify_assumes_name(a, 1)));
    cJSON_AddBoolToObject(jv, "all_sizes", vr->all_sizes);
    if (!vr->all_sizes)
      cJSON_AddStringToObject(jv, "all_sizes_reason",
                              vr->all_sizes_reason[0] ? vr->all_sizes_reason
                                                      : VERIFY_ALL_SIZES_REASON);
    cJSON_AddNumberToObject(jv, "smt_steps", (double)vr->steps);
    cJSON_AddNumberToObject(jv, "steps_used", (double)vr->steps_used);
    cJSON_AddNumberToObject(jv, "smt_timeout", verify_get_options(vs->v)->timeout);
    cJSON_AddNumberToObject(jv, "seconds", vr->seconds);
    if (vr->reason[0]) cJSON_AddStringToObject(jv, "reason", vr->reason);
  } else {
    cJSON_AddStringToObject(jv, "verdict", "missing");
  }
  cJSON_AddItemToArray(jtasks, jt);
}

/* Print every task output the report does not cover; returns how many. */
static int print_missing(const pipe_report *r, cJSON *jtasks) {
  const poly_analysis *a = r->a;
  const ir_kernel *ak = a->kernel;
  int missing = 0;
  for (int ti = 0; ti < a->ntasks; ti++)
    for (int o = 0; o < a->tasks[ti].noutputs; o++) {
      int var = a->tasks[ti].outputs[o].var;
      if (pipe_report_covers(r, ti, var)) continue;
      missing++;
      if (!jtasks) {
        printf("task %d (%s): missing from the report\n", ti, ak->vars[var]->name);
        continue;
      }
      cJSON *jt = cJSON_CreateObject();
      cJSON_AddNumberToObject(jt, "task", ti);
      cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
      cJSON_AddItemToArray(outs, cJSON_CreateString(ak->vars[var]->name));
      cJSON_AddNullToObject(jt, "program");
      cJSON *jv = cJSON_AddObjectToObject(jt, "verify");
      cJSON_AddStringToObject(jv, "verdict", "missing");
      cJSON_AddItemToArray(jtasks, jt);
    }
  return missing;
}

/* Check r's rebuilt programs with vs, or, for a sequence or a kept loop
 * whose body is one, each item's, recursively (each item's entries
 * numbered in the item, after a line naming it: `part 1 of 1 (line 80) >
 * part 2 of 2 (line 88):`); count them by their verdict word. */
static void check_node(const pipe_report *r, const char *path, pipe_verify_state *vs,
                       cJSON *jtasks, int json, const char **words, int *nwords, int *nword,
                       int *nproved, int *nchecked, int *nscalar, int *status) {
  if (r->scalar) { /* the source's statements, run as written (pipe_report.scalar) */
    (*nscalar)++;
    if (!json)
      printf("scalar item: %d statement%s run as written, as the source has them (verdict: "
             "scalar, nothing to prove)\n", r->a->nstmts, r->a->nstmts == 1 ? "" : "s");
    return;
  }
  for (int pi = 0; pi < r->nparts; pi++) {
    const pipe_report *p = &r->parts[pi];
    double line = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p->json, "line"));
    ir_buf b = {0};
    ir_buf_printf(&b, "%s%spart %d of %d (line %d)", path, *path ? " > " : "", pi + 1, r->nparts,
                  line > 0 ? (int)line : 0);
    if (!json && !p->nparts) printf("%s:\n", ir_buf_str(&b));
    check_node(p, ir_buf_str(&b), vs, jtasks, json, words, nwords, nword, nproved, nchecked,
               nscalar, status);
    ir_buf_free(&b);
  }
  if (r->nparts) return;
  for (int i = 0; i < r->nents; i++) {
    (*nchecked)++;
    int proved = pipe_report_check(r, i, vs);
    *nproved += proved;
    if (proved) {
      const char *w = verify_verdict_word(VERIFY_PROVED, vs->last->assumes, 0);
      int wi = 0;
      while (wi < *nwords && strcmp(words[wi], w)) wi++;
      if (wi == *nwords) words[(*nwords)++] = w;
      nword[wi]++;
    }
    if (!proved) *status = IR_EXIT_MISMATCH;
    print_entry(r, i, vs, jtasks);
  }
  int missing = print_missing(r, jtasks);
  *nchecked += missing;
  if (missing) *status = IR_EXIT_MISMATCH;
}

/* Check every rebuilt program with vs and print the results.  Returns the
 * exit status. */
static int check_all(const vjob *j, pipe_verify_state *vs, const verify_options *vo, int json) {
  const ir_kernel *ak = j->r.a->kernel;
  cJSON *out = NULL, *jtasks = NULL;
  if (json) {
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "kernel", ak->name);
    cJSON_AddStringToObject(out, "file", j->path);
    cJSON_AddStringToObject(out, "report", j->rpath);
    cJSON_AddStringToObject(out, "dialect", j->r.d->name);
    jtasks = cJSON_AddArrayToObject(out, "tasks");
  }
  /* proofs by their verdict word: [0] proved, then the conditional ones
   * (verify_verdict_word) in the order met */
  const char *words[VERIFY_ASSUMES_CONDITIONAL + 2] = {"proved"};
  int nwords = 1, nword[VERIFY_ASSUMES_CONDITIONAL + 2] = {0};
  int nproved = 0, nchecked = 0, nscalar = 0, status = IR_EXIT_OK;
  check_node(&j->r, "", vs, jtasks, json, words, &nwords, nword, &nproved, &nchecked, &nscalar,
             &status);
  if (json) {
    /* what is proved is the tasks: scalar items are the original's
     * statements, counted apart, and a kernel with one is not "proved" */
    cJSON_AddBoolToObject(out, "proved", status == IR_EXIT_OK && !nscalar);
    cJSON_AddBoolToObject(out, "tasks_proved", status == IR_EXIT_OK);
    cJSON_AddNumberToObject(out, "scalar_items", nscalar);
    char *text = cJSON_Print(out);
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(out);
  } else {
    printf("%s: %d of %d task outputs proved (%s, bound %d)", ak->name, nword[0], nchecked,
           verify_mode_name(vo->mode), vo->bound);
    for (int wi = 1; wi < nwords; wi++) printf(", %d %s", nword[wi], words[wi]);
    if (nscalar)
      printf("; %d scalar item%s (run as written, not proved)", nscalar, nscalar == 1 ? "" : "s");
    printf("\n");
  }
  return status;
}

static int run(const char *path, const char *rpath, const fe_options *fe,
               const verify_options *vo, int json) {
  vjob j;
  memset(&j, 0, sizeof j);
  j.path = path;
  j.rpath = rpath;
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  pipe_verify_state vs;
  memset(&vs, 0, sizeof vs);
  ir_error err;
  pipe_error pe = pipe_report_load(path, rpath, fe, &arena, &store, &j.r, &err);
  int status = pe ? print_load_error(&j, pe) : 0;
  if (!status && pipe_verify_state_open(&vs, vo)) {
    fprintf(stderr, "uplift verify: cannot set up Z3\n");
    status = IR_EXIT_MISMATCH;
  }
  if (!status) status = check_all(&j, &vs, vo, json);
  pipe_verify_state_free(&vs);
  pipe_verify_state_close(&vs);
  pipe_report_free(&j.r);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}

/* Whether the file at path starts (after blanks) with '{': a JSON
 * document, which no C file is. */
static int looks_like_json(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  int c;
  while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r') {
  }
  fclose(f);
  return c == '{';
}

int cli_cmd_verify(int argc, char **argv) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      CLI_VERIFY_LONGOPTS,
      {"json", no_argument, NULL, OPT_JSON},
      CLI_BUDGET_LONGOPTS,
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  verify_options vo;
  verify_options_default(&vo);
  int json = 0;
  long memory_mb = 4096;
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("verify", c, optarg, &fe);
    if (!r) r = cli_verify_option("verify", c, optarg, &vo, 0);
    if (!r) r = cli_budget_option("verify", c, optarg, &vo.budget, &memory_mb);
    if (r < 0) goto usage_fail;
    if (r > 0) continue;
    switch (c) {
    case 'h':
      pipe_fe_options_free(&fe);
      usage(stdout);
      return IR_EXIT_OK;
    case OPT_JSON: json = 1; break;
    default:
      pipe_fe_options_free(&fe);
      return cli_unknown_option("verify", c, argv);
    }
  }
  if (argc - optind != 2) {
    pipe_fe_options_free(&fe);
    return cli_usage_error("verify", "expects FILE.c and REPORT.json");
  }
  if (looks_like_json(argv[optind])) {
    pipe_fe_options_free(&fe);
    return cli_usage_error("verify",
                           "%s is a JSON report, not a C file: the arguments are "
                           "FILE.c REPORT.json, in that order (swapped?)",
                           argv[optind]);
  }
  cli_budget_start("verify", vo.budget, memory_mb, IR_EXIT_MISMATCH);
  int status = run(argv[optind], argv[optind + 1], &fe, &vo, json);
  pipe_fe_options_free(&fe);
  return status;
usage_fail:
  pipe_fe_options_free(&fe);
  return IR_EXIT_BAD_INPUT;
}
