/*
 * keep.c - the loops to keep sequential (polyhedral.h, poly_kept_loop;
 * docs/analyze.md, "Kept loops").
 *
 * How: from the dependences that analyze.c computed with isl (for each, the
 * common loops that carry some of its instances and the distance there),
 * walk the loop tree from the outside in.  At a level d (the loops 0..d-1
 * around the statements at hand are fixed: kept loops, or the kernel's
 * start), a flow dependence instance carried by loop l >= d calls for
 * keeping loop l when it is not a reduction's accumulator update over l
 * and either its two statements lie on one cycle of the flow graph (the
 * instances at levels >= d only), or it carries a local scalar from one
 * iteration to the next.  The outermost such loops are kept; inside each,
 * the same walk runs one level deeper, with the kept iterators as
 * parameters.  A kept loop's body is then split into would-be tasks: the
 * strongly connected components of all dependences (flow, anti, output)
 * whose instances stay inside one iteration of it, a nested kept loop
 * counted as one node, in topological order.  A statement whose every loop
 * is kept stays scalar.  A loop that lies between the fixed levels and a
 * kept loop keeps nothing (no dependence called for it); it is a batch loop
 * (poly_batch_loop), which pipeline/kept.c distributes over its items and
 * moves inside its kept loops when it carries no dependence at all (every
 * dependence between its statements then stays in one of its iterations).
 *
 * No isl here: the carried levels and distances come with the dependences.
 * Working arrays are ir_malloc'd and freed in the call; the result lives in
 * the analysis's arena.
 */
#include <string.h>

#include "polyhedral/keep.h"

typedef struct keep {
  poly_analysis *a;
  ir_arena *arena;
  int n;                /* statements */
  unsigned char *prelude; /* [n] */
  int cap;              /* room in a->kept */
} keep;

static const char *vname(const keep *c, int v) { return c->a->kernel->vars[v]->name; }

static int in_loop(const poly_stmt *s, int level, const ir_stmt *loop) {
  return s->depth > level && s->loops[level] == loop;
}

/* Has d instances inside one iteration of the loops 0..lo-1? */
static int active(const poly_dep *d, int lo) {
  return d->independent || (lo < 32 && (d->levels >> lo) != 0);
}

/* Are the instances of d carried by loop l a reduction's accumulator
 * update?  (The statement need not be a reduction over its other loops:
 * LU's row update is one over k, not over i.) */
static int reduction_at(const keep *c, const poly_dep *d, int l) {
  const poly_stmt *s = &c->a->stmts[d->src];
  return d->src == d->dst && d->var == s->stmt->lhs->var && ((s->red_levels >> l) & 1);
}

static int local_scalar(const keep *c, int v) {
  const ir_var *x = c->a->kernel->vars[v];
  return x->kind == IR_VAR_LOCAL && x->rank == 0;
}

/* reach[i*n+j]: a path of one edge or more from node i to node j. */
static void closure(int n, unsigned char *reach) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      if (reach[i * n + k])
        for (int j = 0; j < n; j++)
          if (reach[k * n + j]) reach[i * n + j] = 1;
}

/* Does the dependence at index di call for keeping loop l at level d? */
static int calls_for_keep(const keep *c, const unsigned char *reach, int di, int l) {
  const poly_dep *d = &c->a->deps[di];
  int n = c->n;
  if (d->kind != POLY_DEP_FLOW || l >= d->ncommon || !(d->levels & (1u << l))) return 0;
  int cycle = d->src == d->dst || (reach[d->src * n + d->dst] && reach[d->dst * n + d->src]);
  if (cycle && !reduction_at(c, d, l)) return 1;
  return d->src != d->dst && local_scalar(c, d->var);
}

static int before(const ir_stmt *x, const ir_stmt *y) {
  return x->pos.line < y->pos.line || (x->pos.line == y->pos.line && x->pos.col < y->pos.col);
}

/* Is loop `loop` at `level` one of kept loop k's or its parents'? */
static int kept_on_path(const poly_analysis *a, int k, const ir_stmt *loop) {
  for (; k >= 0; k = a->kept[k].parent)
    if (a->kept[k].loop == loop) return 1;
  return 0;
}

