/*
 * explore.c - what `uplift explore` computes (docs/explore.md): with
 * --inputs, the tally of an enumeration without a goal (enum_explore's
 * hooks counted per program size and result type); with --targets, the
 * coverage matrix of a folder of C files raised to each dialect.  The
 * driver (cli/cmd_explore.c) parses the options and prints these.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

/* ---------------------------------------------------------------- tally */

/* The row of type ty, added at the end when new. */
static pipe_tally_type *tally_row(pipe_tally *t, const ir_type *ty) {
  for (int i = 0; i < t->ntypes; i++)
    if (ir_type_equal(&t->types[i].type, ty)) return &t->types[i];
  if (t->ntypes == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->types = ir_realloc(t->types, sizeof *t->types * (size_t)t->cap);
  }
  pipe_tally_type *r = &t->types[t->ntypes++];
  memset(r, 0, sizeof *r);
  r->type = *ty;
  return r;
}

static void on_keep(void *u, const ir_tnode *n, int level) {
  pipe_tally *t = u;
  if (level < 0 || level >= PIPE_TALLY_LEVELS) return; /* enum_explore stays below max_ops */
  pipe_tally_type *r = tally_row(t, &n->type);
  if (!r->smallest[level]) r->smallest[level] = n;
  r->distinct[level]++;
}

static void on_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  (void)rep;
  pipe_tally *t = u;
  if (level < 0 || level >= PIPE_TALLY_LEVELS) return;
  tally_row(t, &n->type)->equal[level]++;
}

static void on_level(void *u, int level, const enum_stats *s) {
  pipe_tally *t = u;
  if (level < 0 || level >= PIPE_TALLY_LEVELS) return;
  t->at[level] = *s;
  t->levels_done = level + 1;
}

int pipe_explore(const pipe_inputs *in, const enum_options *eo, ir_tp_store *store,
                 pipe_tally *t, ir_error *err) {
  memset(t, 0, sizeof *t);
  t->k = in->k;
  t->max_ops = eo->max_ops;
  const ir_pos nowhere = {0};
  if (eo->max_ops < 0 || eo->max_ops >= PIPE_TALLY_LEVELS)
    return ir_error_set(err, nowhere, IR_ERR_RANGE, "the tally counts programs of at most %d ops",
                        PIPE_TALLY_LEVELS - 1);
  enum_explore_hooks h = {on_keep, on_equal, on_level, t};
  enum_stats st;
  int r = enum_explore(in->k, in->d, in->args, in->nargs, eo, &h, store, &st);
  if (r < 0) return ir_error_set(err, nowhere, IR_ERR_INTERNAL, "internal error");
  return r;
}

enum_stats pipe_tally_level(const pipe_tally *t, int l) {
  enum_stats d = t->at[l];
  if (l > 0) {
    d.enumerated -= t->at[l - 1].enumerated;
    d.static_filtered -= t->at[l - 1].static_filtered;
    d.evaluated -= t->at[l - 1].evaluated;
    d.equivalence_filtered -= t->at[l - 1].equivalence_filtered;
  }
  return d;
}

long pipe_tally_distinct(const pipe_tally *t, int l) {
  long n = 0;
  for (int i = 0; i < t->ntypes; i++) n += t->types[i].distinct[l];
  return n;
}

