/*
 * test_polyhedral.c - the polyhedral analysis on every kernel file.
 *
 * Two kinds of checks:
 *   - generic properties, over every kernel file found by glob: the
 *     analysis runs and frees everything; tasks partition the statements
 *     and every dependence goes forward in the chain (a legal loop
 *     distribution); every parameter array a task writes is an output; a
 *     statement `X += e` / `X = X + e` / `X = fmax(X, e)` inside a loop L
 *     whose iterator does not index X (and inside which nothing else writes
 *     X) is a reduction over L with that operator; the JSON has the tasks;
 *   - expectations derived from the math of each named kernel (kernels.md):
 *     task counts, reductions, inputs and outputs, non-box regions, and the
 *     kernels that no loop distribution can raise, with the carrying loop
 *     in the reason.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "frontend/frontend.h"
#include "polyhedral/polyhedral.h"
#include "tests/harness.h"

/* ------------------------------------------------------------ helpers */

static int var_id(const poly_analysis *a, const char *name) {
  return ir_kernel_find_var(a->kernel, name);
}

static int expr_eq(const ir_expr *x, const ir_expr *y) {
  if (x->kind != y->kind || x->nargs != y->nargs || x->var != y->var ||
      x->value != y->value)
    return 0;
  for (int i = 0; i < x->nargs; i++)
    if (!expr_eq(x->args[i], y->args[i])) return 0;
  return 1;
}