/* "a dependence of S1 on S0 (flow through x, distance 1)": dst reads (or
 * overwrites) what src accessed; the distance when has. */
static const char *dep_str(const keep *c, poly_dep_kind kind, int src, int dst, int var, int has,
                           long distance) {
  static const char *kinds[] = {"flow", "anti", "output"};
  const char *dist = has ? ir_arena_printf(c->arena, ", distance %ld", distance) : "";
  return ir_arena_printf(c->arena, "a dependence of S%d on S%d (%s through %s%s)", dst, src,
                         kinds[kind], vname(c, var), dist);
}

static const char *dep_text(const keep *c, const poly_kept_loop *K) {
  return dep_str(c, K->kind, K->src, K->dst, K->var, K->has_distance, K->distance);
}

/* dep_str of d, with its distance at loop level l. */
static const char *dep_at(const keep *c, const poly_dep *d, int l) {
  int has = (d->fixed >> l) & 1;
  return dep_str(c, d->kind, d->src, d->dst, d->var, has, has ? d->distance[l] : 0);
}

/* Is stmt `loop` one of list's statements (not under an if)? */
static int in_list(const ir_stmt *list, const ir_stmt *loop) {
  for (; list; list = list->next)
    if (list == loop) return 1;
  return 0;
}

/* Kept loop k was found deeper than level d (the first level not fixed):
 * record the loop at level d around it as a batch loop (once per loop),
 * with why it cannot be distributed over its items and moved inside its
 * kept loops.  Distribution runs each item over all of the loop's
 * iterations before the next item; interchange runs the kept loop's
 * iterations outermost.  Both keep every dependence's source before its
 * sink when the loop carries none (isl's dependences: flow value-based,
 * anti and output memory-based): each dependence then joins two instances
 * of one iteration, in items in textual order (or one item, where the kept
 * loop's order, now outermost, still orders them). */
static void batch(keep *c, int k, int d) {
  poly_analysis *a = c->a;
  const poly_kept_loop *K = &a->kept[k];
  const poly_stmt *s = &a->stmts[K->src];
  const ir_stmt *L = s->loops[d];
  poly_batch_loop *B = NULL;
  for (int i = 0; i < a->nbatch && !B; i++)
    if (a->batch[i].loop == L) B = &a->batch[i];
  if (!B) {
    if (a->nbatch % 8 == 0) {
      poly_batch_loop *nb = IR_NEW_N(c->arena, poly_batch_loop, a->nbatch + 8);
      if (a->nbatch) memcpy(nb, a->batch, sizeof *nb * (size_t)a->nbatch);
      a->batch = nb;
    }
    B = &a->batch[a->nbatch++];
    B->loop = L;
    B->iter = L->iter;
    B->level = d;
    B->parent = K->parent;
    B->why = NULL;
    for (int i = 0; i < a->ndeps && !B->why; i++) {
      const poly_dep *x = &a->deps[i];
      if (in_loop(&a->stmts[x->src], d, L) && in_loop(&a->stmts[x->dst], d, L) &&
          d < x->ncommon && ((x->levels >> d) & 1))
        B->why = ir_arena_printf(c->arena, "loop %s carries %s", vname(c, L->iter),
                                 dep_at(c, x, d));
    }
  }
  if (B->why) return;
  if (K->level > d + 1)
    B->why = ir_arena_printf(c->arena, "kept loop %s (line %d) lies more than one loop deep "
                             "inside it", vname(c, K->iter), K->loop->pos.line);
  else if (!in_list(L->body, K->loop))
    B->why = ir_arena_printf(c->arena, "kept loop %s (line %d) is under a condition inside it",
                             vname(c, K->iter), K->loop->pos.line);
  else if (ir_expr_reads(K->loop->lo, L->iter) || ir_expr_reads(K->loop->hi, L->iter))
    B->why = ir_arena_printf(c->arena, "the bounds of kept loop %s (line %d) read %s: the "
                             "nest is not rectangular", vname(c, K->iter), K->loop->pos.line,
                             vname(c, L->iter));
}

