/*
 * cmd_explore.c - `uplift explore`: what a dialect can express.
 *
 * With --inputs, runs the enumerator without a goal (enum_explore) and
 * tallies, per program size and result type, the observationally distinct
 * functions found, the candidates dropped as equal to one of them, and the
 * first (smallest) program of each; per size also the enumerator's counters.
 * With --targets DIR, raises every C file in DIR with each dialect of the comma
 * list (pipe_raise_file, no verification) and prints the coverage matrix.  Text or --json.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"

#define MAXLV 16
#define MAXTY 128

typedef struct tally {
  const ir_kernel *k;
  int max_ops;
  int ntypes;
  ir_type types[MAXTY];
  long distinct[MAXLV][MAXTY], equal[MAXLV][MAXTY];
  const ir_tnode *smallest[MAXLV][MAXTY];
  enum_stats at[MAXLV]; /* cumulative stats after each level */
  int levels_done;
} tally;

static int tindex(tally *t, const ir_type *ty) {
  for (int i = 0; i < t->ntypes; i++)
    if (ir_type_equal(&t->types[i], ty)) return i;
  if (t->ntypes == MAXTY) return -1;
  t->types[t->ntypes] = *ty;
  return t->ntypes++;
}

static void on_keep(void *u, const ir_tnode *n, int level) {
  tally *t = u;
  int i = tindex(t, &n->type);
  if (i < 0 || level >= MAXLV) return;
  if (!t->smallest[level][i]) t->smallest[level][i] = n;
  t->distinct[level][i]++;
}

static void on_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  (void)rep;
  tally *t = u;
  int i = tindex(t, &n->type);
  if (i < 0 || level >= MAXLV) return;
  t->equal[level][i]++;
}

static void on_level(void *u, int level, const enum_stats *s) {
  tally *t = u;
  if (level >= MAXLV) return;
  t->at[level] = *s;
  t->levels_done = level + 1;
}

static enum_stats level_delta(const tally *t, int l) {
  enum_stats d = t->at[l];
  if (l > 0) {
    d.enumerated -= t->at[l - 1].enumerated;
    d.static_filtered -= t->at[l - 1].static_filtered;
    d.evaluated -= t->at[l - 1].evaluated;
    d.equivalence_filtered -= t->at[l - 1].equivalence_filtered;
  }
  return d;
}

static void print_text(const tally *t, const char *dialect, FILE *out) {
  char tb[128], pb[512];
  fprintf(out, "dialect %s, programs of at most %d ops\n", dialect, t->max_ops);
  long total = 0;
  for (int l = 0; l < t->levels_done; l++) {
    enum_stats d = level_delta(t, l);
    long dist = 0;
    for (int i = 0; i < t->ntypes; i++) dist += t->distinct[l][i];
    total += dist;
    fprintf(out, "\nsize %d: %ld distinct, %ld enumerated, %ld filtered by type, "
            "%ld evaluated, %ld equivalent\n", l, dist, d.enumerated, d.static_filtered,
            d.evaluated, d.equivalence_filtered);
    for (int i = 0; i < t->ntypes; i++) {
      if (!t->distinct[l][i] && !t->equal[l][i]) continue;
      fprintf(out, "  %-16s %6ld distinct %6ld equivalent  smallest: %s\n",
              ir_type_str(&t->types[i], t->k, tb, sizeof tb), t->distinct[l][i],
              t->equal[l][i],
              t->smallest[l][i] ? ir_tp_str(t->smallest[l][i], t->k, pb, sizeof pb) : "-");
    }
  }
  fprintf(out, "\ntotal: %ld distinct functions\n", total);
}