static int uses_var(const ir_expr *e, int v) {
  if ((e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == v) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (uses_var(e->args[i], v)) return 1;
  return 0;
}

static int has_reduction(const poly_analysis *a, const char *var, poly_red_op op,
                         const char *iter) {
  int v = var_id(a, var), it = var_id(a, iter);
  for (int i = 0; i < a->nreductions; i++) {
    const poly_reduction *r = &a->reductions[i];
    if (r->var != v || r->op != op) continue;
    for (int j = 0; j < r->niters; j++)
      if (r->iters[j] == it) return 1;
  }
  return 0;
}

/* The tasks that write var (bit set over task indices < 64). */
static unsigned long long writers(const poly_analysis *a, const char *var) {
  int v = var_id(a, var);
  unsigned long long m = 0;
  for (int t = 0; t < a->ntasks && t < 64; t++)
    for (int j = 0; j < a->tasks[t].naccess; j++)
      if (a->tasks[t].access[j].var == v && a->tasks[t].access[j].write.kind != POLY_REGION_NONE)
        m |= 1ull << t;
  return m;
}

static const poly_input *input_of(const poly_task *T, int v) {
  for (int i = 0; i < T->ninputs; i++)
    if (T->inputs[i].var == v) return &T->inputs[i];
  return NULL;
}

static const poly_output *output_of(const poly_task *T, int v) {
  for (int i = 0; i < T->noutputs; i++)
    if (T->outputs[i].var == v) return &T->outputs[i];
  return NULL;
}

/* Does region r (kind MASK) have a mask with a constraint
 * d0*x0 + d1*x1 + c0 (>= 0, or == 0 if eq) and no size-parameter terms? */
static int region_has(const poly_region *r, long d0, long d1, long c0, int eq) {
  if (r->kind != POLY_REGION_MASK) return 0;
  for (int m = 0; m < r->nmasks; m++)
    for (int c = 0; c < r->masks[m].ncons; c++) {
      const poly_constraint *k = &r->masks[m].cons[c];
      if (k->rank != 2 || k->is_eq != eq || k->nparams) continue;
      if (k->dim[0] == d0 && k->dim[1] == d1 && k->c0 == c0) return 1;
      if (eq && k->dim[0] == -d0 && k->dim[1] == -d1 && k->c0 == -c0) return 1;
    }
  return 0;
}

/* Some task writes (write=1) or reads var with a constraint as above. */
static int some_region(const poly_analysis *a, const char *var, int write, long d0,
                       long d1, long c0, int eq) {
  int v = var_id(a, var);
  for (int t = 0; t < a->ntasks; t++)
    for (int j = 0; j < a->tasks[t].naccess; j++) {
      const poly_access *ac = &a->tasks[t].access[j];
      if (ac->var == v && region_has(write ? &ac->write : &ac->read, d0, d1, c0, eq))
        return 1;
    }
  return 0;
}

/* Some task writes var on a region smaller than the array, with an output
 * marked partial and an input "old values kept outside". */
static int partial_write(const poly_analysis *a, const char *var) {
  int v = var_id(a, var);
  for (int t = 0; t < a->ntasks; t++) {
    const poly_output *o = output_of(&a->tasks[t], v);
    const poly_input *in = input_of(&a->tasks[t], v);
    if (o && (o->flags & POLY_OUT_PARTIAL) && o->region.kind == POLY_REGION_MASK && in &&
        (in->flags & POLY_IN_OUTSIDE))
      return 1;
  }
  return 0;
}

/* --------------------------------------------------- generic properties */

typedef struct gen_ctx {
  const poly_analysis *a;
  const char *file;
} gen_ctx;

/* Is there a statement other than s writing var v inside loop l? */
static int other_writer_inside(const ir_stmt *body, const ir_stmt *s, int v) {
  for (const ir_stmt *x = body; x; x = x->next) {
    if (x->kind == IR_ST_ASSIGN && x != s && x->lhs->var == v) return 1;
    if (other_writer_inside(x->body, s, v) || other_writer_inside(x->then_body, s, v) ||
        other_writer_inside(x->else_body, s, v))
      return 1;
  }
  return 0;
}

/* The reduction operator a statement is written with, syntactically. */
static poly_red_op syntactic_red(const ir_stmt *s) {
  if (s->op == IR_ASSIGN_ADD) return uses_var(s->rhs, s->lhs->var) ? POLY_RED_NONE : POLY_RED_ADD;
  if (s->op != IR_ASSIGN || s->rhs->nargs != 2) return POLY_RED_NONE;
  const ir_expr *l = s->rhs->args[0], *r = s->rhs->args[1];
  int acc = expr_eq(l, s->lhs) && !uses_var(r, s->lhs->var);
  if (s->rhs->kind == IR_EX_ADD && acc) return POLY_RED_ADD;
  if (s->rhs->kind == IR_EX_CALL && s->rhs->fn == IR_FN_FMAX && acc) return POLY_RED_MAX;
  return POLY_RED_NONE;
}

static int check_reduction_form(const ir_stmt *s, const ir_stmt *const *loops, int depth,
                                void *user) {
  gen_ctx *g = user;
  const poly_analysis *a = g->a;
  poly_red_op op = syntactic_red(s);
  if (op == POLY_RED_NONE || !a->raisable) return 0;
  for (int d = 0; d < depth; d++) {
    const ir_stmt *l = loops[d];
    if (uses_var(s->lhs, l->iter) || other_writer_inside(l->body, s, s->lhs->var)) continue;
    int found = 0;
    for (int r = 0; r < a->nreductions; r++) {
      const poly_reduction *x = &a->reductions[r];
      if (x->stmt != s->id || x->op != op) continue;
      for (int j = 0; j < x->niters; j++) found |= x->iters[j] == l->iter;
    }
    CHECKF(found, "%s: S%d (line %d) is a %s reduction over loop %s", g->file, s->id,
           s->pos.line, poly_red_name(op), a->kernel->vars[l->iter]->name);
  }
  return 0;
}

/* ------------------------------------------------------------ kept loops */

/* The kept loops as one line, for tables: per kept loop (parents first)
 * "ITER" ["<" PARENT_ITER] ["/" DISTANCE] "[" ITEMS "]", ITEMS being
 * "S0+S1" for a task and "@j" for a nested kept loop, loops joined by "; ",
 * then " scalar S1 S3" for the statements that stay scalar. */
static const char *kept_sig(const poly_analysis *a, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = 0;
#define PUT(...) (o += (size_t)snprintf(buf + o, o < n ? n - o : 0, __VA_ARGS__))
  for (int k = 0; k < a->nkept; k++) {
    const poly_kept_loop *K = &a->kept[k];
    PUT("%s%s", k ? "; " : "", a->kernel->vars[K->iter]->name);
    if (K->parent >= 0) PUT("<%s", a->kernel->vars[a->kept[K->parent].iter]->name);
    if (K->has_distance) PUT("/%ld", K->distance);
    PUT("[");
    for (int i = 0; i < K->nbody; i++) {
      const poly_body_item *it = &K->body[i];
      if (it->kept >= 0) PUT("%s@%s", i ? " " : "", a->kernel->vars[a->kept[it->kept].iter]->name);
      else
        for (int j = 0; j < it->nstmts; j++) PUT("%sS%d", j ? "+" : (i ? " " : ""), it->stmts[j]);
    }
    PUT("]");
  }
  if (a->nscalar) PUT(" scalar");
  for (int i = 0; i < a->nscalar; i++) PUT(" S%d", a->scalar[i].stmt);
#undef PUT
  return buf;
}

/* What every kept-loop answer satisfies: none for a raisable kernel;
 * parents first; a kept loop's parameters are its parent's and its own
 * iterator; its body's items hold statements inside it, each once; a
 * scalar statement has every loop kept; the JSON has them all. */
static void kept_generic(const poly_analysis *a, const char *file) {
  if (a->raisable)
    CHECKF(a->nkept == 0 && a->nscalar == 0, "%s: raisable, so no kept loop (%d)", file,
           a->nkept);
  for (int k = 0; k < a->nkept; k++) {
    const poly_kept_loop *K = &a->kept[k];
    int np = K->parent >= 0 ? a->kept[K->parent].nparams : 0;
    CHECKF(K->parent < k, "%s: kept loop %d after its parent", file, k);
    CHECKF(K->nparams == np + 1 && K->params[np] == K->iter && K->loop->iter == K->iter,
           "%s: kept loop %d: parameters", file, k);
    CHECKF(K->nbody > 0, "%s: kept loop %d has a body", file, k);
    for (int i = 0; i < K->nbody; i++)
      for (int j = 0; j < K->body[i].nstmts; j++) {
        const poly_stmt *s = &a->stmts[K->body[i].stmts[j]];
        CHECKF(s->depth > K->level && s->loops[K->level] == K->loop,
               "%s: S%d is inside kept loop %s", file, s->id, a->kernel->vars[K->iter]->name);
      }
    const poly_dep *found = NULL;
    for (int i = 0; i < a->ndeps && !found; i++)
      if (a->deps[i].src == K->src && a->deps[i].dst == K->dst && a->deps[i].var == K->var &&
          a->deps[i].kind == K->kind && (a->deps[i].levels >> K->level) & 1)
        found = &a->deps[i];
    CHECKF(found != NULL && K->kind == POLY_DEP_FLOW,
           "%s: kept loop %s names a flow dependence it carries", file,
           a->kernel->vars[K->iter]->name);
  }
  for (int i = 0; i < a->nscalar; i++) {
    const poly_stmt *s = &a->stmts[a->scalar[i].stmt];
    int all = 1;
    for (int l = 0; l < s->depth; l++) {
      int kept = 0;
      for (int k = 0; k < a->nkept; k++) kept |= a->kept[k].loop == s->loops[l];
      all &= kept;
    }
    CHECKF(all && a->scalar[i].why && strstr(a->scalar[i].why, "every loop around it is kept"),
           "%s: S%d stays scalar with every loop kept (%s)", file, s->id,
           a->scalar[i].why ? a->scalar[i].why : "no reason");
  }
  /* a batch loop holds a kept loop, keeps nothing, and is distributed
   * (why NULL) only when no dependence between its statements is carried
   * by it (checked here against the dependences themselves) */
  for (int b = 0; b < a->nbatch; b++) {
    const poly_batch_loop *B = &a->batch[b];
    int holds = 0, kept = 0, carried = 0;
    for (int k = 0; k < a->nkept; k++) {
      const poly_stmt *s = &a->stmts[a->kept[k].src];
      holds |= a->kept[k].level > B->level && s->loops[B->level] == B->loop;
      kept |= a->kept[k].loop == B->loop;
    }
    for (int i = 0; i < a->ndeps; i++) {
      const poly_dep *d = &a->deps[i];
      const poly_stmt *x = &a->stmts[d->src], *y = &a->stmts[d->dst];
      carried |= x->depth > B->level && x->loops[B->level] == B->loop &&
                 y->depth > B->level && y->loops[B->level] == B->loop &&
                 B->level < d->ncommon && ((d->levels >> B->level) & 1);
    }
    CHECKF(holds && !kept, "%s: batch loop %s holds a kept loop and is not kept", file,
           a->kernel->vars[B->iter]->name);
    CHECKF(!carried || B->why, "%s: batch loop %s carries a dependence, so it is not distributed",
           file, a->kernel->vars[B->iter]->name);
  }
  char *js = poly_to_json(a);
  cJSON *j = cJSON_Parse(js);
  CHECKF(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "batch_loops")) == a->nbatch,
         "%s: JSON has every batch loop", file);
  cJSON *kl = j ? cJSON_GetObjectItem(j, "kept_loops") : NULL;
  cJSON *sc = j ? cJSON_GetObjectItem(j, "scalar_statements") : NULL;
  CHECKF(kl && cJSON_GetArraySize(kl) == a->nkept && sc &&
             cJSON_GetArraySize(sc) == a->nscalar,
         "%s: JSON has every kept loop and scalar statement", file);
  cJSON_Delete(j);
  ir_free(js);
}

