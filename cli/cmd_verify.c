/*
 * cmd_verify.c - `uplift verify FILE.c REPORT.json`: re-check a saved raise
 * report.  The kernel is parsed and analysed again; each task entry of the
 * report ("task", "outputs", "program") is rebuilt into a tensor program
 * over the task's input leaves (ir_tp_parse with the report's dialect) and
 * checked with the same callback as `uplift raise` (pipe_verify_cb).  Prints the
 * verdict, mode, bound and seconds per task (or a JSON document).
 */
#include <errno.h>
#include <stdarg.h>
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
          "  --smt-timeout S           seconds per solver query (default 10)\n"
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
          cli_frontend_help);
}

enum { OPT_JSON = 0x200 };

/* A report error: "uplift verify: REPORT: message", status 2. */
static int report_error(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int report_error(const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "uplift verify: %s: error: ", path);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return IR_EXIT_BAD_INPUT;
}

/* One task entry of the report, checked against the analysis. */
typedef struct entry {
  int task, var;
  const char *program; /* NULL: the report has no program */
} entry;

/* Read the report's task entries into ents (arena); returns the count or
 * -1 after reporting the problem. */
static int read_entries(const char *path, const cJSON *root, const poly_analysis *a,
                        ir_arena *arena, entry **ents) {
  const ir_kernel *k = a->kernel;
  const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks");
  if (!cJSON_IsArray(tasks)) {
    report_error(path, "no \"tasks\" array");
    return -1;
  }
  int n = cJSON_GetArraySize(tasks);
  *ents = IR_NEW_N(arena, entry, n + 1);
  int i = 0;
  const cJSON *jt;
  cJSON_ArrayForEach(jt, tasks) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(jt, "task");
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(jt, "outputs");
    const cJSON *prog = cJSON_GetObjectItemCaseSensitive(jt, "program");
    if (!cJSON_IsNumber(t) || !cJSON_IsArray(outs) || cJSON_GetArraySize(outs) != 1 ||
        !cJSON_IsString(cJSON_GetArrayItem(outs, 0)) ||
        !(cJSON_IsString(prog) || cJSON_IsNull(prog))) {
      report_error(path,
                   "tasks[%d]: expected {\"task\": N, \"outputs\": [\"NAME\"], "
                   "\"program\": \"...\" or null}",
                   i);
      return -1;
    }
    int ti = (int)t->valuedouble;
    const char *oname = cJSON_GetArrayItem(outs, 0)->valuestring;
    if (ti < 0 || ti >= a->ntasks || ti != t->valuedouble) {
      report_error(path, "tasks[%d]: task %g does not exist: %s has %d tasks", i,
                   t->valuedouble, k->name, a->ntasks);
      return -1;
    }
    int var = -1;
    for (int o = 0; o < a->tasks[ti].noutputs; o++)
      if (!strcmp(k->vars[a->tasks[ti].outputs[o].var]->name, oname))
        var = a->tasks[ti].outputs[o].var;
    if (var < 0) {
      report_error(path, "tasks[%d]: task %d of %s does not write '%s'", i, ti, k->name, oname);
      return -1;
    }
    (*ents)[i].task = ti;
    (*ents)[i].var = var;
    (*ents)[i].program = cJSON_IsString(prog) ? prog->valuestring : NULL;
    i++;
  }
  return i;
}

/* One `uplift verify`: the kernel, the report, and what was rebuilt. */
typedef struct vjob {
  const char *path, *rpath;
  ir_arena arena;
  ir_tp_store store;
  cJSON *root;
  const gram_dialect *d;
  poly_analysis *a;
  int nents;
  entry *ents;
  pipe_task_setup *setups; /* per task of a */
  const ir_tnode **progs;  /* per entry; NULL: no program */
} vjob;

/* Read the report at j->rpath into j->root; returns 0 or an exit status
 * after reporting the problem. */
