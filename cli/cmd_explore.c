/*
 * cmd_explore.c - `uplift explore`: what a dialect can express.
 *
 * With --inputs, prints the tally of pipe_explore: per program size and
 * result type, the observationally distinct functions the enumerator found
 * without a goal, the candidates dropped as equal to one of them, and the
 * first (smallest) program of each; per size also the enumerator's counters.
 * With --targets DIR, prints the coverage matrix of pipe_coverage_build
 * (every C file in DIR raised to each dialect of the comma list, no
 * verification).  Text or --json.  The computing is in pipeline/explore.c.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"

static void print_text(const pipe_tally *t, const char *dialect, FILE *out) {
  char tb[128], pb[512];
  fprintf(out, "dialect %s, programs of at most %d ops\n", dialect, t->max_ops);
  long total = 0;
  for (int l = 0; l < t->levels_done; l++) {
    enum_stats d = pipe_tally_level(t, l);
    long dist = pipe_tally_distinct(t, l);
    total += dist;
    fprintf(out, "\nsize %d: %ld distinct, %ld enumerated, %ld filtered by type, "
            "%ld evaluated, %ld equivalent\n", l, dist, d.enumerated, d.static_filtered,
            d.evaluated, d.equivalence_filtered);
    for (int i = 0; i < t->ntypes; i++) {
      const pipe_tally_type *r = &t->types[i];
      if (!r->distinct[l] && !r->equal[l]) continue;
      fprintf(out, "  %-16s %6ld distinct %6ld equivalent  smallest: %s\n",
              ir_type_str(&r->type, t->k, tb, sizeof tb), r->distinct[l], r->equal[l],
              r->smallest[l] ? ir_tp_str(r->smallest[l], t->k, pb, sizeof pb) : "-");
    }
  }
  fprintf(out, "\ntotal: %ld distinct functions\n", total);
}

static cJSON *tally_json(const pipe_tally *t, const char *dialect, const char *inputs) {
  char tb[128], pb[1024];
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "dialect", dialect);
  cJSON_AddStringToObject(root, "inputs", inputs);
  cJSON_AddNumberToObject(root, "max_ops", t->max_ops);
  cJSON *lv = cJSON_AddArrayToObject(root, "sizes");
  long total = 0;
  for (int l = 0; l < t->levels_done; l++) {
    enum_stats d = pipe_tally_level(t, l);
    cJSON *o = cJSON_CreateObject();
    long dist = pipe_tally_distinct(t, l);
    total += dist;
    cJSON_AddNumberToObject(o, "ops", l);
    cJSON_AddNumberToObject(o, "distinct", (double)dist);
    cJSON_AddNumberToObject(o, "enumerated", (double)d.enumerated);
    cJSON_AddNumberToObject(o, "static_filtered", (double)d.static_filtered);
    cJSON_AddNumberToObject(o, "evaluated", (double)d.evaluated);
    cJSON_AddNumberToObject(o, "equivalence_filtered", (double)d.equivalence_filtered);
    cJSON *ta = cJSON_AddArrayToObject(o, "types");
    for (int i = 0; i < t->ntypes; i++) {
      const pipe_tally_type *r = &t->types[i];
      if (!r->distinct[l] && !r->equal[l]) continue;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "type", ir_type_str(&r->type, t->k, tb, sizeof tb));
      cJSON_AddNumberToObject(x, "distinct", (double)r->distinct[l]);
      cJSON_AddNumberToObject(x, "equivalent", (double)r->equal[l]);
      if (r->smallest[l])
        cJSON_AddStringToObject(x, "smallest", ir_tp_str(r->smallest[l], t->k, pb, sizeof pb));
      else
        cJSON_AddNullToObject(x, "smallest");
      cJSON_AddItemToArray(ta, x);
    }
    cJSON_AddItemToArray(lv, o);
  }
  cJSON_AddNumberToObject(root, "distinct", (double)total);
  return root;
}

/* ------------------------------------------------------------- targets */

static void print_coverage_json(const pipe_coverage *cov, const enum_options *eo, FILE *out) {
  int nd = cov->ndialects;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "max_ops", eo->max_ops);
  cJSON *da = cJSON_AddArrayToObject(root, "dialects");
  for (int j = 0; j < nd; j++) cJSON_AddItemToArray(da, cJSON_CreateString(cov->dialects[j]));
  cJSON *ka = cJSON_AddArrayToObject(root, "kernels");
  for (int f = 0; f < cov->nfiles; f++) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", cov->files[f]);
    cJSON *c = cJSON_AddObjectToObject(o, "coverage");
    for (int j = 0; j < nd; j++) {
      cJSON *x = cJSON_CreateObject();
      int v = cov->ops[f * nd + j];
      cJSON_AddBoolToObject(x, "expressed", v >= 0);
      if (v >= 0) cJSON_AddNumberToObject(x, "ops", v);
      else cJSON_AddStringToObject(x, "reason", cov->reasons[f * nd + j] ? cov->reasons[f * nd + j] : "");
      cJSON_AddItemToObject(c, cov->dialects[j], x);
    }
    cJSON_AddItemToArray(ka, o);
  }
  char *text = cJSON_Print(root);
  fprintf(out, "%s\n", text);
  cJSON_free(text);
  cJSON_Delete(root);
}