static void generic(const poly_analysis *a, const char *file) {
  /* tasks partition the non-prelude statements */
  int *seen = calloc((size_t)a->nstmts + 1, sizeof(int));
  for (int t = 0; t < a->ntasks; t++)
    for (int j = 0; j < a->tasks[t].nstmts; j++) {
      int s = a->tasks[t].stmts[j];
      seen[s]++;
      CHECKF(a->stmts[s].task == t, "%s: S%d knows its task %d", file, s, t);
    }
  for (int i = 0; i < a->nprelude; i++) seen[a->prelude[i]] += 1;
  for (int s = 0; s < a->nstmts; s++)
    CHECKF(seen[s] == 1, "%s: S%d is in exactly one task or the prelude", file, s);
  free(seen);
  /* a legal loop distribution: every dependence goes forward */
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    int ts = a->stmts[d->src].task, td = a->stmts[d->dst].task;
    CHECKF(ts < 0 || ts <= td, "%s: dependence S%d -> S%d goes forward (tasks %d, %d)",
           file, d->src, d->dst, ts, td);
  }
  /* parameter arrays written are outputs; outputs have a written region */
  for (int t = 0; t < a->ntasks; t++) {
    const poly_task *T = &a->tasks[t];
    for (int j = 0; j < T->naccess; j++) {
      const poly_access *ac = &T->access[j];
      if (ac->write.kind == POLY_REGION_NONE) continue;
      if (a->kernel->vars[ac->var]->kind == IR_VAR_ARRAY)
        CHECKF(output_of(T, ac->var) != NULL, "%s: task %d outputs %s", file, t,
               a->kernel->vars[ac->var]->name);
    }
    for (int j = 0; j < T->noutputs; j++)
      CHECKF(T->outputs[j].region.kind != POLY_REGION_NONE, "%s: output region", file);
  }
  gen_ctx g = {a, file};
  ir_kernel_walk_assigns(a->kernel, check_reduction_form, &g);
  /* not raisable comes with a reason naming statements */
  CHECKF(a->raisable == (a->reason == NULL), "%s: a reason iff not raisable", file);
  if (!a->raisable) CHECKF(a->nreason_stmts > 0, "%s: the reason names statements", file);
  /* JSON */
  char *js = poly_to_json(a);
  cJSON *j = cJSON_Parse(js);
  CHECKF(j != NULL, "%s: JSON parses", file);
  cJSON *tasks = j ? cJSON_GetObjectItem(j, "tasks") : NULL;
  CHECKF(tasks && cJSON_GetArraySize(tasks) == a->ntasks, "%s: JSON has every task", file);
  cJSON *rz = j ? cJSON_GetObjectItem(j, "raisable") : NULL;
  CHECKF(rz && cJSON_IsTrue(rz) == a->raisable, "%s: JSON raisable", file);
  cJSON_Delete(j);
  ir_free(js);
  kept_generic(a, file);
}

/* -------------------------------------------------- per-kernel expectations */

typedef struct red {
  const char *var;
  poly_red_op op;
  const char *iter;
} red;

typedef struct expect {
  const char *file;      /* relative to the repository root */
  const char *function;  /* NULL: the only kernel_* */
  int raisable;
  int ntasks;            /* -1: not checked */
  red reds[4];           /* reductions that must be found */
  const char *reason;    /* not raisable: the carrying loop named in the reason */
  const char *kept;      /* not raisable: the kept loops, kept_sig's form */
} expect;

#define ADD POLY_RED_ADD
#define MAX POLY_RED_MAX

/* Derived from the math of kernels.md, one line per kernel:
 * a task per strongly connected component of the statement graph; an
 * initialisation (x = 0, C *= beta) is a task of its own. */