static int load_report(vjob *j, const ir_kernel *k) {
  ir_source rep;
  if (ir_source_read(&rep, j->rpath))
    return report_error(j->rpath, "cannot read: %s", ir_read_error(errno));
  j->root = cJSON_Parse(rep.text);
  int status = 0;
  if (!j->root || !cJSON_IsObject(j->root)) {
    const char *at = cJSON_GetErrorPtr();
    int line = 1;
    for (const char *c = rep.text; at && c < at && *c; c++) line += *c == '\n';
    status = report_error(j->rpath, "not a JSON report (malformed near line %d)", line);
  }
  ir_source_free(&rep);
  if (status) return status;
  const cJSON *jk = cJSON_GetObjectItemCaseSensitive(j->root, "kernel");
  const cJSON *jd = cJSON_GetObjectItemCaseSensitive(j->root, "dialect");
  if (!cJSON_IsString(jk) || !cJSON_IsString(jd))
    return report_error(j->rpath,
                        "no \"kernel\" and \"dialect\" strings: not a report of uplift raise --json");
  if (strcmp(jk->valuestring, k->name))
    return report_error(j->rpath, "a report for %s, but %s has %s", jk->valuestring, j->path,
                        k->name);
  if (!(j->d = gram_load(jd->valuestring, &j->arena))) return IR_EXIT_BAD_INPUT;
  return 0;
}

/* Parse the kernel and the report, analyse, and rebuild every program of
 * the report (a bad report is reported before any check).  Returns 0 or
 * an exit status after reporting the problem. */
static int load(vjob *j, const fe_options *fe) {
  ir_kernel *k = fe_parse_file(j->path, fe, &j->arena);
  if (!k) return IR_EXIT_BAD_INPUT;
  int status = load_report(j, k);
  if (status) return status;
  j->a = poly_analyze(k, &j->arena);
  if (j->a->error) {
    fprintf(stderr, "uplift verify: %s: %s\n", j->path, j->a->error);
    return IR_EXIT_BAD_INPUT;
  }
  j->nents = read_entries(j->rpath, j->root, j->a, &j->arena, &j->ents);
  if (j->nents < 0) return IR_EXIT_BAD_INPUT;
  j->setups = IR_NEW_N(&j->arena, pipe_task_setup, j->a->ntasks + 1);
  for (int ti = 0; ti < j->a->ntasks; ti++)
    if (pipe_task_setup_make(j->a, ti, &j->store, &j->arena, &j->setups[ti]))
      return report_error(j->rpath, "task %d: an input has dims that are not size parameters",
                          ti);
  j->progs = IR_NEW_N(&j->arena, const ir_tnode *, j->nents + 1);
  for (int i = 0; i < j->nents; i++) {
    const entry *e = &j->ents[i];
    char msg[1024];
    if (!e->program) continue;
    j->progs[i] = pipe_program_parse(j->a, j->d, &j->setups[e->task], e->task, e->var,
                                     e->program, &j->store, msg, sizeof msg);
    if (!j->progs[i]) return report_error(j->rpath, "%s", msg);
  }
  return 0;
}