static void print_coverage_text(const pipe_coverage *cov, const enum_options *eo, FILE *out) {
  int nd = cov->ndialects;
  fprintf(out, "%-24s", "kernel");
  for (int j = 0; j < nd; j++) fprintf(out, " %8s", cov->dialects[j]);
  fprintf(out, "\n");
  for (int f = 0; f < cov->nfiles; f++) {
    fprintf(out, "%-24s", cov->files[f]);
    for (int j = 0; j < nd; j++) {
      int v = cov->ops[f * nd + j];
      if (v >= 0) fprintf(out, " %8d", v);
      else fprintf(out, " %8s", v == -1 ? "-" : "error");
    }
    fprintf(out, "\n");
  }
  fprintf(out, "(ops of the raised program within --max-ops %d per output; - : not expressed)\n",
          eo->max_ops);
}

/* The progress line of --targets (on a terminal): the file and dialect
 * being raised, and the search's rate. */
typedef struct targets_live {
  cli_progress p;
  const pipe_coverage *cov;
  int f, j;
} targets_live;

static void targets_draw(targets_live *l, const char *what) {
  cli_progress_draw(&l->p, "%s (%d of %d) in %s%s%s", l->cov->files[l->f], l->f + 1,
                    l->cov->nfiles, l->cov->dialects[l->j], what[0] ? ": " : "", what);
}

static void targets_cell(void *user, const pipe_coverage *cov, int f, int j) {
  targets_live *l = user;
  l->cov = cov;
  l->f = f;
  l->j = j;
  targets_draw(l, "");
}

static void targets_searching(void *user, const pipe_raised *pr, int task, long stored,
                              double rate) {
  targets_live *l = user;
  char what[128] = "";
  (void)stored;
  if (rate >= 0) snprintf(what, sizeof what, "task %d of %d, %.0f candidates/s", task + 1,
                          pr->a->ntasks, rate);
  else
    snprintf(what, sizeof what, "task %d of %d", task + 1, pr->a->ntasks);
  targets_draw(l, what);
}

static int run_targets(const char *dir, const char *dialects, const fe_options *fe,
                       const enum_options *eo, int json, FILE *out) {
  char *dl = ir_strdup(dialects);
  int cap = 1; /* one name more than the commas: any number of dialects */
  for (const char *c = dialects; *c; c++) cap += *c == ',';
  const char **dnames = ir_calloc((size_t)cap, sizeof *dnames);
  int nd = 0;
  for (char *s = strtok(dl, ","); s; s = strtok(NULL, ",")) dnames[nd++] = s;
  pipe_coverage cov;
  ir_error err;
  targets_live live;
  memset(&live, 0, sizeof live);
  cli_progress_start(&live.p, "explore", eo->timeout);
  pipe_raise_hooks rh = {NULL, targets_searching, NULL, &live};
  pipe_coverage_watch w = {targets_cell, &rh, &live};
  enum_options teo = *eo;
  teo.progress = live.p.tty;
  pipe_error pe = pipe_coverage_build(dir, dnames, nd, fe, &teo, live.p.tty ? &w : NULL, &cov,
                                      &err);
  cli_progress_end(&live.p);
  if (pe == PIPE_ERR_INPUTS) fprintf(stderr, "uplift explore: %s\n", err.msg);
  if (pe == PIPE_OK) (json ? print_coverage_json : print_coverage_text)(&cov, eo, out);
  pipe_coverage_free(&cov);
  ir_free(dnames);
  ir_free(dl);
  return pe == PIPE_OK ? IR_EXIT_OK : IR_EXIT_BAD_INPUT;
}

/* ----------------------------------------------------------------- main */

static void help(FILE *out) {
  fprintf(out,
          "usage: uplift explore --dialect D --inputs SPEC [options]\n"
          "       uplift explore --dialect D1,D2,... --targets DIR [options]\n"
          "Enumerate every observationally distinct program of at most N ops of a\n"
          "dialect over the given inputs; report per size and result type how many\n"
          "distinct functions exist, how many candidates were enumerated and\n"
          "filtered, and the smallest program of each.  With --targets, say for\n"
          "each DIR/*.c whether each dialect raises it within N ops, and with how\n"
          "many (a coverage matrix).\n\n"
          "  --dialect D               dialect name or file (comma list with --targets)\n"
          "  --inputs SPEC             e.g. \"A:f64[m,k],B:f64[k,n],alpha:f64[]\"\n"
          "                            (dims: names or 1; element type f64 or f32)\n"
          "  --targets DIR             the coverage matrix of DIR/*.c\n"
          "  --max-ops N               largest program size (default 3)\n"
          "  --json                    JSON instead of text\n"
          "  --threads N               evaluation threads (counts do not depend on it)\n"
          "  --seed S                  seed of the random examples (default 1)\n"
          "  --timeout S               time budget in seconds (default 120)\n"
          "  --work M                  work budget: millions of result elements\n"
          "                            computed (default: none; a count, not a clock)\n"
          "  --memory MB               memory budget (default 4096)\n"
          "with --targets, the front-end options of raise:\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 done, 1 the search stopped early (time, work or memory budget,\n"
          "or a table limit), 2 bad input or usage, 3 an internal failure, 4 the\n"
          "dialect has not the --inputs' element type\n",
          cli_frontend_help);
}