static const expect expects[] = {
    /* C *= beta; C += alpha*A*B over k */
    {"benchmarks/kernels/gemm.c", NULL, 1, 2, {{"C", ADD, "k"}}, NULL, NULL},
    /* tmp = 0; tmp += ; D *= beta; D += tmp*C */
    {"benchmarks/kernels/2mm.c", NULL, 1, 4, {{"tmp", ADD, "k"}, {"D", ADD, "k"}}, NULL, NULL},
    /* E, F, G: each = 0 then += */
    {"benchmarks/kernels/3mm.c", NULL, 1, 6,
     {{"E", ADD, "k"}, {"F", ADD, "k"}, {"G", ADD, "k"}}, NULL, NULL},
    /* y = 0; tmp = 0; tmp += A x over j; y += A^T tmp over i */
    {"benchmarks/kernels/atax.c", NULL, 1, 4, {{"tmp", ADD, "j"}, {"y", ADD, "i"}}, NULL, NULL},
    /* s = 0; q = 0; s += over i; q += over j */
    {"benchmarks/kernels/bicg.c", NULL, 1, 4, {{"s", ADD, "i"}, {"q", ADD, "j"}}, NULL, NULL},
    {"benchmarks/kernels/mvt.c", NULL, 1, 2, {{"x1", ADD, "j"}, {"x2", ADD, "j"}}, NULL, NULL},
    /* tmp = 0; y = 0; tmp +=; y +=; y = alpha*tmp + beta*y */
    {"benchmarks/kernels/gesummv.c", NULL, 1, 5, {{"tmp", ADD, "j"}, {"y", ADD, "j"}}, NULL, NULL},
    /* four loop nests, four tasks */
    {"benchmarks/kernels/gemver.c", NULL, 1, 4, {{"x", ADD, "j"}, {"w", ADD, "j"}}, NULL, NULL},
    /* sum is a parameter array reused for every (r, q): it cannot be
     * expanded, so the three statements stay one task */
    {"benchmarks/kernels/doitgen.c", NULL, 1, 1, {{"sum", ADD, "s"}}, NULL, NULL},
    /* temp2 = 0; C[k][j] +=; temp2 +=; C[i][j] = ...: four tasks */
    {"benchmarks/kernels/symm.c", NULL, 1, 4, {{"temp2", ADD, "k"}, {"C", ADD, "i"}}, NULL, NULL},
    {"benchmarks/kernels/syrk.c", NULL, 1, 2, {{"C", ADD, "k"}}, NULL, NULL},
    {"benchmarks/kernels/syr2k.c", NULL, 1, 2, {{"C", ADD, "k"}}, NULL, NULL},
    {"benchmarks/kernels/trmm.c", NULL, 1, 2, {{"B", ADD, "k"}}, NULL, NULL},
    /* mean: =0, +=, /=; data -=; cov: =0, +=, /=, mirror */
    {"benchmarks/kernels/covariance.c", NULL, 1, 8, {{"mean", ADD, "i"}, {"cov", ADD, "k"}}, NULL, NULL},
    /* mean 3; stddev 5; data 2; corr: diag, 0, +=, mirror, last point */
    {"benchmarks/kernels/correlation.c", NULL, 1, 15,
     {{"mean", ADD, "i"}, {"stddev", ADD, "i"}, {"corr", ADD, "k"}}, NULL, NULL},
    /* plain C99 */
    {"benchmarks/kernels/c99/absdiff.c", NULL, 1, 3, {{"mx", MAX, "i"}}, NULL, NULL},
    {"benchmarks/kernels/c99/dot_total.c", NULL, 1, 2, {{"out", ADD, "i"}}, NULL, NULL},
    {"benchmarks/kernels/c99/exp_scale.c", NULL, 1, 1, {{0}}, NULL, NULL},
    {"benchmarks/kernels/c99/gemv_jloop.c", NULL, 1, 2, {{"y", ADD, "j"}}, NULL, NULL},
    {"benchmarks/kernels/c99/matmul_ikj.c", "matmul_ikj", 1, 2, {{"C", ADD, "k"}}, NULL, NULL},
    /* v = X + b is expanded over i, j so that Y's task can read it */
    {"benchmarks/kernels/c99/relu_bias.c", NULL, 1, 2, {{0}}, NULL, NULL},
    /* s = 0; s += over j; nrm = sqrt(s): s expanded over i */
    {"benchmarks/kernels/c99/row_norms.c", NULL, 1, 3, {{"s", ADD, "j"}}, NULL, NULL},
    {"benchmarks/kernels/c99/saxpy_down.c", NULL, 1, 1, {{0}}, NULL, NULL},
    /* loop-carried dependence cycles: not raisable, with the loop */
    {"tests/kernels/lu.c", NULL, 0, -1, {{0}}, "loop i", NULL},
    {"tests/kernels/cholesky.c", NULL, 0, -1, {{0}}, "loop i", NULL},
    {"tests/kernels/trisolv.c", NULL, 0, -1, {{0}}, "loop i", NULL},
    {"tests/kernels/durbin.c", NULL, 0, -1, {{0}}, "loop k", NULL},
    {"tests/kernels/floyd_warshall.c", NULL, 0, -1, {{0}}, "loop k", NULL},
    {"tests/kernels/seidel2d.c", NULL, 0, -1, {{0}}, "loop t", NULL},
    {"tests/kernels/jacobi1d.c", NULL, 0, -1, {{0}}, "loop t", NULL},
    {"tests/kernels/jacobi2d.c", NULL, 0, -1, {{0}}, "loop t", NULL},
    /* the PolyBench kernels uplift does not raise yet (issue 14), with the
     * loops to keep: a time loop t feeding one step's arrays to the next
     * (distance 1), whose body's sweeps are tasks; a pivot loop (lu,
     * cholesky, ludcmp: i; gramschmidt: k) whose row or column sweep j
     * reads what its earlier iterations wrote, so j is kept too and the
     * division by the pivot (a point) stays scalar; substitutions and
     * durbin's order loop, whose scalar updates stay scalar; in-place
     * sweeps (seidel-2d, floyd-warshall: path[i][k] may change at step k)
     * keep every loop; adi keeps t and each Thomas sweep j (forward +1,
     * backward -1) but not the line loop i between them; deriche keeps
     * each recursion's loop (j on rows, i on columns, -1 anti-causal) */
    {"benchmarks/kernels/partial/adi.c", NULL, 0, -1, {{0}}, "loop j",
     "t/1[S13 S14 S15 @j S18 @j S20 S21 S22 @j S25 @j]; j<t/1[S16 S17]; j<t/-1[S19]; j<t/1[S23 S24]; j<t/-1[S26]"},
    {"benchmarks/kernels/partial/cholesky.c", NULL, 0, -1, {{0}}, "loop i",
     "i[@j S2 S3]; j<i[S0 S1] scalar S1 S3"},
    {"benchmarks/kernels/partial/deriche.c", NULL, 0, -1, {{0}}, "loop j",
     "j/1[S16 S17 S18 S19]; j/-1[S24 S25 S26 S27 S28]; i/1[S33 S34 S35 S36]; i/-1[S41 S42 S43 S44 S45]"},
    {"benchmarks/kernels/partial/durbin.c", NULL, 0, -1, {{0}}, "loop k",
     "k/1[S3 S4 S5 S6 S7 S8 S9] scalar S3 S4 S6 S9"},
    {"benchmarks/kernels/partial/fdtd-2d.c", NULL, 0, -1, {{0}}, "loop t",
     "t/1[S0 S1 S2 S3]"},
    {"benchmarks/kernels/partial/floyd-warshall.c", NULL, 0, -1, {{0}}, "loop k",
     "k/1[@i]; i<k[@j]; j<i[S0] scalar S0"},
    {"benchmarks/kernels/partial/gramschmidt.c", NULL, 0, -1, {{0}}, "loop k",
     "k/1[S0 S1 S2 S3 S4 S5 S6] scalar S0 S2"},
    {"benchmarks/kernels/partial/heat-3d.c", NULL, 0, -1, {{0}}, "loop t",
     "t/1[S0 S1]"},
    {"benchmarks/kernels/partial/jacobi-1d.c", NULL, 0, -1, {{0}}, "loop t",
     "t/1[S0 S1]"},
    {"benchmarks/kernels/partial/jacobi-2d.c", NULL, 0, -1, {{0}}, "loop t",
     "t/1[S0 S1]"},
    {"benchmarks/kernels/partial/lu.c", NULL, 0, -1, {{0}}, "loop i",
     "i[@j S2]; j<i[S0 S1] scalar S1"},
    {"benchmarks/kernels/partial/ludcmp.c", NULL, 0, -1, {{0}}, "loop i",
     "i[@j S3+S4+S5]; i[S6 S7 S8]; i[S9 S10 S11]; j<i[S0 S1 S2] scalar S0 S2 S6 S8 S9 S11"},
    {"benchmarks/kernels/partial/nussinov.c", NULL, 0, -1, {{0}}, "loop i",
     "i/-1[@j]; j<i/1[S0 S1 S2 S3 S4] scalar S0 S1 S2 S3"},
    {"benchmarks/kernels/partial/seidel-2d.c", NULL, 0, -1, {{0}}, "loop t",
     "t/1[@i]; i<t/1[@j]; j<i/1[S0] scalar S0"},
    {"benchmarks/kernels/partial/trisolv.c", NULL, 0, -1, {{0}}, "loop i",
     "i[S0 S1 S2] scalar S0 S2"},
};
#define NEXPECT (int)(sizeof expects / sizeof expects[0])

static const expect *expect_for(const char *file) {
  for (int i = 0; i < NEXPECT; i++)
    if (!strcmp(expects[i].file, file)) return &expects[i];
  return NULL;
}

