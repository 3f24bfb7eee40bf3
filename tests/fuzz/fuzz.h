/*
 * fuzz.h - what the program-term harnesses share: the tasks that a saved
 * report's programs are parsed against.  The kernels are the benchmark
 * kernels (every .c file of benchmarks/kernels, found next to the
 * executable as uplift finds its own files), each as "gemm" in double and
 * as "gemm-f32" with -D DATA_TYPE_IS_FLOAT (how tosa, which has no f64,
 * raises them); every kernel is parsed and analysed before the first
 * input (LLVMFuzzerInitialize).  An input starts with a header line "DIALECT KERNEL TASK"
 * (e.g. "hlo gemm 0") naming the task; the rest is the program text of a
 * report.  Static functions: each harness is one translation unit.
 */
#ifndef UPLIFT_FUZZ_H
#define UPLIFT_FUZZ_H

#include <glob.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar.h"
#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"

typedef struct fuzz_kernel {
  char name[64];               /* file name without .c: "gemm" or "gemm-f32" */
  char path[PATH_MAX];
  const poly_analysis *a;      /* NULL until an input names the kernel */
} fuzz_kernel;

typedef struct fuzz_world {
  ir_arena arena;
  fuzz_kernel k[128];
  int nk;
  const char *dname[3];
  gram_dialect *d[3];
  ir_tp_syntax syn[3];
} fuzz_world;

static fuzz_world fuzz_w;

/* List the kernels and load the dialects once; aborts when they are
 * missing. */
static void fuzz_world_init(void) {
  static int done;
  if (done) return;
  done = 1;
  fuzz_world *w = &fuzz_w;
  ir_arena_init(&w->arena);
  char dir[PATH_MAX + 32], pat[PATH_MAX + 64];
  if (ir_tree_dir("benchmarks/kernels/gemm.c", "benchmarks/kernels", dir, sizeof dir)) abort();
  snprintf(pat, sizeof pat, "%s/*.c", dir);
  glob_t g;
  if (glob(pat, 0, NULL, &g)) abort();
  for (size_t i = 0; i < g.gl_pathc && w->nk + 2 <= 128; i++)
    for (int ty = 0; ty < 2; ty++) {
      fuzz_kernel *fk = &w->k[w->nk++];
      const char *base = strrchr(g.gl_pathv[i], '/') + 1;
      snprintf(fk->name, sizeof fk->name, "%.*s%s", (int)(strlen(base) - 2), base,
               ty ? "-f32" : "");
      snprintf(fk->path, sizeof fk->path, "%s", g.gl_pathv[i]);
    }
  globfree(&g);
  static const char *names[3] = {"hlo", "linalg", "tosa"};
  for (int i = 0; i < 3; i++) {
    w->dname[i] = names[i];
    w->d[i] = gram_load(names[i], &w->arena);
    if (!w->d[i]) abort();
    gram_term_syntax(w->d[i], &w->syn[i]);
  }
}

/* The analysis of fk, made on first use. */
static const poly_analysis *fuzz_analysis(fuzz_kernel *fk) {
  if (fk->a) return fk->a;
  const char *f32[1] = {"DATA_TYPE_IS_FLOAT"};
  fe_options fo = {0};
  if (strstr(fk->name, "-f32")) fo = (fe_options){.defines = f32, .ndefine = 1};
  ir_kernel *k = fe_parse_file(fk->path, &fo, &fuzz_w.arena);
  if (!k) abort();
  poly_analysis *a = poly_analyze(k, &fuzz_w.arena);
  if (a->error) abort();
  return fk->a = a;
}

/* libFuzzer's set-up hook, run once before the first input and outside
 * the per-input time limit: parse and analyse every kernel now, so that no
 * input pays for an analysis (several seconds for the larger kernels with
 * the sanitizers) and libFuzzer does not take that for a hang. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_world_init();
  for (int i = 0; i < fuzz_w.nk; i++) fuzz_analysis(&fuzz_w.k[i]);
  return 0;
}

/* Split an input into its header's task and the program text (a NUL-
 * terminated heap copy in *text, freed by the caller).  Returns 0, or -1
 * when the header names no known dialect, kernel or task. */
static int fuzz_task(const uint8_t *data, size_t size, const poly_analysis **a, int *task,
                     int *dialect, char **text) {
  fuzz_world_init();
  const uint8_t *nl = memchr(data, '\n', size);
  if (!nl || nl - data > 100) return -1;
  char head[128], dn[32], kn[64];
  memcpy(head, data, (size_t)(nl - data));
  head[nl - data] = 0;
  int t;
  char extra;
  if (sscanf(head, "%31s %63s %d %c", dn, kn, &t, &extra) != 3) return -1;
  *dialect = -1;
  for (int i = 0; i < 3; i++)
    if (!strcmp(dn, fuzz_w.dname[i])) *dialect = i;
  fuzz_kernel *fk = NULL;
  for (int i = 0; i < fuzz_w.nk; i++)
    if (!strcmp(kn, fuzz_w.k[i].name)) fk = &fuzz_w.k[i];
  if (*dialect < 0 || !fk) return -1;
  *a = fuzz_analysis(fk);
  if (t < 0 || t >= (*a)->ntasks) return -1;
  *task = t;
  size_t n = size - (size_t)(nl + 1 - data);
  *text = malloc(n + 1);
  if (!*text) abort();
  memcpy(*text, nl + 1, n);
  (*text)[n] = 0;
  return 0;
}

/* One input parsed as `uplift verify` parses a report's program. */
typedef struct fuzz_prog {
  const poly_analysis *a;
  const ir_kernel *k;  /* a->kernel */
  int task, dialect;
  char *text;          /* the program text (heap) */
  ir_arena arena;
  ir_tp_store store;
  pipe_task_setup ts;   /* the task's input leaves */
  const ir_tnode *p;   /* the program, or NULL when the text is refused */
  ir_error err;         /* why the text was refused */
} fuzz_prog;

/* Parse an input into fp (fuzz_prog_free frees it).  Returns -1, with
 * nothing to free, when the header names no known task. */
static int fuzz_prog_parse(const uint8_t *data, size_t size, fuzz_prog *fp) {
  if (fuzz_task(data, size, &fp->a, &fp->task, &fp->dialect, &fp->text)) return -1;
  fp->k = fp->a->kernel;
  ir_arena_init(&fp->arena);
  ir_tp_store_init(&fp->store, &fp->arena);
  if (pipe_task_setup_make(fp->a, fp->task, &fp->store, &fp->arena, &fp->ts)) abort();
  fp->p = ir_tp_parse(&fp->store, fp->text, fp->k, fp->ts.in_args, fp->ts.nin,
                      &fuzz_w.syn[fp->dialect], &fp->err);
  return 0;
}

static void fuzz_prog_free(fuzz_prog *fp) {
  ir_tp_store_free(&fp->store);
  ir_arena_free(&fp->arena);
  free(fp->text);
}

#endif