enum { OPT_DIALECT = 0x100, OPT_INPUTS, OPT_TARGETS, OPT_JSON };

/* Free what the options allocated and return status. */
static int explore_exit(fe_options *fe, int status) {
  pipe_fe_options_free(fe);
  return status;
}

int cli_cmd_explore(int argc, char **argv) {
  static const struct option longopts[] = {
      {"dialect", required_argument, NULL, OPT_DIALECT},
      {"inputs", required_argument, NULL, OPT_INPUTS},
      {"targets", required_argument, NULL, OPT_TARGETS},
      CLI_SEARCH_LONGOPTS,
      {"json", no_argument, NULL, OPT_JSON},
      {"help", no_argument, NULL, 'h'},
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  int fe_given = 0;
  enum_options eo;
  enum_default_options(&eo);
  eo.max_ops = 3;
  const char *dialect = NULL, *inputs = NULL, *targets = NULL;
  int json = 0, c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("explore", c, optarg, &fe);
    fe_given |= r > 0;
    if (!r) r = cli_search_option("explore", c, optarg, 0, PIPE_TALLY_LEVELS - 1, &eo);
    if (r < 0) return explore_exit(&fe, IR_EXIT_BAD_INPUT);
    if (r > 0) continue;
    switch (c) {
    case 'h': help(stdout); return explore_exit(&fe, IR_EXIT_OK);
    case OPT_DIALECT: dialect = optarg; break;
    case OPT_INPUTS: inputs = optarg; break;
    case OPT_TARGETS: targets = optarg; break;
    case OPT_JSON: json = 1; break;
    default: return explore_exit(&fe, cli_usage_error("explore", "unknown option"));
    }
  }
  const char *why = NULL;
  if (optind < argc) why = "unexpected argument";
  else if (!dialect) why = "missing --dialect";
  else if (!inputs == !targets) why = "give one of --inputs or --targets";
  else if (inputs && fe_given)
    why = "-I, -D and --function read C files: they do not combine with --inputs";
  if (why && optind < argc) cli_usage_error("explore", "%s '%s'", why, argv[optind]);
  else if (why) cli_usage_error("explore", "%s", why);
  if (why) return explore_exit(&fe, IR_EXIT_BAD_INPUT);
  cli_search_budget_start("explore", &eo, IR_EXIT_NOT_RAISED);
  if (targets) return explore_exit(&fe, run_targets(targets, dialect, &fe, &eo, json, stdout));

  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  int status = IR_EXIT_BAD_INPUT;
  ir_error err;
  pipe_tally t = {0};
  pipe_inputs in;
  pipe_error pe = pipe_inputs_load(inputs, dialect, &arena, &store, &in, &err);
  if (pe == PIPE_ERR_INPUTS) cli_usage_error("explore", "--inputs: %s", err.msg);
  if (pe == PIPE_ERR_ELEM) fprintf(stderr, "uplift explore: %s\n", err.msg);
  if (pe != PIPE_OK) {
    status = pipe_exit_status(pe);
    goto done;
  }
  const gram_dialect *d = in.d;
  ir_error xerr;
  cli_progress live;
  cli_progress_start(&live, "explore", eo.timeout);
  enum_observer ob = {cli_progress_search_begins, cli_progress_search_rate, &live};
  if (live.tty) {
    eo.progress = 1;
    enum_set_observer(&ob);
  }
  int r = pipe_explore(&in, &eo, &store, &t, &xerr);
  enum_set_observer(NULL);
  cli_progress_end(&live);
  if (r < 0) {
    fprintf(stderr, "uplift explore: %s\n", xerr.msg);
    status = IR_EXIT_MISMATCH;
    goto done;
  }
  if (json) {
    cJSON *root = tally_json(&t, d->name, inputs);
    cJSON_AddBoolToObject(root, "complete", r == 0);
    if (r == ENUM_EXPLORE_LIMIT) cJSON_AddStringToObject(root, "limit", enum_limit_text());
    char *text = cJSON_Print(root);
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
  } else {
    print_text(&t, d->name, stdout);
    if (r == ENUM_EXPLORE_LIMIT)
      printf("(incomplete: a table limit of the search (%s) left candidates out)\n",
             enum_limit_text());
    else if (r) printf("(stopped early: time, work or memory budget)\n");
  }
  status = r ? IR_EXIT_NOT_RAISED : IR_EXIT_OK;
done:
  pipe_tally_free(&t);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}