/* Facts about single kernels that the table cannot say. */
static void specific(const poly_analysis *a, const char *file) {
  const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
  if (!strcmp(base, "gemm.c")) {
    /* the accumulation task reads C from the scaling task, in place */
    const poly_task *T = &a->tasks[1];
    const poly_input *c = input_of(T, var_id(a, "C"));
    CHECK("gemm: C += reads the output of C *= beta, in place",
          c && (c->flags & POLY_IN_TASK) && c->from_task == 0 && (c->flags & POLY_IN_OLD));
    const poly_input *A = input_of(T, var_id(a, "A"));
    CHECK("gemm: A is live-in", A && (A->flags & POLY_IN_LIVEIN));
    const poly_output *o = output_of(T, var_id(a, "C"));
    CHECK("gemm: C is written whole and live-out",
          o && o->region.kind == POLY_REGION_BOX && (o->flags & POLY_OUT_PARAM));
    CHECK("gemm: op hints of the accumulation",
          (T->ops & POLY_OP_MUL) && (T->ops & POLY_OP_RED_ADD));
    CHECK("gemm: no shifted read, so no pad or conv is tried", !(T->ops & POLY_OP_SHIFTED));
  }
  if (!strcmp(base, "2mm.c")) {
    int tmp = var_id(a, "tmp"), D = var_id(a, "D");
    int ok = 0;
    for (int t = 0; t < a->ntasks; t++) {
      const poly_output *o = output_of(&a->tasks[t], tmp);
      if (o && (o->flags & POLY_OUT_READ)) {
        for (int r = 0; r < o->nreaders; r++) {
          const poly_task *R = &a->tasks[o->readers[r]];
          ok |= output_of(R, D) != NULL && input_of(R, tmp) != NULL;
        }
      }
    }
    CHECK("2mm: tmp is an output read by the task computing D", ok);
  }
  if (!strcmp(base, "atax.c") || !strcmp(base, "gesummv.c")) {
    int tmp = var_id(a, "tmp"), last = a->ntasks - 1;
    const poly_input *in = input_of(&a->tasks[last], tmp);
    CHECKF(in && (in->flags & POLY_IN_TASK), "%s: the last task reads tmp from a task", base);
  }
  if (!strcmp(base, "doitgen.c")) {
    const poly_task *T = &a->tasks[0];
    CHECK("doitgen: outputs A and sum", output_of(T, var_id(a, "A")) && output_of(T, var_id(a, "sum")));
  }
  if (!strcmp(base, "symm.c")) {
    CHECK("symm: temp2 expanded over i and j",
          a->transformed && a->nexpanded == 1 && a->expanded[0].var == var_id(a, "temp2") &&
              a->expanded[0].nloops == 2);
    CHECK("symm: A read below the diagonal (i0 > i1)", some_region(a, "A", 0, 1, -1, -1, 0));
    CHECK("symm: A read on the diagonal (i0 == i1)", some_region(a, "A", 0, 1, -1, 0, 1));
    CHECK("symm: C[k][j] += writes only part of C", partial_write(a, "C"));
  }
  if (!strcmp(base, "syrk.c") || !strcmp(base, "syr2k.c")) {
    CHECKF(some_region(a, "C", 1, 1, -1, 0, 0), "%s: C written on the lower triangle i0 >= i1", base);
    CHECKF(partial_write(a, "C"), "%s: new values inside, old outside", base);
    for (int t = 0; t < a->ntasks; t++) {
      const poly_output *o = output_of(&a->tasks[t], var_id(a, "C"));
      CHECKF(o && (o->flags & POLY_OUT_PARTIAL), "%s: task %d writes part of C", base, t);
    }
  }
  if (!strcmp(base, "trmm.c")) {
    CHECK("trmm: A read strictly below the diagonal (i0 > i1)", some_region(a, "A", 0, 1, -1, -1, 0));
    CHECK("trmm: the accumulation writes part of B", partial_write(a, "B"));
    const poly_output *o = output_of(&a->tasks[1], var_id(a, "B"));
    CHECK("trmm: the scaling writes all of B", o && o->region.kind == POLY_REGION_BOX);
  }
  if (!strcmp(base, "covariance.c")) {
    CHECK("covariance: cov written on the upper triangle (i1 >= i0)", some_region(a, "cov", 1, -1, 1, 0, 0));
    CHECK("covariance: cov mirrored onto the lower triangle (i0 >= i1)", some_region(a, "cov", 1, 1, -1, 0, 0));
    const poly_input *m = NULL;
    for (int t = 0; t < a->ntasks && !m; t++)
      if (output_of(&a->tasks[t], var_id(a, "data"))) m = input_of(&a->tasks[t], var_id(a, "mean"));
    CHECK("covariance: centring reads mean from a task", m && (m->flags & POLY_IN_TASK));
  }
  if (!strcmp(base, "correlation.c")) {
    CHECK("correlation: corr diagonal (i0 == i1)", some_region(a, "corr", 1, 1, -1, 0, 1));
    CHECK("correlation: corr strictly upper (i1 > i0)", some_region(a, "corr", 1, -1, 1, -1, 0));
    CHECK("correlation: corr strictly lower (i0 > i1)", some_region(a, "corr", 1, 1, -1, -1, 0));
    CHECK("correlation: corr written in parts, old values kept outside", partial_write(a, "corr"));
    int eps = var_id(a, "eps"), ok = 0;
    unsigned ops = 0;
    for (int t = 0; t < a->ntasks; t++) {
      const poly_input *in = input_of(&a->tasks[t], eps);
      if (in && (in->flags & POLY_IN_CONST) && in->value == 0.1) ok = 1;
      ops |= a->tasks[t].ops;
    }
    CHECK("correlation: eps is a constant input 0.1", ok && a->nprelude == 1);
    CHECK("correlation: op hints sqrt, compare, select, div",
          (ops & POLY_OP_SQRT) && (ops & POLY_OP_CMP) && (ops & POLY_OP_SELECT) &&
              (ops & POLY_OP_DIV));
  }
  if (!strcmp(base, "absdiff.c")) {
    unsigned long long w = writers(a, "D");
    int t = __builtin_ctzll(w | (1ull << 63));
    CHECK("absdiff: D's task uses fabs", t < a->ntasks && (a->tasks[t].ops & POLY_OP_ABS));
    /* fmax skips a NaN operand: its exact programs compare and select */
    unsigned long long wm = writers(a, "mx");
    unsigned ops = 0;
    for (int i = 0; i < a->ntasks && i < 63; i++)
      if (wm & (1ull << i)) ops |= a->tasks[i].ops;
    CHECK("absdiff: mx's fmax hints max and compare",
          (ops & POLY_OP_MAX) && (ops & POLY_OP_CMP));
  }
  if (!strcmp(base, "relu_bias.c") || !strcmp(base, "row_norms.c")) {
    CHECKF(a->transformed && a->nexpanded == 1, "%s: the local is expanded", base);
  }
  if (!strcmp(base, "relu_bias.c")) {
    const poly_task *T = &a->tasks[a->ntasks - 1];
    CHECK("relu_bias: Y's task compares and selects",
          (T->ops & POLY_OP_CMP) && (T->ops & POLY_OP_SELECT));
  }
}


/* ------------------------------------------------- small inline kernels */

/* text written to a temporary .c file and parsed into arena (NULL when it
 * does not parse: a failed check). */
static ir_kernel *parse_text(const char *name, const char *text, ir_arena *arena) {
  char path[] = "/tmp/uplift-poly-XXXXXX.c";
  int fd = mkstemps(path, 2);
  CHECKF(fd >= 0, "%s: temporary file", name);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  fe_options fo;
  memset(&fo, 0, sizeof fo);
  ir_kernel *k = fe_parse_file(path, &fo, arena);
  CHECKF(k != NULL, "%s parses", name);
  remove(path);
  return k;
}

/* Parse and analyse text; calls check. */
static void inline_kernel(const char *name, const char *text,
                          void (*check)(const poly_analysis *a, const char *name)) {
  long live = ir_mem_live();
  ir_arena arena;
  ir_arena_init(&arena);
  ir_kernel *k = parse_text(name, text, &arena);
  if (k) {
    poly_analysis *a = poly_analyze(k, &arena);
    CHECKF(a && !a->error, "%s: analysed", name);
    if (a && !a->error) {
      generic(a, name);
      check(a, name);
    }
  }
  ir_arena_free(&arena);
  CHECKF(ir_mem_live() == live, "%s: every block freed", name);
}

static void check_guarded(const poly_analysis *a, const char *name) {
  CHECKF(a->nstmts == 2 && a->stmts[0].guarded && a->stmts[1].guarded,
         "%s: both branches are under a data-dependent if", name);
  CHECKF(a->raisable && (a->stmts[0].ops & POLY_OP_SELECT), "%s: raisable, select hint", name);
}