/* The statements of kept loop k (in S, mask) that stay scalar. */
static void scalars(keep *c, int k, const unsigned char *S) {
  poly_analysis *a = c->a;
  const poly_kept_loop *K = &a->kept[k];
  for (int i = 0; i < c->n; i++) {
    if (!S[i]) continue;
    const poly_stmt *s = &a->stmts[i];
    int child = 0, all = 1;
    for (int j = k + 1; j < a->nkept; j++)
      child |= a->kept[j].parent == k && in_loop(s, a->kept[j].level, a->kept[j].loop);
    for (int l = 0; l < s->depth && all; l++) all = kept_on_path(a, k, s->loops[l]);
    if (child || !all) continue;
    ir_buf its = {0};
    for (int l = 0; l < s->depth; l++)
      ir_buf_printf(&its, "%s%s", l ? ", " : "", vname(c, s->loops[l]->iter));
    poly_scalar_stmt *o = &a->scalar[a->nscalar++];
    o->stmt = i;
    o->kept = k;
    o->why = ir_arena_printf(c->arena,
                             "every loop around it is kept (%s); loop %s carries %s that is "
                             "not a reduction",
                             ir_buf_str(&its), vname(c, K->iter), dep_text(c, K));
    ir_buf_free(&its);
  }
}

/* Kept loop k's body: the statements in S grouped into items. */
static void body(keep *c, int k, const unsigned char *S) {
  poly_analysis *a = c->a;
  poly_kept_loop *K = &a->kept[k];
  int n = c->n, lo = K->level + 1;
  int *node = ir_malloc(sizeof(int) * (size_t)n); /* a statement's node: */
  for (int i = 0; i < n; i++) {                    /* itself or a child loop */
    node[i] = -1;
    if (!S[i]) continue;
    node[i] = i;
    for (int j = k + 1; j < a->nkept; j++)
      if (a->kept[j].parent == k && in_loop(&a->stmts[i], a->kept[j].level, a->kept[j].loop)) {
        node[i] = n + j; /* past the statements: one node per kept loop */
        break;
      }
  }
  int m = n + a->nkept;
  unsigned char *reach = ir_calloc((size_t)m * (size_t)m, 1);
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    if (node[d->src] < 0 || node[d->dst] < 0 || node[d->src] == node[d->dst] ||
        !active(d, lo))
      continue;
    reach[node[d->src] * m + node[d->dst]] = 1;
  }
  closure(m, reach);
  /* components: nodes reaching each other; comp[] = smallest member node */
  int *comp = ir_malloc(sizeof(int) * (size_t)m), *done = ir_calloc((size_t)m, sizeof(int));
  for (int x = 0; x < m; x++) {
    comp[x] = x;
    for (int y = 0; y < x; y++)
      if (reach[x * m + y] && reach[y * m + x]) {
        comp[x] = comp[y];
        break;
      }
  }
  K->body = IR_NEW_N(c->arena, poly_body_item, n);
  for (;;) {
    /* the ready component (no edge into it from a component not yet placed)
     * with the smallest first statement */
    int best = -1, bestfirst = n;
    for (int i = 0; i < n; i++) {
      if (node[i] < 0 || done[comp[node[i]]] || i >= bestfirst) continue;
      int cc = comp[node[i]], ready = 1;
      for (int j = 0; j < n && ready; j++)
        if (node[j] >= 0 && !done[comp[node[j]]] && comp[node[j]] != cc &&
            reach[node[j] * m + node[i]])
          ready = 0;
      if (ready) {
        best = cc;
        bestfirst = i;
      }
    }
    if (best < 0) break;
    done[best] = 1;
    poly_body_item *it = &K->body[K->nbody++];
    it->kept = -1;
    it->stmts = IR_NEW_N(c->arena, int, n);
    for (int i = 0; i < n; i++)
      if (node[i] >= 0 && comp[node[i]] == best) {
        it->stmts[it->nstmts++] = i;
        if (node[i] >= n && it->kept < 0) it->kept = node[i] - n;
      }
  }
  ir_free(node);
  ir_free(reach);
  ir_free(comp);
  ir_free(done);
}

/* The loops to keep among the statements in S (mask), whose loops 0..d-1
 * are fixed; parent is the kept loop around them, or -1. */
