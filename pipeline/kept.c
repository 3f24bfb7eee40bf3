/*
 * kept.c - raising inside a kept sequential loop (issue 14; docs/analyze.md,
 * "Kept loops"; docs/architecture.md section 3, ir_tloop).
 *
 * When the analysis keeps a loop (polyhedral/keep.c), the program form is
 * the kept loop around the raised program of its body, with the arrays the
 * body writes carried from one iteration to the next.  What is built: one
 * outermost kept loop that is the kernel's only statement, that holds no
 * kept loop and no scalar statement, and whose body does not read its
 * iterator (a time-step loop).  Its body is then an ordinary kernel (the
 * kernel with the loop removed: the same variables, the body's statements),
 * raised and verified as any kernel (a local that carries a value from one
 * iteration to the next would start as poison there: refused); since the
 * iterator does not occur, the proof of the body is the proof of every
 * iteration.  Anything else keeps
 * the analysis of the whole kernel (refused as before), with the reason in
 * pipe_kept.why_not.
 */
#include <string.h>

#include "pipeline/pipeline.h"

/* Why a's kept loops are not raised inside (NULL: they are). */
static const char *unsupported(const poly_analysis *a, ir_arena *arena) {
  const poly_kept_loop *kl = &a->kept[0];
  const ir_kernel *k = a->kernel;
  if (a->nkept > 1) return "more than one kept loop (nested or in sequence)";
  if (a->nscalar) return "statements stay scalar";
  if (a->nprelude || k->body != kl->loop || kl->loop->next)
    return "statements outside the kept loop";
  for (int i = 0; i < a->ndeps; i++) { /* the body program carries parameters only */
    const poly_dep *d = &a->deps[i];
    ir_var_kind vk = k->vars[d->var]->kind;
    if (d->kind == POLY_DEP_FLOW && (vk == IR_VAR_LOCAL || vk == IR_VAR_LOCAL_ARRAY) &&
        kl->level < 32 && ((d->levels >> kl->level) & 1u))
      return ir_arena_printf(arena, "the local %s carries a value from one iteration to the next",
                             k->vars[d->var]->name);
  }
  if (ir_stmts_read(kl->loop->body, kl->iter))
    return ir_arena_printf(arena, "the body reads the kept iterator %s",
                           k->vars[kl->iter]->name);
  return NULL;
}

poly_analysis *pipe_analyze(const ir_kernel *k, ir_arena *arena, pipe_kept *kept) {
  memset(kept, 0, sizeof *kept);
  poly_analysis *a = poly_analyze(k, arena);
  if (!a || a->error || a->raisable || a->nkept == 0) return a;
  if ((kept->why_not = unsupported(a, arena))) return a;
  const poly_kept_loop *kl = &a->kept[0];
  ir_kernel *body = IR_NEW(arena, ir_kernel);
  *body = *a->kernel;
  body->body = kl->loop->body;
  poly_analysis *ba = poly_analyze(body, arena);
  if (!ba || ba->error || !ba->raisable || ba->nkept) {
    kept->why_not = "its body is not raisable as a kernel of its own";
    return a;
  }
  kept->outer = a;
  kept->kept = 0;
  kept->loop.iter = kl->iter;
  kept->loop.lo = kl->loop->lo;
  kept->loop.hi = kl->loop->hi;
  return ba;
}