static void check_red_ops(const poly_analysis *a, const char *name) {
  CHECKF(has_reduction(a, "m", POLY_RED_MAX, "i"), "%s: select written as max is a max", name);
  CHECKF(has_reduction(a, "lo", POLY_RED_MIN, "i"), "%s: select written as min is a min", name);
  CHECKF(has_reduction(a, "p", POLY_RED_MUL, "i"), "%s: *= is a product", name);
  CHECKF(has_reduction(a, "s", POLY_RED_ADD, "j") && has_reduction(a, "s", POLY_RED_ADD, "i"),
         "%s: a sum over two loops reduces over both", name);
  CHECKF(a->raisable && a->ntasks == 4, "%s: raisable, four tasks", name);
}

static void check_down(const poly_analysis *a, const char *name) {
  /* x[i] = x[i+1] running downward reads the value just written */
  CHECKF(!a->raisable && a->reason && strstr(a->reason, "loop i"),
         "%s: a downward recurrence is not raisable (%s)", name, a->reason ? a->reason : "");
}

static void check_up(const poly_analysis *a, const char *name) {
  /* x[i] = x[i+1] running upward reads only old values */
  const poly_input *in = a->ntasks == 1 ? input_of(&a->tasks[0], var_id(a, "x")) : NULL;
  CHECKF(a->raisable && in && (in->flags & POLY_IN_LIVEIN) && !(in->flags & POLY_IN_TASK),
         "%s: an upward shift reads the old x: raisable, one task", name);
  const poly_output *o = a->ntasks == 1 ? output_of(&a->tasks[0], var_id(a, "x")) : NULL;
  CHECKF(o && (o->flags & POLY_OUT_PARTIAL), "%s: the last element is kept", name);
}

/* Scalar expansion: a local becomes a per-iteration value only when each
 * iteration writes it before reading it; a value carried from an earlier
 * iteration is a recurrence (not raisable, with the loop and the local). */
typedef struct scalar_case {
  const char *name, *body; /* body: the loop nest of kernel_s(n, m, A, B, C) */
  const char *expanded;    /* the local expanded, or NULL */
  int raisable;
  const char *reason;      /* a substring of the reason, or NULL */
} scalar_case;

static const scalar_case scalar_cases[] = {
    {"written in both branches", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  if (A[i][0] > 0.0) s = A[i][0]; else s = -A[i][0];\n  B[i] = s; }\n", "s", 1, NULL},
    {"straight line", "for (int i = 0; i < n; i++) { double s = A[i][0] * 2.0; B[i] = s + 1.0; }\n",
     "s", 1, NULL},
    {"ternary", "for (int i = 0; i < n; i++) { double s = A[i][0] > 0.0 ? A[i][0] : 0.0;\n"
     "  B[i] = s * s; }\n", "s", 1, NULL},
    {"affine if/else", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  if (i < 2) s = A[i][0]; else s = A[i][1];\n  B[i] = s + 1.0; }\n", "s", 1, NULL},
    {"reset accumulator", "double s;\n for (int i = 0; i < n; i++) { s = 0.0;\n"
     "  for (int j = 0; j < m; j++) s += A[i][j];\n  B[i] = s; }\n", "s", 1, NULL},
    {"constant inner loop", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  for (int k = 0; k < 3; k++) s = A[i][0];\n  B[i] = s * 2.0; }\n", "s", 1, NULL},
    {"one branch", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  if (A[i][0] > 0.0) s = A[i][0];\n  B[i] = s; }\n", NULL, 0,
     "recurrence carried by loop i through s"},
    {"affine guard", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  if (i <= 1) s = A[i][0];\n  B[i] = s; }\n", NULL, 0,
     "recurrence carried by loop i through s"},
    {"read before write", "double s = 0.0;\n for (int i = 0; i < n; i++) {\n"
     "  B[i] = s;\n  s = A[i][0]; }\n", NULL, 0, "recurrence carried by loop i through s"},
    {"inner loop may not run", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  for (int j = 0; j < m; j++) s = A[i][j];\n  B[i] = s; }\n", NULL, 0,
     "recurrence carried by loop i through s"},
    {"write in the inner loop after the read", "double s;\n for (int i = 0; i < n; i++) {\n"
     "  for (int j = 0; j < m; j++) { C[i][j] = s; s = A[i][j]; }\n  B[i] = s; }\n", NULL, 0,
     "through s"},
    {"first-order recurrence", "double s = 0.0;\n for (int i = 0; i < n; i++) {\n"
     "  s = s * 0.5 + A[i][0];\n  B[i] = s; }\n", NULL, 0, "loop i"},
    {"carried by the inner loop", "double t = 0.0;\n for (int i = 0; i < n; i++)\n"
     "  for (int j = 0; j < m; j++) { if (A[i][j] > 0.0) t = A[i][j]; C[i][j] = t; }\n",
     NULL, 0, "updates t from its own value"},
};
#define NSCALAR (int)(sizeof scalar_cases / sizeof scalar_cases[0])
static const scalar_case *scalar_now;

static void check_scalar(const poly_analysis *a, const char *name) {
  const scalar_case *c = scalar_now;
  int ex = -1;
  for (int i = 0; i < a->nexpanded; i++) ex = a->expanded[i].var;
  const char *exname = ex >= 0 ? a->kernel->vars[ex]->name : NULL;
  CHECKF(c->expanded ? exname && !strcmp(exname, c->expanded) : ex < 0,
         "%s: expanded %s (found %s)", name, c->expanded ? c->expanded : "nothing",
         exname ? exname : "nothing");
  CHECKF(a->raisable == c->raisable, "%s: raisable %d (%s)", name, c->raisable,
         a->reason ? a->reason : "");
  if (c->reason)
    CHECKF(a->reason && strstr(a->reason, c->reason), "%s: reason names '%s' (%s)", name,
           c->reason, a->reason ? a->reason : "none");
}

static void scalar_kernels(void) {
  for (int i = 0; i < NSCALAR; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "void kernel_s(int n, int m, double A[n][m], double B[n], double C[n][m]) {\n"
             " %s}\n", scalar_cases[i].body);
    scalar_now = &scalar_cases[i];
    inline_kernel(scalar_cases[i].name, text, check_scalar);
  }
}

/* The kept-loop decision on small kernels of our own (docs/analyze.md,
 * "Kept loops"), in kept_sig's form ("" when no loop is kept). */
typedef struct kept_case {
  const char *name, *text;
  int raisable;
  const char *kept;
} kept_case;