static void level(keep *c, const unsigned char *S, int d, int parent) {
  poly_analysis *a = c->a;
  int n = c->n;
  unsigned char *reach = ir_calloc((size_t)n * (size_t)n, 1);
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *x = &a->deps[i];
    if (x->kind == POLY_DEP_FLOW && S[x->src] && S[x->dst] && active(x, d))
      reach[x->src * n + x->dst] = 1;
  }
  closure(n, reach);
  /* the loops that some dependence calls for, outermost first, each with
   * the first such dependence (one with a constant distance if any) */
  int first = a->nkept;
  for (int l = d; l < 32; l++) {
    for (int i = 0; i < a->ndeps; i++) {
      const poly_dep *x = &a->deps[i];
      if (!S[x->src] || !S[x->dst] || !calls_for_keep(c, reach, i, l)) continue;
      const poly_stmt *s = &a->stmts[x->src];
      const ir_stmt *loop = s->loops[l];
      int inside = 0, k = first;
      for (; k < a->nkept; k++) {
        if (a->kept[k].loop == loop) break;
        inside |= in_loop(s, a->kept[k].level, a->kept[k].loop);
      }
      if (inside) continue; /* a kept loop around it handles it, deeper */
      int fixed = (x->fixed >> l) & 1;
      if (k < a->nkept) {
        poly_kept_loop *K = &a->kept[k];
        if (!K->has_distance && fixed) { /* prefer a constant distance */
          K->kind = x->kind, K->src = x->src, K->dst = x->dst, K->var = x->var;
          K->has_distance = 1, K->distance = x->distance[l];
        }
        continue;
      }
      if (a->nkept == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        poly_kept_loop *nk = IR_NEW_N(c->arena, poly_kept_loop, c->cap);
        if (a->nkept) memcpy(nk, a->kept, sizeof(*nk) * (size_t)a->nkept);
        a->kept = nk;
      }
      poly_kept_loop *K = &a->kept[a->nkept++];
      memset(K, 0, sizeof *K);
      K->loop = loop;
      K->iter = loop->iter;
      K->level = l;
      K->parent = parent;
      K->kind = x->kind, K->src = x->src, K->dst = x->dst, K->var = x->var;
      K->has_distance = fixed;
      K->distance = fixed ? x->distance[l] : 0;
    }
  }
  ir_free(reach);
  int last = a->nkept;
  for (int k = first + 1; k < last; k++) /* in source order */
    for (int j = k; j > first && before(a->kept[j].loop, a->kept[j - 1].loop); j--) {
      poly_kept_loop t = a->kept[j];
      a->kept[j] = a->kept[j - 1];
      a->kept[j - 1] = t;
    }
  for (int k = first; k < last; k++)
    if (a->kept[k].level > d) batch(c, k, d);
  unsigned char *inner = ir_malloc((size_t)n);
  for (int k = first; k < last; k++) {
    poly_kept_loop *K = &a->kept[k];
    int np = parent >= 0 ? a->kept[parent].nparams : 0;
    K->params = IR_NEW_N(c->arena, int, np + 1);
    if (np) memcpy(K->params, a->kept[parent].params, sizeof(int) * (size_t)np);
    K->params[np] = K->iter;
    K->nparams = np + 1;
    for (int i = 0; i < n; i++) inner[i] = S[i] && in_loop(&a->stmts[i], K->level, K->loop);
    level(c, inner, K->level + 1, k); /* may move a->kept: K is not used after */
    body(c, k, inner);
    scalars(c, k, inner);
  }
  ir_free(inner);
}

void poly_keep_loops(poly_analysis *a, ir_arena *arena) {
  keep c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.arena = arena;
  c.n = a->nstmts;
  if (c.n <= 0) return;
  c.prelude = ir_calloc((size_t)c.n, 1);
  for (int i = 0; i < a->nprelude; i++) c.prelude[a->prelude[i]] = 1;
  a->scalar = IR_NEW_N(arena, poly_scalar_stmt, c.n);
  unsigned char *all = ir_malloc((size_t)c.n);
  for (int i = 0; i < c.n; i++) all[i] = !c.prelude[i];
  level(&c, all, 0, -1);
  ir_free(all);
  ir_free(c.prelude);
}
