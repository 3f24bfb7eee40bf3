/*
 * cmd_verify.c - `uplift verify FILE.c REPORT.json`: re-check a saved raise
 * report.  The kernel is parsed and analysed again; each task entry of the
 * report ("task", "outputs", "program") is rebuilt into a tensor program
 * over the task's input leaves (ir_tp_parse with the report's dialect) and
 * checked with the same glue as `uplift raise` (cli_verify_cb).  Prints the
 * verdict, mode, bound and seconds per task (or a JSON document).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "enumerator/enumerator.h"
#include "polyhedral/polyhedral.h"
#include "verify/verify.h"

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
          "  --json                    print the results as JSON\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 every task proved, 2 bad input or usage (unreadable or\n"
          "malformed report, unknown op, a report for another kernel), 3 some task\n"
          "not proved (refuted, unknown, error, or missing from the report)\n",
          cli_frontend_help);
}

enum { OPT_JSON = 0x200, OPT_TIMEOUT };

/* Distinct terms of a report's program at most (raised programs have tens). */
enum { VERIFY_MAX_TERMS = 10000 };

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

static int run(const char *path, const char *rpath, const fe_options *fe,
               const verify_options *vo, int json) {
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  cJSON *root = NULL, *out = NULL;
  verify_ctx *v = NULL;
  cli_verify_state vs;
  memset(&vs, 0, sizeof vs);
  int status = IR_EXIT_BAD_INPUT;
  ir_source rep;
  int have_rep = 0;
  ir_kernel *k = fe_parse_file(path, fe, &arena);
  if (!k) goto done;
  if (ir_source_read(&rep, rpath)) {
    report_error(rpath, "cannot read: %s", ir_read_error(errno));
    goto done;
  }
  have_rep = 1;
  root = cJSON_Parse(rep.text);
  if (!root || !cJSON_IsObject(root)) {
    const char *at = cJSON_GetErrorPtr();
    int line = 1;
    for (const char *c = rep.text; at && c < at && *c; c++) line += *c == '\n';
    report_error(rpath, "not a JSON report (malformed near line %d)", line);
    goto done;
  }
  const cJSON *jk = cJSON_GetObjectItemCaseSensitive(root, "kernel");
  const cJSON *jd = cJSON_GetObjectItemCaseSensitive(root, "dialect");
  if (!cJSON_IsString(jk) || !cJSON_IsString(jd)) {
    report_error(rpath, "no \"kernel\" and \"dialect\" strings: not a report of uplift raise --json");
    goto done;
  }
  if (strcmp(jk->valuestring, k->name)) {
    report_error(rpath, "a report for %s, but %s has %s", jk->valuestring, path, k->name);
    goto done;
  }
  gram_dialect *d = gram_load(jd->valuestring, &arena);
  if (!d) goto done;
  poly_analysis *a = poly_analyze(k, &arena);
  if (a->error) {
    fprintf(stderr, "uplift verify: %s: %s\n", path, a->error);
    goto done;
  }
  const ir_kernel *ak = a->kernel;
  entry *ents;
  int nents = read_entries(rpath, root, a, &arena, &ents);
  if (nents < 0) goto done;
  ir_tp_syntax syn;
  gram_term_syntax(d, &syn);
  /* rebuild every program first: a bad report is reported before any check */
  cli_task_setup *setups = IR_NEW_N(&arena, cli_task_setup, a->ntasks + 1);
  for (int ti = 0; ti < a->ntasks; ti++)
    if (cli_task_setup_make(a, ti, &store, &arena, &setups[ti])) {
      report_error(rpath, "task %d: an input has dims that are not size parameters", ti);
      goto done;
    }
  const ir_tnode **progs = IR_NEW_N(&arena, const ir_tnode *, nents + 1);
  const ir_tnode **topo = IR_NEW_N(&arena, const ir_tnode *, VERIFY_MAX_TERMS);
  for (int i = 0; i < nents; i++) {
    if (!ents[i].program) continue;
    char err[512];
    const cli_task_setup *ts = &setups[ents[i].task];
    progs[i] = ir_tp_parse(&store, ents[i].program, ak, ts->in_args, ts->nin, &syn, err,
                           sizeof err);
    if (!progs[i]) {
      report_error(rpath, "task %d (%s): program: %s\n  %s", ents[i].task,
                   ak->vars[ents[i].var]->name, err, ents[i].program);
      goto done;
    }
    /* a huge program would only make a huge query: refused (docs/verify.md) */
    if (ir_tp_topo(&progs[i], 1, topo, VERIFY_MAX_TERMS) < 0) {
      report_error(rpath, "task %d (%s): the program has more than %d distinct terms "
                   "(the limit of uplift verify)", ents[i].task, ak->vars[ents[i].var]->name,
                   VERIFY_MAX_TERMS);
      goto done;
    }
    ir_type want;
    if (!enum_var_type(ak, ents[i].var, &want) && !ir_type_equal(&want, &progs[i]->type)) {
      char b1[128], b2[128];
      report_error(rpath, "task %d (%s): the program has type %s, the output is %s",
                   ents[i].task, ak->vars[ents[i].var]->name,
                   ir_type_str(&progs[i]->type, ak, b1, sizeof b1),
                   ir_type_str(&want, ak, b2, sizeof b2));
      goto done;
    }
  }
  v = verify_new(vo);
  if (!v) {
    fprintf(stderr, "uplift verify: cannot set up Z3\n");
    status = IR_EXIT_MISMATCH;
    goto done;
  }
  vs.v = v;
  status = IR_EXIT_OK;
  int nproved = 0, nchecked = 0;
  cJSON *jtasks = NULL;
  if (json) {
    out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "kernel", ak->name);
    cJSON_AddStringToObject(out, "file", path);
    cJSON_AddStringToObject(out, "report", rpath);
    cJSON_AddStringToObject(out, "dialect", d->name);
    jtasks = cJSON_AddArrayToObject(out, "tasks");
  }
  for (int i = 0; i < nents; i++) {
    const cli_task_setup *ts = &setups[ents[i].task];
    const char *oname = ak->vars[ents[i].var]->name;
    nchecked++;
    enum_verify_result r;
    memset(&r, 0, sizeof r);
    if (progs[i]) {
      enum_query q = {ak, a, ents[i].task, ts->mask, ts->nin, ts->in_vars, ts->in_args,
                      ents[i].var, progs[i], d};
      cli_verify_cb(&vs, &q, &r);
    }
    int proved = progs[i] && r.verdict == ENUM_PROVED;
    nproved += proved;
    if (!proved) status = IR_EXIT_MISMATCH;
    if (json) {
      cJSON *jt = cJSON_CreateObject();
      cJSON_AddNumberToObject(jt, "task", ents[i].task);
      cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
      cJSON_AddItemToArray(outs, cJSON_CreateString(oname));
      if (ents[i].program) cJSON_AddStringToObject(jt, "program", ents[i].program);
      else cJSON_AddNullToObject(jt, "program");
      cJSON *jv = cJSON_AddObjectToObject(jt, "verify");
      if (progs[i]) {
        cJSON_AddStringToObject(jv, "verdict", verify_verdict_name(vs.last->verdict));
        cJSON_AddStringToObject(jv, "mode", verify_mode_name(vs.last->mode));
        cJSON_AddNumberToObject(jv, "bound", vs.last->bound);
        cJSON_AddNumberToObject(jv, "size_cases", (double)vs.last->size_cases);
        cJSON_AddNumberToObject(jv, "cases_left_out", (double)vs.last->cases_left_out);
        cJSON *as = cJSON_AddArrayToObject(jv, "assumes");
        if (vs.last->verdict == VERIFY_PROVED && (vs.last->assumes & VERIFY_ASSUMES_MASKED_ZERO))
          cJSON_AddItemToArray(as, cJSON_CreateString(VERIFY_MASKED_ZERO_JSON));
        cJSON_AddFalseToObject(jv, "all_sizes");
        cJSON_AddStringToObject(jv, "all_sizes_reason", VERIFY_ALL_SIZES_REASON);
        cJSON_AddNumberToObject(jv, "seconds", vs.last->seconds);
        if (vs.last->reason[0]) cJSON_AddStringToObject(jv, "reason", vs.last->reason);
      } else {
        cJSON_AddStringToObject(jv, "verdict", "missing");
      }
      cJSON_AddItemToArray(jtasks, jt);
    } else {
      printf("task %d (%s): ", ents[i].task, oname);
      if (progs[i]) verify_result_print(vs.last, ak, stdout);
      else printf("no program in the report\n");
    }
  }
  /* every output of every task must be covered by the report */
  for (int ti = 0; ti < a->ntasks; ti++)
    for (int o = 0; o < a->tasks[ti].noutputs; o++) {
      int var = a->tasks[ti].outputs[o].var, found = 0;
      for (int i = 0; i < nents; i++) found |= ents[i].task == ti && ents[i].var == var;
      if (found) continue;
      status = IR_EXIT_MISMATCH;
      nchecked++;
      if (json) {
        cJSON *jt = cJSON_CreateObject();
        cJSON_AddNumberToObject(jt, "task", ti);
        cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
        cJSON_AddItemToArray(outs, cJSON_CreateString(ak->vars[var]->name));
        cJSON_AddNullToObject(jt, "program");
        cJSON *jv = cJSON_AddObjectToObject(jt, "verify");
        cJSON_AddStringToObject(jv, "verdict", "missing");
        cJSON_AddItemToArray(jtasks, jt);
      } else {
        printf("task %d (%s): missing from the report\n", ti, ak->vars[var]->name);
      }
    }
  if (json) {
    cJSON_AddBoolToObject(out, "proved", status == IR_EXIT_OK);
    char *text = cJSON_Print(out);
    printf("%s\n", text);
    cJSON_free(text);
  } else {
    printf("%s: %d of %d task outputs proved (%s, bound %d)\n", ak->name, nproved, nchecked,
           verify_mode_name(vo->mode), vo->bound);
  }