/* The result of entry i (checked when it has a program) as JSON or text. */
static void print_entry(const vjob *j, int i, const pipe_verify_state *vs, cJSON *jtasks) {
  const ir_kernel *ak = j->a->kernel;
  const entry *e = &j->ents[i];
  const verify_result *vr = vs->last;
  if (!jtasks) {
    printf("task %d (%s): ", e->task, ak->vars[e->var]->name);
    if (j->progs[i]) verify_result_print(vr, ak, stdout);
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
  if (j->progs[i]) {
    cJSON_AddStringToObject(jv, "verdict", verify_verdict_name(vr->verdict));
    cJSON_AddStringToObject(jv, "mode", verify_mode_name(vr->mode));
    cJSON_AddNumberToObject(jv, "bound", vr->bound);
    cJSON_AddNumberToObject(jv, "size_cases", (double)vr->size_cases);
    cJSON_AddNumberToObject(jv, "cases_left_out", (double)vr->cases_left_out);
    cJSON *as = cJSON_AddArrayToObject(jv, "assumes");
    if (vr->verdict == VERIFY_PROVED && (vr->assumes & VERIFY_ASSUMES_MASKED_ZERO))
      cJSON_AddItemToArray(as, cJSON_CreateString(VERIFY_MASKED_ZERO_JSON));
    cJSON_AddFalseToObject(jv, "all_sizes");
    cJSON_AddStringToObject(jv, "all_sizes_reason", VERIFY_ALL_SIZES_REASON);
    cJSON_AddNumberToObject(jv, "seconds", vr->seconds);
    if (vr->reason[0]) cJSON_AddStringToObject(jv, "reason", vr->reason);
  } else {
    cJSON_AddStringToObject(jv, "verdict", "missing");
  }
  cJSON_AddItemToArray(jtasks, jt);
}

/* Report every task output the report does not cover; returns how many. */
static int print_missing(const vjob *j, cJSON *jtasks) {
  const ir_kernel *ak = j->a->kernel;
  int missing = 0;
  for (int ti = 0; ti < j->a->ntasks; ti++)
    for (int o = 0; o < j->a->tasks[ti].noutputs; o++) {
      int var = j->a->tasks[ti].outputs[o].var, found = 0;
      for (int i = 0; i < j->nents; i++) found |= j->ents[i].task == ti && j->ents[i].var == var;
      if (found) continue;
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

/* Check every rebuilt program with vs and print the results.  Returns the
 * exit status. */
static int check_all(const vjob *j, pipe_verify_state *vs, const verify_options *vo, int json) {
  const ir_kernel *ak = j->a->kernel;
  cJSON *out = NULL, *jtasks = NULL;
  if (json) {
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "kernel", ak->name);
    cJSON_AddStringToObject(out, "file", j->path);
    cJSON_AddStringToObject(out, "report", j->rpath);
    cJSON_AddStringToObject(out, "dialect", j->d->name);
    jtasks = cJSON_AddArrayToObject(out, "tasks");
  }
  int nproved = 0, nchecked = 0, status = IR_EXIT_OK;
  for (int i = 0; i < j->nents; i++) {
    const entry *e = &j->ents[i];
    enum_verify_result r;
    memset(&r, 0, sizeof r);
    nchecked++;
    if (j->progs[i])
      pipe_verify_program(vs, j->a, j->d, &j->setups[e->task], e->task, e->var, j->progs[i], &r);
    int proved = j->progs[i] && r.verdict == ENUM_PROVED;
    nproved += proved;
    if (!proved) status = IR_EXIT_MISMATCH;
    print_entry(j, i, vs, jtasks);
  }
  int missing = print_missing(j, jtasks);
  nchecked += missing;
  if (missing) status = IR_EXIT_MISMATCH;
  if (json) {
    cJSON_AddBoolToObject(out, "proved", status == IR_EXIT_OK);
    char *text = cJSON_Print(out);
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(out);
  } else {
    printf("%s: %d of %d task outputs proved (%s, bound %d)\n", ak->name, nproved, nchecked,
           verify_mode_name(vo->mode), vo->bound);
  }
  return status;
}

static int run(const char *path, const char *rpath, const fe_options *fe,
               const verify_options *vo, int json) {
  vjob j;
  memset(&j, 0, sizeof j);
  j.path = path;
  j.rpath = rpath;
  ir_arena_init(&j.arena);
  ir_tp_store_init(&j.store, &j.arena);
  pipe_verify_state vs;
  memset(&vs, 0, sizeof vs);
  int status = load(&j, fe);
  if (!status && !(vs.v = verify_new(vo))) {
    fprintf(stderr, "uplift verify: cannot set up Z3\n");
    status = IR_EXIT_MISMATCH;
  }
  if (!status) status = check_all(&j, &vs, vo, json);
  pipe_verify_state_free(&vs);
  if (vs.v) verify_free(vs.v);
  cJSON_Delete(j.root);
  ir_tp_store_free(&j.store);
  ir_arena_free(&j.arena);
  return status;
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
  cli_budget_start("verify", vo.budget, memory_mb, IR_EXIT_MISMATCH);
  int status = run(argv[optind], argv[optind + 1], &fe, &vo, json);
  pipe_fe_options_free(&fe);
  return status;
usage_fail:
  pipe_fe_options_free(&fe);
  return IR_EXIT_BAD_INPUT;
}