static cJSON *tally_json(const tally *t, const char *dialect, const char *inputs) {
  char tb[128], pb[1024];
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "dialect", dialect);
  cJSON_AddStringToObject(root, "inputs", inputs);
  cJSON_AddNumberToObject(root, "max_ops", t->max_ops);
  cJSON *lv = cJSON_AddArrayToObject(root, "sizes");
  long total = 0;
  for (int l = 0; l < t->levels_done; l++) {
    enum_stats d = level_delta(t, l);
    cJSON *o = cJSON_CreateObject();
    long dist = 0;
    for (int i = 0; i < t->ntypes; i++) dist += t->distinct[l][i];
    total += dist;
    cJSON_AddNumberToObject(o, "ops", l);
    cJSON_AddNumberToObject(o, "distinct", (double)dist);
    cJSON_AddNumberToObject(o, "enumerated", (double)d.enumerated);
    cJSON_AddNumberToObject(o, "static_filtered", (double)d.static_filtered);
    cJSON_AddNumberToObject(o, "evaluated", (double)d.evaluated);
    cJSON_AddNumberToObject(o, "equivalence_filtered", (double)d.equivalence_filtered);
    cJSON *ta = cJSON_AddArrayToObject(o, "types");
    for (int i = 0; i < t->ntypes; i++) {
      if (!t->distinct[l][i] && !t->equal[l][i]) continue;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "type", ir_type_str(&t->types[i], t->k, tb, sizeof tb));
      cJSON_AddNumberToObject(x, "distinct", (double)t->distinct[l][i]);
      cJSON_AddNumberToObject(x, "equivalent", (double)t->equal[l][i]);
      if (t->smallest[l][i])
        cJSON_AddStringToObject(x, "smallest", ir_tp_str(t->smallest[l][i], t->k, pb, sizeof pb));
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

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Op nodes of the raised program (shared subterms once). */
static int prog_ops(const ir_tprog *p) {
  const ir_tnode *nodes[4096];
  int n = ir_tp_topo(p->results, p->nresults, nodes, 4096);
  int ops = 0;
  for (int i = 0; i < n; i++) ops += nodes[i]->kind == IR_TN_OP;
  return n < 0 ? -1 : ops;
}

static int run_targets(const char *dir, const char *dialects, const enum_options *eo,
                       int json, FILE *out) {
  DIR *dp = opendir(dir);
  if (!dp) {
    fprintf(stderr, "uplift explore: cannot open directory %s\n", dir);
    return IR_EXIT_BAD_INPUT;
  }
  char **files = NULL;
  int nf = 0, capf = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    size_t l = strlen(de->d_name);
    if (l < 3 || strcmp(de->d_name + l - 2, ".c")) continue;
    if (nf == capf) {
      capf = capf ? capf * 2 : 16;
      files = ir_realloc(files, sizeof(char *) * (size_t)capf);
    }
    files[nf++] = ir_strdup(de->d_name);
  }
  closedir(dp);
  if (nf) qsort(files, (size_t)nf, sizeof(char *), cmp_str);
  char *dl = ir_strdup(dialects);
  const char *dnames[16];
  int nd = 0;
  for (char *s = strtok(dl, ","); s && nd < 16; s = strtok(NULL, ",")) dnames[nd++] = s;
  int status = IR_EXIT_OK;
  ir_arena darena;
  ir_arena_init(&darena);
  gram_dialect *ds[16];
  for (int j = 0; j < nd; j++)
    if (!(ds[j] = gram_load(dnames[j], &darena))) status = IR_EXIT_BAD_INPUT;
  int *cell = ir_calloc((size_t)(nf * nd + 1), sizeof(int)); /* ops; -1 no; -2 error */
  const char **why = ir_calloc((size_t)(nf * nd + 1), sizeof(char *));
  ir_arena warena; /* reasons */
  ir_arena_init(&warena);
  for (int f = 0; f < nf && status == IR_EXIT_OK; f++) {
    char *path = ir_malloc(strlen(dir) + strlen(files[f]) + 2);
    sprintf(path, "%s/%s", dir, files[f]);
    for (int j = 0; j < nd; j++) {
      ir_arena arena;
      ir_arena_init(&arena);
      ir_tp_store store;
      ir_tp_store_init(&store, &arena);
      pipe_raise_opts po = {.d = ds[j], .search = *eo, .verify = {.mode = VERIFY_NONE}};
      pipe_raised pr;
      char msg[256];
      pipe_error pe = pipe_raise_file(path, &po, &arena, &store, &pr, msg, sizeof msg);
      cell[f * nd + j] = -2;
      if (pe == PIPE_ERR_SOURCE) {
        why[f * nd + j] = "cannot parse";
      } else {
        const enum_result *res = &pr.res;
        int raised = pe == PIPE_OK && res->raised;
        cell[f * nd + j] = raised ? prog_ops(&res->prog) : -1;
        if (!raised)
          why[f * nd + j] = ir_arena_strdup(&warena, res->reason ? res->reason : "internal error");
      }
      ir_tp_store_free(&store);
      ir_arena_free(&arena);
    }
    ir_free(path);
  }
  if (status == IR_EXIT_OK) {
    if (json) {
      cJSON *root = cJSON_CreateObject();
      cJSON_AddNumberToObject(root, "max_ops", eo->max_ops);
      cJSON *da = cJSON_AddArrayToObject(root, "dialects");
      for (int j = 0; j < nd; j++) cJSON_AddItemToArray(da, cJSON_CreateString(dnames[j]));
      cJSON *ka = cJSON_AddArrayToObject(root, "kernels");
      for (int f = 0; f < nf; f++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", files[f]);
        cJSON *c = cJSON_AddObjectToObject(o, "coverage");
        for (int j = 0; j < nd; j++) {
          cJSON *x = cJSON_CreateObject();
          int v = cell[f * nd + j];
          cJSON_AddBoolToObject(x, "expressed", v >= 0);
          if (v >= 0) cJSON_AddNumberToObject(x, "ops", v);
          else cJSON_AddStringToObject(x, "reason", why[f * nd + j] ? why[f * nd + j] : "");
          cJSON_AddItemToObject(c, dnames[j], x);
        }
        cJSON_AddItemToArray(ka, o);
      }
      char *text = cJSON_Print(root);
      fprintf(out, "%s\n", text);
      cJSON_free(text);
      cJSON_Delete(root);
    } else {
      fprintf(out, "%-24s", "kernel");
      for (int j = 0; j < nd; j++) fprintf(out, " %8s", dnames[j]);
      fprintf(out, "\n");
      for (int f = 0; f < nf; f++) {
        fprintf(out, "%-24s", files[f]);
        for (int j = 0; j < nd; j++) {
          int v = cell[f * nd + j];
          if (v >= 0) fprintf(out, " %8d", v);
          else fprintf(out, " %8s", v == -1 ? "-" : "error");
        }
        fprintf(out, "\n");
      }
      fprintf(out, "(ops of the raised program within --max-ops %d per output; - : not expressed)\n",
              eo->max_ops);
    }
  }
  ir_arena_free(&warena);
  ir_free(why);
  ir_free(cell);
  ir_arena_free(&darena);
  ir_free(dl);
  for (int f = 0; f < nf; f++) ir_free(files[f]);
  ir_free(files);
  return status;
}