static const kept_case kept_cases[] = {
    /* a time loop over a 1-D 3-point stencil (A -> B, then B back into A):
     * step t reads what step t-1 wrote, so t is kept; with t fixed each
     * sweep reads only the other array: two tasks, nothing scalar */
    {"time loop over a 3-point stencil",
     "void kernel_st(int tsteps, int n, double A[n], double B[n]) {\n"
     "  for (int t = 0; t < tsteps; t++) {\n"
     "    for (int i = 1; i < n - 1; i++) B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;\n"
     "    for (int i = 1; i < n - 1; i++) A[i] = B[i];\n"
     "  }\n"
     "}\n",
     0, "t/1[S0 S1]"},
    /* Gaussian elimination: the pivot loop k carries the updated matrix;
     * at a fixed k the column scaling (S0) and the rank-1 update (S1) read
     * only what step k-1 left and S0's column: two tasks */
    {"pivot loop (right-looking elimination)",
     "void kernel_ge(int n, double A[n][n]) {\n"
     "  for (int k = 0; k < n; k++)\n"
     "    for (int i = k + 1; i < n; i++) {\n"
     "      A[i][k] = A[i][k] / A[k][k];\n"
     "      for (int j = k + 1; j < n; j++) A[i][j] -= A[i][k] * A[k][j];\n"
     "    }\n"
     "}\n",
     0, "k/1[S0 S1]"},
    /* an in-place sweep in a time loop: A[i] reads A[i-1] of this sweep,
     * so i is kept inside t, and the statement stays scalar */
    {"in-place sweep",
     "void kernel_gs(int tsteps, int n, double A[n]) {\n"
     "  for (int t = 0; t < tsteps; t++)\n"
     "    for (int i = 1; i < n - 1; i++) A[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;\n"
     "}\n",
     0, "t/1[@i]; i<t/1[S0] scalar S0"},
    /* a scalar recurrence through a local: s = 0.5 s + x[i] is not a
     * reduction; the loop is kept and both statements stay scalar */
    {"scalar recurrence",
     "void kernel_sr(int n, double x[n], double y[n]) {\n"
     "  double s = 0.0;\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    s = s * 0.5 + x[i];\n"
     "    y[i] = s;\n"
     "  }\n"
     "}\n",
     0, "i/1[S1 S2] scalar S1 S2"},
    /* only reductions (row sums over j, column sums over i): nothing kept */
    {"reductions only",
     "void kernel_ro(int n, int m, double A[n][m], double s[n], double y[m]) {\n"
     "  for (int i = 0; i < n; i++)\n"
     "    for (int j = 0; j < m; j++) {\n"
     "      s[i] += A[i][j];\n"
     "      y[j] += A[i][j];\n"
     "    }\n"
     "}\n",
     1, ""},
    /* a dependence carried by i that loop distribution removes (y first,
     * then x reads y[i-1]): nothing kept */
    {"carried but distributable",
     "void kernel_cd(int n, double a[n], double x[n], double y[n]) {\n"
     "  for (int i = 1; i < n; i++) {\n"
     "    x[i] = y[i - 1] * 2.0;\n"
     "    y[i] = a[i] + 1.0;\n"
     "  }\n"
     "}\n",
     1, ""},
};
#define NKEPT_CASES (int)(sizeof kept_cases / sizeof kept_cases[0])
static const kept_case *kept_now;

static void check_kept(const poly_analysis *a, const char *name) {
  char sig[512];
  CHECKF(a->raisable == kept_now->raisable, "%s: raisable is %d (%s)", name,
         kept_now->raisable, a->reason ? a->reason : "");
  CHECKF(!strcmp(kept_sig(a, sig, sizeof sig), kept_now->kept), "%s: kept loops '%s', found '%s'",
         name, kept_now->kept, sig);
}

static void kept_kernels(void) {
  for (int i = 0; i < NKEPT_CASES; i++) {
    kept_now = &kept_cases[i];
    inline_kernel(kept_cases[i].name, kept_cases[i].text, check_kept);
  }
}

/* A batch of row recurrences inside a step loop: the row loop r keeps
 * nothing and carries nothing (distributed); with each step adding the
 * row r + 1 that the next r rewrites, it carries an anti dependence (not
 * distributed: the rows would be read after they are rewritten). */
static void check_batch_ok(const poly_analysis *a, const char *name) {
  CHECKF(a->nbatch == 1 && !a->batch[0].why && a->batch[0].parent == 0,
         "%s: one batch loop inside the step loop, distributed (%s)", name,
         a->nbatch ? a->batch[0].why : "none");
}

static void check_batch_carries(const poly_analysis *a, const char *name) {
  CHECKF(a->nbatch == 1 && a->batch[0].why &&
             strstr(a->batch[0].why, "loop r carries a dependence of S0 on S0 (anti through y"),
         "%s: the batch loop carries an anti dependence (%s)", name,
         a->nbatch && a->batch[0].why ? a->batch[0].why : "none");
}

#define BATCH_KERNEL(READ)                                                                   \
  "void kernel_b(int steps, int nr, int m, float a, float *y, float *z) {\n"                  \
  "  for (int s = 0; s < steps; s++) {\n"                                                     \
  "    for (int r = 0; r < nr - 1; r++) {\n"                                                  \
  "      for (int j = 1; j < m; j++)\n"                                                       \
  "        y[r * m + j] = a * y[r * m + j - 1] + " READ ";\n"                                 \
  "    }\n"                                                                                   \
  "    for (int r = 0; r < nr; r++)\n"                                                        \
  "      for (int j = 0; j < m; j++)\n"                                                       \
  "        z[r * m + j] = 0.5f * z[r * m + j] + 0.25f * y[r * m + j];\n"                      \
  "  }\n"                                                                                     \
  "}\n"

/* Locals folded into the element they end in (poly_fold_locals;
 * docs/analyze.md, "Accumulators folded into their element"): folded
 * only where nothing between the first write and the store touches the
 * element, every access of the local lies in such a stretch and the
 * element has the local's type.  After a fold the local is gone and the
 * `Y = Y` copies are dropped (nassign). */
typedef struct fold_case {
  const char *name, *body; /* body of kernel_f(n, A[n][n], B[n], C[n][n], F[n]) */
  int folded, nassign;     /* locals folded; assignments after (0: not checked) */
} fold_case;

static const fold_case fold_cases[] = {
    /* ludcmp's first sweep: w is A[i][j]; `A[i][j] = A[i][j]` dropped */
    {"an element updated through a local",
     "for (int i = 0; i < n; i++) for (int j = 0; j < i; j++) { w = A[i][j];"
     " for (int k = 0; k < j; k++) w -= A[i][k] * A[k][j]; A[i][j] = w / A[j][j]; }", 1, 2},
    /* a forward substitution: B[j] at j < i is never B[i]; `B[i] = w` dropped */
    {"a substitution through a local",
     "for (int i = 0; i < n; i++) { w = F[i]; for (int j = 0; j < i; j++)"
     " w -= A[i][j] * B[j]; B[i] = w; }", 1, 2},
    /* at j == i the loop reads the element the store writes */
    {"the element read between the first write and the store",
     "for (int i = 0; i < n; i++) { w = F[i]; for (int j = 0; j < n; j++)"
     " w -= A[i][j] * B[j]; B[i] = w; }", 0, 0},
    /* the store reads the element's old value */
    {"the store reads its own element",
     "for (int i = 0; i < n; i++) { w = 0; for (int j = 0; j < n; j++)"
     " w += A[i][j]; B[i] = B[i] - w; }", 0, 0},
    /* a diagonal read at another subscript: A[j][j] is A[i][i] at j == i */
    {"the element read at other subscripts",
     "for (int i = 0; i < n; i++) { w = A[i][i]; for (int j = 0; j < n; j++)"
     " w += A[j][j]; A[i][i] = w; }", 0, 0},
    /* the element written between them */
    {"the element written between the first write and the store",
     "for (int i = 0; i < n; i++) { w = F[i]; B[i] = 2.0; B[i] = w; }", 0, 0},
    /* w read after its store: its value is not dead there */
    {"the local read after the store",
     "for (int i = 0; i < n; i++) { w = F[i] * 2.0; B[i] = w; C[i][0] = w + 1.0; }", 0, 0},
    /* an element of a narrower type would round every step */
    {"an element of another type",
     "for (int i = 0; i < n; i++) { w = F[i]; for (int j = 0; j < n; j++)"
     " w += A[i][j]; H[i] = w; }", 0, 0},
};
#define NFOLD (int)(sizeof fold_cases / sizeof fold_cases[0])