void pipe_tally_free(pipe_tally *t) {
  ir_free(t->types);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------- coverage */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Op nodes of the raised program (shared subterms once); -1 if the
 * program cannot be walked. */
static int prog_ops(const ir_tprog *p) {
  int cap = 256, n;
  const ir_tnode **nodes = NULL;
  for (;;) {
    nodes = ir_realloc(nodes, sizeof *nodes * (size_t)cap);
    n = ir_tp_topo(p->results, p->nresults, nodes, cap);
    if (n >= 0 || cap > (1 << 24)) break;
    cap *= 4;
  }
  int ops = 0;
  for (int i = 0; i < n; i++) ops += nodes[i]->kind == IR_TN_OP;
  ir_free(nodes);
  return n < 0 ? -1 : ops;
}

/* The C files of dir, sorted by name, into cov->files. */
static int list_c_files(const char *dir, pipe_coverage *cov, ir_error *err) {
  DIR *dp = opendir(dir);
  if (!dp) {
    const ir_pos nowhere = {0};
    return ir_error_set(err, nowhere, IR_ERR_INPUT, "cannot open directory %s", dir);
  }
  int cap = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    size_t l = strlen(de->d_name);
    if (l < 3 || strcmp(de->d_name + l - 2, ".c")) continue;
    if (cov->nfiles == cap) {
      cap = cap ? cap * 2 : 16;
      cov->files = ir_realloc(cov->files, sizeof(char *) * (size_t)cap);
    }
    cov->files[cov->nfiles++] = ir_strdup(de->d_name);
  }
  closedir(dp);
  if (cov->nfiles) qsort(cov->files, (size_t)cov->nfiles, sizeof(char *), cmp_str);
  return 0;
}

/* Raise file f of the coverage with dialect j into its cell. */
static void coverage_cell(pipe_coverage *cov, const char *path, int f, int j,
                          const gram_dialect *d, const fe_options *fe, const enum_options *eo,
                          const pipe_raise_hooks *hooks) {
  int at = f * cov->ndialects + j;
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  pipe_raise_opts po = {.fe = fe, .d = d, .search = *eo, .verify = {.mode = VERIFY_NONE},
                          .hooks = hooks};
  pipe_raised pr;
  pipe_error pe = pipe_raise_file(path, &po, &arena, &store, &pr, NULL);
  cov->ops[at] = -2;
  if (pe == PIPE_ERR_SOURCE) {
    cov->reasons[at] = "cannot parse";
  } else {
    const enum_result *res = &pr.res;
    int raised = pe == PIPE_OK && res->raised;
    int ops = 0; /* a sequence: its parts' */
    for (const enum_result *r = res; raised && r; r = r->then) ops += prog_ops(&r->prog);
    cov->ops[at] = raised ? ops : -1;
    if (!raised)
      cov->reasons[at] =
          ir_arena_strdup(&cov->arena, res->reason ? res->reason : "internal error");
  }
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

pipe_error pipe_coverage_build(const char *dir, const char *const *dialects, int ndialects,
                               const fe_options *fe, const enum_options *eo,
                               const pipe_coverage_watch *w, pipe_coverage *cov, ir_error *err) {
  memset(cov, 0, sizeof *cov);
  ir_arena_init(&cov->arena);
  cov->dialects = dialects;
  cov->ndialects = ndialects;
  if (list_c_files(dir, cov, err)) return PIPE_ERR_INPUTS;
  const gram_dialect **ds = ir_calloc((size_t)ndialects + 1, sizeof *ds);
  pipe_error pe = PIPE_OK;
  for (int j = 0; j < ndialects; j++)
    if (!(ds[j] = gram_load(dialects[j], &cov->arena))) pe = PIPE_ERR_DIALECT;
  size_t ncells = (size_t)cov->nfiles * (size_t)ndialects + 1;
  cov->ops = ir_calloc(ncells, sizeof *cov->ops);
  cov->reasons = ir_calloc(ncells, sizeof *cov->reasons);
  for (int f = 0; f < cov->nfiles && pe == PIPE_OK; f++) {
    char *path = ir_malloc(strlen(dir) + strlen(cov->files[f]) + 2);
    sprintf(path, "%s/%s", dir, cov->files[f]);
    for (int j = 0; j < ndialects; j++) {
      if (w && w->cell) w->cell(w->user, cov, f, j);
      coverage_cell(cov, path, f, j, ds[j], fe, eo, w ? w->raise : NULL);
    }
    ir_free(path);
  }
  ir_free(ds);
  return pe;
}

void pipe_coverage_free(pipe_coverage *cov) {
  for (int f = 0; f < cov->nfiles; f++) ir_free(cov->files[f]);
  ir_free(cov->files);
  ir_free(cov->ops);
  ir_free(cov->reasons);
  ir_arena_free(&cov->arena);
  memset(cov, 0, sizeof *cov);
}