/* ----------------------------------------------------------------- main */

static void help(FILE *out) {
  fprintf(out,
          "Usage: uplift explore --dialect D --inputs SPEC [options]\n"
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
          "  --memory MB               memory budget (default 4096)\n"
          "  -h, --help                this help\n");
}

enum { OPT_DIALECT = 0x100, OPT_INPUTS, OPT_TARGETS, OPT_JSON };

int cli_cmd_explore(int argc, char **argv) {
  static const struct option longopts[] = {
      {"dialect", required_argument, NULL, OPT_DIALECT},
      {"inputs", required_argument, NULL, OPT_INPUTS},
      {"targets", required_argument, NULL, OPT_TARGETS},
      CLI_SEARCH_LONGOPTS,
      {"json", no_argument, NULL, OPT_JSON},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  enum_options eo;
  enum_default_options(&eo);
  eo.max_ops = 3;
  const char *dialect = NULL, *inputs = NULL, *targets = NULL;
  int json = 0, c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    int r = cli_search_option("explore", c, optarg, 0, MAXLV - 1, &eo);
    if (r < 0) return IR_EXIT_BAD_INPUT;
    if (r > 0) continue;
    switch (c) {
    case 'h': help(stdout); return IR_EXIT_OK;
    case OPT_DIALECT: dialect = optarg; break;
    case OPT_INPUTS: inputs = optarg; break;
    case OPT_TARGETS: targets = optarg; break;
    case OPT_JSON: json = 1; break;
    default: return cli_usage_error("explore", "unknown option");
    }
  }
  if (optind < argc) return cli_usage_error("explore", "unexpected argument '%s'", argv[optind]);
  if (!dialect) return cli_usage_error("explore", "missing --dialect");
  if (!inputs == !targets) return cli_usage_error("explore", "give one of --inputs or --targets");
  cli_budget_start("explore", eo.timeout, eo.memory_mb, IR_EXIT_NOT_RAISED);
  if (targets) return run_targets(targets, dialect, &eo, json, stdout);

  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  int status = IR_EXIT_BAD_INPUT;
  char err[256];
  tally *t = NULL;
  pipe_inputs in;
  pipe_error pe = pipe_inputs_load(inputs, dialect, &arena, &store, &in, err, sizeof err);
  if (pe == PIPE_ERR_INPUTS) cli_usage_error("explore", "--inputs: %s", err);
  if (pe == PIPE_ERR_ELEM) fprintf(stderr, "uplift explore: %s\n", err);
  if (pe != PIPE_OK) goto done;
  const gram_dialect *d = in.d;
  t = ir_calloc(1, sizeof *t);
  t->k = in.k;
  t->max_ops = eo.max_ops;
  enum_explore_hooks h = {on_keep, on_equal, on_level, t};
  enum_stats st;
  int r = enum_explore(in.k, d, in.args, in.nargs, &eo, &h, &store, &st);
  if (r < 0) {
    fprintf(stderr, "uplift explore: internal error\n");
    status = IR_EXIT_MISMATCH;
    goto done;
  }
  if (json) {
    cJSON *root = tally_json(t, d->name, inputs);
    cJSON_AddBoolToObject(root, "complete", r == 0);
    if (r == ENUM_EXPLORE_LIMIT) cJSON_AddStringToObject(root, "limit", enum_limit_text());
    char *text = cJSON_Print(root);
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
  } else {
    print_text(t, d->name, stdout);
    if (r == ENUM_EXPLORE_LIMIT)
      printf("(incomplete: a table limit of the search (%s) left candidates out)\n",
             enum_limit_text());
    else if (r) printf("(stopped early: time or memory budget)\n");
  }
  status = r ? IR_EXIT_NOT_RAISED : IR_EXIT_OK;
done:
  ir_free(t);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}