done:
  cli_verify_state_free(&vs);
  if (v) verify_free(v);
  cJSON_Delete(out);
  cJSON_Delete(root);
  if (have_rep) ir_source_free(&rep);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}

int cli_cmd_verify(int argc, char **argv) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      CLI_VERIFY_LONGOPTS,
      {"json", no_argument, NULL, OPT_JSON},
      {"timeout", required_argument, NULL, OPT_TIMEOUT},
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  verify_options vo;
  verify_options_default(&vo);
  int json = 0;
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("verify", c, optarg, &fe);
    if (!r) r = cli_verify_option("verify", c, optarg, &vo, 0);
    if (r < 0) goto usage_fail;
    if (r > 0) continue;
    switch (c) {
    case 'h':
      cli_frontend_options_free(&fe);
      usage(stdout);
      return IR_EXIT_OK;
    case OPT_JSON: json = 1; break;
    case OPT_TIMEOUT: {
      long v;
      if (cli_parse_long("verify", "--timeout", optarg, 1, 86400, &v)) goto usage_fail;
      vo.budget = (double)v;
      break;
    }
    default:
      cli_frontend_options_free(&fe);
      if (c == '?' && optopt)
        return cli_usage_error("verify", "unknown option '-%c' or missing value", optopt);
      return cli_usage_error("verify", "unknown option '%s' or missing value",
                             argv[optind - 1]);
    }
  }
  if (argc - optind != 2) {
    cli_frontend_options_free(&fe);
    return cli_usage_error("verify", "expects FILE.c and REPORT.json");
  }
  int status = run(argv[optind], argv[optind + 1], &fe, &vo, json);
  cli_frontend_options_free(&fe);
  return status;
usage_fail:
  cli_frontend_options_free(&fe);
  return IR_EXIT_BAD_INPUT;
}
