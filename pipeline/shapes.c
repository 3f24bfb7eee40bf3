/*
 * shapes.c - the static shapes of `uplift raise`'s MLIR output: the extents
 * a file declares for its kernel's size parameters.  Polybench files
 * declare array parameters as POLYBENCH_2D(C, NI, NJ, ni, nj): the kernel
 * reads C[ni][nj], and the dataset macros NI, NJ give the extents.  The
 * kernel is parsed once more with UPLIFT_DECLARED_EXTENTS, under which
 * uplift's polybench.h declares C[NI][NJ] (the front end makes C a view of
 * region [ni][nj] in that storage); a dim that is a size parameter in the
 * kernel and a constant extent in the second parse gives that size.  A file
 * whose declarators do not change gives nothing, and the output is then
 * dynamic unless --sizes chooses sizes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/pipeline.h"

/* Mark in need[] the size parameters e reads. */
static void sizes_read(const ir_kernel *k, const ir_expr *e, unsigned char *need) {
  if (!e) return;
  if (e->kind == IR_EX_VAR && k->vars[e->var]->kind == IR_VAR_SIZE) need[e->var] = 1;
  for (int i = 0; i < e->nargs; i++) sizes_read(k, e->args[i], need);
}

int pipe_declared_extents(const char *path, const fe_options *fe, const ir_kernel *k,
                          ir_arena *arena, long *sizes) {
  fe_options ext = {0};
  if (fe) ext = *fe;
  const char **defs = ir_calloc((size_t)ext.ndefine + 1, sizeof *defs);
  if (ext.ndefine) memcpy(defs, ext.defines, sizeof *defs * (size_t)ext.ndefine);
  defs[ext.ndefine++] = "UPLIFT_DECLARED_EXTENTS";
  ext.defines = defs;
  /* the second parse may fail where the first did not (a loop bound that
   * fits the extents only under an assumption): its diagnostics are not the
   * user's concern, so stderr is closed for its duration (the front end
   * prints them itself) */
  fflush(stderr);
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0) dup2(null, 2);
  const ir_kernel *d = fe_parse_file(path, &ext, arena);
  fflush(stderr);
  if (saved >= 0 && null >= 0) dup2(saved, 2);
  if (saved >= 0) close(saved);
  if (null >= 0) close(null);
  ir_free(defs);
  unsigned char *need = ir_calloc((size_t)k->nvars + 1, 1), *got = ir_calloc((size_t)k->nvars + 1, 1);
  int ok = d != NULL;
  for (int v = 0; v < k->nvars; v++) sizes[v] = 0;
  for (int v = 0; v < k->nvars; v++) {
    const ir_var *kv = k->vars[v];
    for (int r = 0; r < kv->rank; r++) sizes_read(k, kv->dims[r], need);
    int dv = d ? ir_kernel_find_var(d, kv->name) : -1;
    if (dv < 0 || d->vars[dv]->rank != kv->rank) continue;
    for (int r = 0; r < kv->rank; r++) {
      /* the declared extent: a view's storage (its region is the loops'
       * size parameter, docs/frontend.md), else the dim */
      const ir_expr *a = kv->dims[r];
      const ir_expr *b = d->vars[dv]->store[r] ? d->vars[dv]->store[r] : d->vars[dv]->dims[r];
      if (a->kind != IR_EX_VAR || k->vars[a->var]->kind != IR_VAR_SIZE ||
          b->kind != IR_EX_CONST || b->value < 0)
        continue;
      if (got[a->var] && sizes[a->var] != (long)b->value) ok = 0; /* two extents */
      sizes[a->var] = (long)b->value;
      got[a->var] = 1;
    }
  }
  for (int v = 0; v < k->nvars; v++)
    if (need[v] && !got[v]) ok = 0;
  ir_free(need);
  ir_free(got);
  return ok;
}