/* Does an assignment write or read var *user? */
static int touches_var(const ir_stmt *s, const ir_stmt *const *loops, int depth, void *user) {
  (void)loops;
  (void)depth;
  int v = *(const int *)user;
  return s->lhs->var == v || ir_expr_reads(s->lhs, v) || ir_expr_reads(s->rhs, v);
}

static void fold_kernels(void) {
  for (int i = 0; i < NFOLD; i++) {
    const fold_case *c = &fold_cases[i];
    char text[1024];
    snprintf(text, sizeof text,
             "void kernel_f(int n, double A[n][n], double B[n], double C[n][n], double F[n],\n"
             "              float H[n]) {\n  double w;\n  %s\n}\n", c->body);
    long live = ir_mem_live();
    ir_arena arena;
    ir_arena_init(&arena);
    ir_kernel *k = parse_text(c->name, text, &arena);
    if (k) {
      int n = -1, w = ir_kernel_find_var(k, "w");
      const ir_kernel *x = poly_fold_locals(k, &arena, &n);
      CHECKF(n == c->folded && (x != k) == c->folded, "%s: %s (%d folded)", c->name,
             c->folded ? "folded" : "not folded", n);
      if (c->folded)
        CHECKF(w >= 0 && ir_kernel_walk_assigns(k, touches_var, &w) &&
                   !ir_kernel_walk_assigns(x, touches_var, &w) &&
                   x->nassign == c->nassign,
               "%s: the local is gone, %d assignments left (%d)", c->name, c->nassign,
               x->nassign);
      poly_analysis *a = poly_analyze(x, &arena);
      CHECKF(a && !a->error, "%s: the kernel after it is analysed", c->name);
    }
    ir_arena_free(&arena);
    CHECKF(ir_mem_live() == live, "%s: every block freed", c->name);
  }
}

static void inline_kernels(void) {
  fold_kernels();
  scalar_kernels();
  kept_kernels();
  inline_kernel("batch loop", BATCH_KERNEL("z[r * m + j]"), check_batch_ok);
  inline_kernel("batch loop carrying", BATCH_KERNEL("y[(r + 1) * m + j]"),
                check_batch_carries);
  inline_kernel("guarded",
                "void kernel_g(int n, double A[n], double B[n], double C[n]) {\n"
                "  for (int i = 0; i < n; i++)\n"
                "    if (A[i] > 0.0) B[i] = A[i]; else C[i] = 0.0;\n"
                "}\n",
                check_guarded);
  inline_kernel("reduction operators",
                "void kernel_r(int n, int k, double A[n][k], double m[1],\n"
                "              double lo[1], double p[1], double s[1]) {\n"
                "  for (int i = 0; i < n; i++) {\n"
                "    m[0] = m[0] > A[i][0] ? m[0] : A[i][0];\n"
                "    lo[0] = lo[0] < A[i][0] ? lo[0] : A[i][0];\n"
                "    p[0] *= A[i][0];\n"
                "    for (int j = 0; j < k; j++) s[0] += A[i][j];\n"
                "  }\n"
                "}\n",
                check_red_ops);
  inline_kernel("downward recurrence",
                "void kernel_d(int n, double x[n]) {\n"
                "  for (int i = n - 2; i >= 0; i--) x[i] = x[i + 1] * 0.5;\n"
                "}\n",
                check_down);
  inline_kernel("upward shift",
                "void kernel_u(int n, double x[n]) {\n"
                "  for (int i = 0; i < n - 1; i++) x[i] = x[i + 1] * 0.5;\n"
                "}\n",
                check_up);
}

static void one(const char *file) {
  const expect *e = expect_for(file);
  long live = ir_mem_live();
  ir_arena arena;
  ir_arena_init(&arena);
  fe_options fo;
  memset(&fo, 0, sizeof fo);
  fo.function = e ? e->function : NULL;
  ir_kernel *k = fe_parse_file(file, &fo, &arena);
  CHECKF(k != NULL, "%s parses", file);
  if (k) {
    poly_analysis *a = poly_analyze(k, &arena);
    CHECKF(a && !a->error, "%s: analysed (%s)", file, a && a->error ? a->error : "");
    if (a && !a->error) {
      generic(a, file);
      /* issue 14's stencil hint: reads at i - 1 and i + 1 of the write's i */
      const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
      if (!strcmp(base, "jacobi1d.c"))
        CHECK("jacobi1d: both statements read shifted (pad and conv are tried)",
              a->nstmts == 2 && (a->stmts[0].ops & POLY_OP_SHIFTED) &&
                  (a->stmts[1].ops & POLY_OP_SHIFTED));
      CHECKF(e != NULL, "%s: has expectations from the math", file);
      if (e) {
        CHECKF(a->raisable == e->raisable, "%s: raisable is %d (%s)", file, e->raisable,
               a->reason ? a->reason : "");
        if (e->ntasks >= 0)
          CHECKF(a->ntasks == e->ntasks, "%s: %d tasks, found %d", file, e->ntasks, a->ntasks);
        for (int i = 0; i < 4 && e->reds[i].var; i++)
          CHECKF(has_reduction(a, e->reds[i].var, e->reds[i].op, e->reds[i].iter),
                 "%s: reduction %s %s over %s", file, e->reds[i].var,
                 poly_red_name(e->reds[i].op), e->reds[i].iter);
        if (e->reason)
          CHECKF(a->reason && strstr(a->reason, e->reason), "%s: reason names %s: %s", file,
                 e->reason, a->reason ? a->reason : "(none)");
        if (e->raisable && a->raisable) specific(a, file);
        if (!a->raisable) CHECKF(a->nkept > 0, "%s: not raisable, so some loop is kept", file);
        if (e->kept) {
          char sig[1024];
          CHECKF(!strcmp(kept_sig(a, sig, sizeof sig), e->kept), "%s: kept loops %s, found %s",
                 file, e->kept, sig);
        }
      }
    }
  }
  ir_arena_free(&arena);
  CHECKF(ir_mem_live() == live, "%s: every block freed", file);
}

int main(void) {
  static const char *patterns[] = {"benchmarks/kernels/*.c", "benchmarks/kernels/c99/*.c",
                                   "benchmarks/kernels/partial/*.c", "tests/kernels/*.c"};
  int nfiles = 0;
  for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
    glob_t g;
    if (glob(patterns[p], 0, NULL, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; i++) {
        one(g.gl_pathv[i]);
        nfiles++;
      }
      globfree(&g);
    }
  }
  inline_kernels();
  CHECKF(nfiles >= NEXPECT, "found %d kernel files, expected at least %d", nfiles, NEXPECT);
  for (int i = 0; i < NEXPECT; i++) {
    FILE *f = fopen(expects[i].file, "r");
    CHECKF(f != NULL, "%s exists", expects[i].file);
    if (f) fclose(f);
  }
  return TEST_REPORT();
}
