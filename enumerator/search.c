/*
 * search.c - the bottom-up search over one task's examples
 * (docs/enumerator.md).
 *
 * Candidates are kept per (level, type): level 0 holds the leaves, level s
 * the programs of s ops.  A candidate's values on every example are stored
 * back to back in one pool of doubles (its type fixes the layout), so a
 * kernel call reads its operands and writes its result in place: nothing is
 * allocated per candidate unless it is kept.  Observational equivalence: a
 * new candidate whose type and values (poison included) equal a stored
 * one's is dropped (hash, then comparison).  Every kept candidate is
 * compared with the goals of its type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/mman.h>

#include "enumerator/internal.h"

double es_goal_rtol(const ir_kernel *k) {
  double t = interp_kernel_tolerance(k);
  return t <= 0 ? 0 : t > 1e-9 ? t : 1e-9;
}

double es_now(void) { return ir_monotonic_seconds(); }

typedef struct es_type {
  ir_type t;
  long off[ES_MAX_EX];
  long len[ES_MAX_EX];
  long dims[ES_MAX_EX][IR_MAX_RANK];
  long total;
} es_type;

typedef struct es_cand {
  const ir_tnode *node;
  int type, level;
  size_t voff;
  long poff; /* -1: no poison */
  uint64_t hash;
} es_cand;

/* A slot of the observational-equivalence table: candidate index + 1 (0:
 * empty) and the high half of its hash, so that a probe reads no
 * candidate whose hash differs. */
typedef struct es_oe_slot {
  uint32_t c, h;
} es_oe_slot;

typedef struct es_vec {
  int *v;
  int n, cap;
} es_vec;

typedef struct es_state {
  const es_search_in *in;
  es_type types[ES_MAX_TYPES];
  int ntypes;
  es_cand *cands;
  int ncands, capcands;
  double *pool;
  size_t npool, cappool;
  size_t populated; /* pool[0..populated) has its pages (populate_pool) */
  unsigned char *ppool;
  size_t nppool, capppool;
  unsigned char *scratch_poison;
  size_t capscratch;
  es_oe_slot *oe; /* open addressing */
  size_t capoe;
  es_vec *buckets; /* [(max_ops + 1) * ES_MAX_TYPES] */
  enum_stats *stats;
  struct es_pool *workers;
  ir_type targets[ES_MAX_TYPES]; /* proposed result types, computed once */
  int ntargets;
  struct es_batch *batch;
  int new_sub;
  int limited;     /* a table limit dropped something (ES_LIMIT) */
  double last_progress;
  long evals_at_progress;
} es_state;

static void vec_push(es_vec *v, int x) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 16;
    v->v = ir_realloc(v->v, (size_t)v->cap * sizeof(int));
  }
  v->v[v->n++] = x;
}

static es_vec *bucket(es_state *st, int level, int type) {
  return &st->buckets[level * ES_MAX_TYPES + type];
}

static int type_index(es_state *st, const ir_type *t) {
  for (int i = 0; i < st->ntypes; i++)
    if (ir_type_equal(&st->types[i].t, t)) return i;
  if (st->ntypes == ES_MAX_TYPES) {
    st->limited = 1;
    return -1;
  }
  es_type *et = &st->types[st->ntypes];
  memset(et, 0, sizeof *et);
  et->t = *t;
  long off = 0;
  for (int e = 0; e < st->in->ex->n; e++) {
    long len = 1;
    for (int d = 0; d < t->rank; d++) {
      long v = t->dims[d] == IR_DIM_ONE ? 1 : st->in->ex->sizes[e][t->dims[d]];
      et->dims[e][d] = v;
      len *= v;
    }
    et->off[e] = off;
    et->len[e] = len;
    off += len;
  }
  et->total = off;
  return st->ntypes++;
}

/* Give the pool its pages ahead of the writes, ES_POPULATE doubles at a
 * time: one system call instead of a page fault per 4 KiB, which on a
 * virtual machine cost more than the copies that touch the pages. */
#define ES_POPULATE ((size_t)1 << 20)
static void populate_pool(es_state *st, size_t end) {
#ifdef MADV_POPULATE_WRITE
  if (end <= st->populated) return;
  size_t to = end + ES_POPULATE < st->cappool ? end + ES_POPULATE : st->cappool;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)(st->pool + st->populated) & ~(uintptr_t)(page - 1);
  uintptr_t hi = (uintptr_t)(st->pool + to) & ~(uintptr_t)(page - 1);
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE); /* a hint: errors ignored */
  st->populated = to;
#else
  (void)st;
  (void)end;
#endif
}

/* The pool in its own mapping, grown by mremap: the kernel moves the
 * pages instead of copying them (realloc copied the whole pool at every
 * doubling once malloc's mmap threshold had risen past it: a fifth of a
 * large search), and the pages it had keep theirs (populate_pool). */
static double *grow_pool(double *p, size_t old, size_t cap) {
  size_t ob = old * sizeof(double), nb = cap * sizeof(double);
  void *q = p ? mremap(p, ob, nb, MREMAP_MAYMOVE)
              : mmap(NULL, nb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (q == MAP_FAILED) {
    fprintf(stderr, "uplift: out of memory (allocating %zu bytes)\n", nb);
    exit(IR_EXIT_NOT_RAISED);
  }
  return q;
}

static void reserve_pool(es_state *st, size_t n) {
  if (st->npool + n > st->cappool) {
    size_t cap = st->cappool ? st->cappool : 1 << 16;
    while (cap < st->npool + n) cap *= 2;
    st->pool = grow_pool(st->pool, st->cappool, cap);
    st->cappool = cap;
  }
  populate_pool(st, st->npool + n);
  if (n > st->capscratch) {
    st->scratch_poison = ir_realloc(st->scratch_poison, n);
    st->capscratch = n;
  }
}

/* The part of a candidate's hash its type gives, xor-ed in last: a
 * unit-dim view's hash is its operand's with this part swapped
 * (keep_views). */
static uint64_t type_mix(int type) {
  uint64_t z = (uint64_t)type + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t hash_values(int type, const double *v, long n,
                            const unsigned char *p) {
  uint64_t h = 1469598103934665603ull;
  for (long i = 0; i < n; i++) {
    double x = v[i];
    uint64_t bits;
    if (p && p[i]) bits = 0x7ff4dead;
    else if (x != x) bits = 0x7ff8000000000000ull;
    else
      memcpy(&bits, &x, sizeof bits); /* -0 is not +0 */
    h = (h ^ bits) * 1099511628211ull;
    h ^= h >> 29;
  }
  return h ^ type_mix(type);
}

/* Equal values (NaN equal to NaN, but in integer data, where NaN is a
 * value not known exactly: ir_elem_wrap; -0 not +0) and poison? */
static int same_values(const double *a, const unsigned char *pa,
                       const double *b, const unsigned char *pb, long n, int is_int) {
  for (long i = 0; i < n; i++) {
    int qa = pa && pa[i], qb = pb && pb[i];
    if (qa != qb) return 0;
    if (qa) continue;
    if (a[i] != b[i] && (is_int || !(a[i] != a[i] && b[i] != b[i]))) return 0;
    if (a[i] == 0 && !signbit(a[i]) != !signbit(b[i])) return 0;
  }
  return 1;
}

static void oe_grow(es_state *st) {
  size_t cap = st->capoe ? st->capoe * 2 : 1 << 12;
  es_oe_slot *t = ir_calloc(cap, sizeof *t);
  for (size_t i = 0; i < st->capoe; i++) {
    if (!st->oe[i].c) continue;
    size_t j = st->cands[st->oe[i].c - 1].hash & (cap - 1);
    while (t[j].c) j = (j + 1) & (cap - 1);
    t[j] = st->oe[i];
  }
  ir_free(st->oe);
  st->oe = t;
  st->capoe = cap;
}

/* Is a candidate with these values already stored?  Its index + 1, or 0. */
static int oe_find(es_state *st, int type, uint64_t h, const double *v,
                   const unsigned char *p) {
  if (!st->capoe) return 0;
  long n = st->types[type].total;
  for (size_t j = h & (st->capoe - 1);; j = (j + 1) & (st->capoe - 1)) {
    int c = (int)st->oe[j].c;
    if (!c) return 0;
    if (st->oe[j].h != (uint32_t)(h >> 32)) continue;
    const es_cand *o = &st->cands[c - 1];
    if (o->hash == h && o->type == type &&
        same_values(st->pool + o->voff, o->poff >= 0 ? st->ppool + o->poff : NULL,
                    v, p, n, ir_elem_is_int(st->types[type].t.elem)))
      return c;
  }
}

static void oe_insert(es_state *st, int c) {
  if ((st->ncands + 1) * 2 > (int)st->capoe) oe_grow(st);
  size_t j = st->cands[c].hash & (st->capoe - 1);
  while (st->oe[j].c) j = (j + 1) & (st->capoe - 1);
  st->oe[j].c = (uint32_t)c + 1;
  st->oe[j].h = (uint32_t)(st->cands[c].hash >> 32);
}

/* Does a candidate of goal g's type match it? */
static int goal_matches(const es_state *st, const es_goal *g, int type,
                        const double *v, const unsigned char *p) {
  const es_type *et = &st->types[type];
  for (int e = 0; e < st->in->ex->n; e++) {
    const double *x = v + et->off[e];
    const unsigned char *px = p ? p + et->off[e] : NULL;
    const double *y = g->expect[e].data;
    const unsigned char *cmp = g->cmp[e];
    for (long i = 0; i < et->len[e]; i++) {
      if (!cmp[i]) continue;
      if (px && px[i]) return 0;
      if (!(st->in->ex->zero_sign[e] ? interp_values_agree_signed(y[i], x[i], g->rtol)
                                     : interp_values_agree(y[i], x[i], g->rtol)))
        return 0;
    }
  }
  return 1;
}

/* Store a candidate of values v (poison p, or NULL: none) and hash h
 * (hash_values), unless an equal one is stored: the values are copied to
 * the pool only then, unless `share` is a stored candidate's index (else
 * -1) whose values (v, p) the new one shares (a unit-dim view, keep_views).
 * Returns its index, or -1. */
static int keep(es_state *st, int type, int level, const double *v,
                const unsigned char *p, uint64_t h, const ir_tnode *(*mk)(void *),
                void *mkarg, int share) {
  es_type *et = &st->types[type];
  int same = oe_find(st, type, h, v, p);
  if (same) {
    st->stats->equivalence_filtered++;
    if (st->in->on_equal)
      st->in->on_equal(st->in->hook_user, mk(mkarg), level, st->cands[same - 1].node);
    return -1;
  }
  const ir_tnode *node = NULL;
  if (st->in->nblocked) {
    node = mk(mkarg);
    for (int b = 0; b < st->in->nblocked; b++)
      if (st->in->blocked[b] == node) return -1;
  }
  if (st->ncands == st->capcands) {
    st->capcands = st->capcands ? st->capcands * 2 : 1024;
    st->cands = ir_realloc(st->cands, (size_t)st->capcands * sizeof(es_cand));
  }
  int c = st->ncands;
  es_cand *cd = &st->cands[c];
  cd->node = node ? node : mk(mkarg);
  cd->type = type;
  cd->level = level;
  cd->hash = h;
  if (share >= 0) {
    cd->voff = st->cands[share].voff;
    cd->poff = st->cands[share].poff;
    goto stored;
  }
  cd->voff = st->npool;
  cd->poff = -1;
  reserve_pool(st, (size_t)et->total);
  if (v != st->pool + st->npool)
    memcpy(st->pool + st->npool, v, (size_t)et->total * sizeof(double));
  st->npool += (size_t)et->total;
  if (p) {
    if (st->nppool + (size_t)et->total > st->capppool) {
      size_t cap = st->capppool ? st->capppool : 1 << 14;
      while (cap < st->nppool + (size_t)et->total) cap *= 2;
      st->ppool = ir_realloc(st->ppool, cap);
      st->capppool = cap;
    }
    memcpy(st->ppool + st->nppool, p, (size_t)et->total);
    cd->poff = (long)st->nppool;
    st->nppool += (size_t)et->total;
  }
stored:
  st->ncands++;
  oe_insert(st, c);
  vec_push(bucket(st, level, type), c);
  if (st->in->on_keep) st->in->on_keep(st->in->hook_user, cd->node, level);
  /* goals */
  for (int g = 0; g < st->in->ngoals; g++) {
    es_goal *go = &st->in->goals[g];
    if (go->solution || !ir_type_equal(&go->type, &et->t)) continue;
    if (goal_matches(st, go, type, st->pool + cd->voff,
                     cd->poff >= 0 ? st->ppool + cd->poff : NULL)) {
      go->solution = cd->node;
      go->solved_level = level;
      if (!go->is_main) st->new_sub = 1;
    }
  }
  return c;
}

static const ir_tnode *mk_leaf(void *arg) { return arg; }

typedef struct mk_op_arg {
  es_state *st;
  const gram_prod *prod;
  const int *ops;
} mk_op_arg;

static const ir_tnode *mk_op(void *arg) {
  mk_op_arg *m = arg;
  const ir_tnode *opnodes[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < m->prod->op->nops; i++)
    opnodes[i] = m->st->cands[m->ops[i]].node;
  return ir_tp_op(m->st->in->store, &m->prod->op->desc, m->prod->attrs, opnodes,
                  m->prod->op->nops, &m->prod->result);
}

static int add_leaf(es_state *st, const es_leaf *lf) {
  int type = type_index(st, &lf->node->type);
  if (type < 0) return -1;
  es_type *et = &st->types[type];
  reserve_pool(st, (size_t)et->total);
  int has_poison = 0;
  for (int e = 0; e < st->in->ex->n; e++) {
    const ir_tensor *t = &lf->values[e];
    memcpy(st->pool + st->npool + et->off[e], t->data,
           (size_t)et->len[e] * sizeof(double));
    if (t->poison) {
      has_poison = 1;
      memcpy(st->scratch_poison + et->off[e], t->poison, (size_t)et->len[e]);
    } else {
      memset(st->scratch_poison + et->off[e], 0, (size_t)et->len[e]);
    }
  }
  double *v = st->pool + st->npool;
  const unsigned char *p = has_poison ? st->scratch_poison : NULL;
  keep(st, type, 0, v, p, hash_values(type, v, et->total, p), mk_leaf, (void *)lf->node, -1);
  return 0;
}

static int commutative(const interp_op *k) {
  const char *kn = interp_op_like(k->name);
  return !strcmp(kn, "add") || !strcmp(kn, "mul") || !strcmp(kn, "max") || !strcmp(kn, "min");
}

/* Evaluate production `prod` (bound to b) on operand candidates ops[] into
 * vals/poison (the result type's layout).  Pure: reads only stored
 * candidates, so several evaluations may run at once.  Returns 1 if some
 * element is poison, 0 if none, -1 if a kernel precondition failed. */
static int eval_into(const es_state *st, const gram_binding *b, int restype,
                     const int *ops, double *vals, unsigned char *poison) {
  const es_type *rt = &st->types[restype];
  int has_poison = 0;
  for (int e = 0; e < st->in->ex->n; e++) {
    ir_tensor opv[IR_TP_MAX_OPERANDS], args[INTERP_MAX_ARGS];
    double kc[INTERP_MAX_ARGS];
    int nops = 0;
    for (int i = 0; i < b->nargs; i++) {
      int j = b->args[i];
      if (j < 0) continue;
      while (nops <= j) memset(&opv[nops++], 0, sizeof opv[0]);
      const es_cand *c = &st->cands[ops[j]];
      const es_type *ct = &st->types[c->type];
      ir_tensor *a = &opv[j];
      a->elem = ct->t.elem;
      a->rank = ct->t.rank;
      memcpy(a->dims, ct->dims[e], sizeof a->dims);
      a->data = st->pool + c->voff + ct->off[e];
      a->poison = c->poff >= 0 ? st->ppool + c->poff + ct->off[e] : NULL;
    }
    gram_binding_args(b, opv, nops, rt->t.elem, args, kc);
    ir_tensor out;
    memset(&out, 0, sizeof out);
    out.elem = rt->t.elem;
    out.rank = rt->t.rank;
    memcpy(out.dims, rt->dims[e], sizeof out.dims);
    out.data = vals + rt->off[e];
    out.poison = poison + rt->off[e];
    if (b->kernel->run(b->kernel, b->attrs, args, &out, NULL)) return -1;
    if (out.poison) has_poison = 1;
    else memset(poison + rt->off[e], 0, (size_t)rt->len[e]);
  }
  return has_poison;
}

/* ------------------------------------------------------ parallel batches */

/* Tuples are evaluated in batches: worker threads evaluate the tuples of a
 * batch into private slots (tuple i by thread i % nthreads), then the
 * calling thread keeps them one by one in tuple order, exactly as a single
 * thread would: results do not depend on the number of threads. */
#define ES_BATCH 256

typedef struct es_batch {
  es_state *st;
  const gram_binding *b;
  int restype, n, nops;
  int ops[ES_BATCH][IR_TP_MAX_OPERANDS];
  int status[ES_BATCH];
  uint64_t hash[ES_BATCH]; /* hash_values of each evaluated tuple */
  double *vals;           /* ES_BATCH * total */
  unsigned char *poison;  /* ES_BATCH * total */
  size_t cap;
} es_batch;

typedef struct es_pool {
  int nthreads;
  pthread_t *tids;
  pthread_barrier_t start, done;
  es_batch *job;
  int quit;
} es_pool;

static void batch_part(es_batch *bt, int tid, int nthreads) {
  long total = bt->st->types[bt->restype].total;
  for (int i = tid; i < bt->n; i += nthreads) {
    double *v = bt->vals + (size_t)i * (size_t)total;
    unsigned char *p = bt->poison + (size_t)i * (size_t)total;
    bt->status[i] = eval_into(bt->st, bt->b, bt->restype, bt->ops[i], v, p);
    if (bt->status[i] >= 0)
      bt->hash[i] = hash_values(bt->restype, v, total, bt->status[i] ? p : NULL);
  }
}

typedef struct es_worker {
  es_pool *pool;
  int tid;
} es_worker;

static void *worker(void *arg) {
  es_worker *w = arg;
  es_pool *p = w->pool;
  for (;;) {
    pthread_barrier_wait(&p->start);
    if (p->quit) break;
    batch_part(p->job, w->tid, p->nthreads);
    pthread_barrier_wait(&p->done);
  }
  ir_free(w);
  return NULL;
}

static void pool_start(es_pool *p, int nthreads) {
  memset(p, 0, sizeof *p);
  p->nthreads = nthreads < 1 ? 1 : nthreads;
  if (p->nthreads == 1) return;
  pthread_barrier_init(&p->start, NULL, (unsigned)p->nthreads);
  pthread_barrier_init(&p->done, NULL, (unsigned)p->nthreads);
  p->tids = ir_calloc((size_t)p->nthreads, sizeof(pthread_t));
  for (int t = 1; t < p->nthreads; t++) {
    es_worker *w = ir_malloc(sizeof *w);
    w->pool = p;
    w->tid = t;
    pthread_create(&p->tids[t], NULL, worker, w);
  }
}

static void pool_stop(es_pool *p) {
  if (p->nthreads == 1) return;
  p->quit = 1;
  pthread_barrier_wait(&p->start);
  for (int t = 1; t < p->nthreads; t++) pthread_join(p->tids[t], NULL);
  pthread_barrier_destroy(&p->start);
  pthread_barrier_destroy(&p->done);
  ir_free(p->tids);
}

static void pool_run(es_pool *p, es_batch *bt) {
  if (p->nthreads == 1 || bt->n < 2 * p->nthreads) {
    batch_part(bt, 0, 1);
    return;
  }
  p->job = bt;
  pthread_barrier_wait(&p->start);
  batch_part(bt, 0, p->nthreads);
  pthread_barrier_wait(&p->done);
}

/* Evaluate the collected tuples, then keep the new ones in tuple order. */
static void flush_batch(es_state *st, es_batch *bt, const gram_prod *prod, int level) {
  if (!bt->n) return;
  es_type *rt = &st->types[bt->restype];
  size_t total = (size_t)rt->total;
  pool_run(st->workers, bt);
  long work = 0;
  for (int i = 0; i < bt->n; i++) {
    st->stats->evaluated++;
    if (bt->status[i] < 0) {
      st->stats->static_filtered++;
      continue;
    }
    st->stats->elements += (long)total;
    work += (long)total;
    mk_op_arg m = {st, prod, bt->ops[i]};
    keep(st, bt->restype, level, bt->vals + (size_t)i * total,
         bt->status[i] ? bt->poison + (size_t)i * total : NULL, bt->hash[i], mk_op, &m, -1);
  }
  ir_work_add(work); /* once per batch: the command's count is shared */
  bt->n = 0;
}

static int add_target(es_state *st, ir_type *out, int n, int cap, const ir_type *t) {
  for (int j = 0; j < n; j++)
    if (ir_type_equal(&out[j], t)) return n;
  if (n == cap) {
    st->limited = 1;
    return n;
  }
  out[n] = *t;
  return n + 1;
}

/* Target types proposed to ops whose result shape is not determined by
 * their operands (broadcasts, reshapes, constants): the goal types, the
 * leaf types, each of them with one dim or every dim made 1, and with a
 * leading dim of 1 (the shapes that equal-rank broadcasting, kept reduced
 * dims and batched contractions need), and each leaf type behind a goal's
 * leading dims (a leaf broadcast along batch dims). */
static int targets(es_state *st, ir_type *out, int cap) {
  int n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < st->in->ngoals + st->in->nleaves; i++) {
      const ir_type *t = i < st->in->ngoals ? &st->in->goals[i].type
                                            : &st->in->leaves[i - st->in->ngoals].node->type;
      if (t->elem == IR_I1) continue;
      if (pass == 0) {
        n = add_target(st, out, n, cap, t);
        /* the same shape in the element types of the task's conversions */
        for (int e = 0; e < IR_ELEM_COUNT; e++)
          if ((st->in->elems & (1u << e)) && e != (int)t->elem) {
            ir_type c = *t;
            c.elem = (ir_elem)e;
            n = add_target(st, out, n, cap, &c);
          }
        continue;
      }
      ir_type ones = *t;
      for (int d = 0; d < t->rank; d++) {
        ir_type one = *t;
        one.dims[d] = IR_DIM_ONE;
        ones.dims[d] = IR_DIM_ONE;
        n = add_target(st, out, n, cap, &one);
      }
      n = add_target(st, out, n, cap, &ones);
      if (t->rank < IR_MAX_RANK) { /* a leading batch dim of 1 */
        ir_type lead = *t;
        lead.rank = t->rank + 1;
        lead.dims[0] = IR_DIM_ONE;
        for (int d = 0; d < t->rank; d++) lead.dims[d + 1] = t->dims[d];
        n = add_target(st, out, n, cap, &lead);
      }
      /* a leaf broadcast along a goal's leading (batch) dims */
      for (int g = 0; g < st->in->ngoals && i >= st->in->ngoals; g++) {
        const ir_type *gt = &st->in->goals[g].type;
        int extra = gt->rank - t->rank;
        if (extra <= 0 || t->rank == 0) continue;
        ir_type b = *t;
        b.rank = gt->rank;
        for (int d = 0; d < extra; d++) b.dims[d] = gt->dims[d];
        for (int d = 0; d < t->rank; d++) b.dims[extra + d] = t->dims[d];
        n = add_target(st, out, n, cap, &b);
      }
    }
  return n;
}

/* The process-wide observer (enumerator.h, enum_set_observer). */
static enum_observer observer;

void enum_set_observer(const enum_observer *ob) {
  if (ob)
    observer = *ob;
  else
    memset(&observer, 0, sizeof observer);
}

/* Has the command's time or work budget run out?  Checked before a
 * search starts too, so no search starts once the budget is gone. */
static int budget_gone(const es_search_in *in, double now, es_outcome *why) {
  if (now > in->deadline) {
    *why = ES_TIMEOUT;
    return 1;
  }
  if (ir_work_over()) {
    *why = ES_WORK;
    return 1;
  }
  return 0;
}

static int over_budget(es_state *st, es_outcome *why) {
  double now = es_now();
  if (budget_gone(st->in, now, why)) return 1;
  if (st->in->max_elements && st->stats->elements > st->in->max_elements) {
    *why = ES_LIMIT;
    return 1;
  }
  if ((long)((st->cappool * sizeof(double)) + st->capppool) > st->in->memory_bytes) {
    *why = ES_MEMORY;
    return 1;
  }
  if (st->in->progress && now - st->last_progress > 0.5) {
    double rate = (double)(st->stats->evaluated - st->evals_at_progress) /
                  (now - st->last_progress);
    if (observer.progress)
      observer.progress(observer.user, st->in->task, st->ncands, rate);
    else
      fprintf(stderr, "\r\033[Kuplift: task %d: %d candidates stored, %.0f evaluated/s",
              st->in->task, st->ncands, rate);
    st->last_progress = now;
    st->evals_at_progress = st->stats->evaluated;
  }
  return 0;
}

/* Has the main goal a solution? */
static int main_solved(const es_search_in *in) {
  for (int g = 0; g < in->ngoals; g++)
    if (in->goals[g].is_main && in->goals[g].solution) return 1;
  return 0;
}

/* Has a goal been solved that ends the search?  The main goal (the first
 * solution stays), or a sub-goal: the round that takes it as a leaf is
 * smaller than the rest of this level; not at level 0 (the leaves and
 * their views), which is done whole.  Checked after each batch, so the
 * point where the search stops does not depend on the thread count. */
static int solved_stop(es_state *st, int level, es_outcome *why) {
  if (main_solved(st->in)) {
    *why = ES_FOUND_MAIN;
    return 1;
  }
  if (st->new_sub && level > 0) {
    *why = ES_FOUND_SUB;
    return 1;
  }
  return 0;
}

typedef struct level_ctx {
  es_state *st;
  const gram_op *op;
  int level;
  int parts[IR_TP_MAX_OPERANDS];
  int comm;
  /* the view pass (view_pass): only unit-dim views, of the candidates
   * stored in [from, below), not of the views it adds */
  int views, from, below;
  /* which productions of the level (level_pass): LEVEL_ALL, or those whose
   * result type can meet a goal at this level first (LEVEL_GOALS), the
   * others after them (LEVEL_REST) */
  int pass;
} level_ctx;

enum { LEVEL_ALL, LEVEL_GOALS, LEVEL_REST };

/* Do types x and r hold the same values in the same order: the same
 * element type and the same dims once the dims of size 1 are left out? */
static int same_core(const ir_type *x, const ir_type *r) {
  if (x->elem != r->elem) return 0;
  int i = 0, j = 0;
  for (;;) {
    while (i < x->rank && x->dims[i] == IR_DIM_ONE) i++;
    while (j < r->rank && r->dims[j] == IR_DIM_ONE) j++;
    if (i == x->rank || j == r->rank) return i == x->rank && j == r->rank;
    if (x->dims[i++] != r->dims[j++]) return 0;
  }
}

/* Is production p of an operand of type x a unit-dim view: a reshape
 * (result rule reshape(x)) that only adds or drops dims of size 1, so
 * that its values are x's, in x's order?  With es_search_in.free_views it
 * costs no level (view_pass). */
static int unit_view(const gram_prod *p, const ir_type *x) {
  return p->op->res == GRAM_RES_RESHAPE && p->op->nops == 1 && same_core(x, &p->result);
}

/* Can a candidate of type t meet an unsolved goal at its own level: is t
 * the goal's type, or with free views one that a unit-dim view (made at
 * the same level) turns into the goal's type?  A goal solved at level 0
 * (by a leaf: a sub-goal solved in an earlier round) is done; one solved
 * later ends the search, so the answer is the same in both passes of a
 * level. */
static int meets_goal(const es_state *st, const ir_type *t) {
  for (int g = 0; g < st->in->ngoals; g++) {
    const ir_type *gt = &st->in->goals[g].type;
    if (st->in->goals[g].solution) continue;
    if (st->in->free_views ? same_core(t, gt) : ir_type_equal(t, gt)) return 1;
  }
  return 0;
}

/* The unit-dim views (production prod, result type restype) of the
 * candidates v->v[first..lim): nothing is evaluated or copied, a view
 * shares its operand's values in the pool (keep) and its hash is the
 * operand's with the type's part swapped (type_mix).  The stop checks
 * come every ES_BATCH views, as after a batch. */
static int keep_views(level_ctx *lc, const gram_prod *prod, const es_vec *v, int first,
                      int lim, int restype, es_outcome *why) {
  es_state *st = lc->st;
  for (int i = first; i < lim; i++) {
    int c = v->v[i];
    const es_cand *o = &st->cands[c];
    const double *vals = st->pool + o->voff;
    const unsigned char *p = o->poff >= 0 ? st->ppool + o->poff : NULL;
    uint64_t h = o->hash ^ type_mix(o->type) ^ type_mix(restype);
    st->stats->enumerated++;
    st->stats->evaluated++;
    mk_op_arg m = {st, prod, &c};
    keep(st, restype, lc->level, vals, p, h, mk_op, &m, c);
    if ((i - first + 1) % ES_BATCH == 0 &&
        (solved_stop(st, lc->level, why) || over_budget(st, why)))
      return 1;
  }
  return solved_stop(st, lc->level, why);
}

/* All operand-candidate tuples for production prod with operand types tys. */
static int run_tuples(level_ctx *lc, const gram_prod *prod, const int *tys,
                      es_outcome *why) {
  es_state *st = lc->st;
  gram_binding b;
  if (gram_bind(prod->op, prod->attrs, &b, NULL)) return 0;
  int restype = type_index(st, &prod->result);
  if (restype < 0) return 0;
  int n = prod->op->nops;
  es_vec *vs[IR_TP_MAX_OPERANDS];
  int first[IR_TP_MAX_OPERANDS], lim[IR_TP_MAX_OPERANDS]; /* the candidates
                                         taken from each bucket: [first, lim) */
  for (int i = 0; i < n; i++) {
    vs[i] = bucket(st, lc->parts[i], tys[i]);
    lim[i] = vs[i]->n;
    first[i] = 0;
    while (lc->views && lim[i] > 0 && vs[i]->v[lim[i] - 1] >= lc->below) lim[i]--;
    while (lc->views && first[i] < lim[i] && vs[i]->v[first[i]] < lc->from) first[i]++;
    if (first[i] == lim[i]) return 0;
  }
  if (lc->views) return keep_views(lc, prod, vs[0], first[0], lim[0], restype, why);
  es_batch *bt = st->batch;
  size_t need = (size_t)ES_BATCH * (size_t)st->types[restype].total;
  if (need > bt->cap) {
    bt->vals = ir_realloc(bt->vals, need * sizeof(double));
    bt->poison = ir_realloc(bt->poison, need);
    bt->cap = need;
  }
  bt->st = st;
  bt->b = &b;
  bt->restype = restype;
  bt->n = 0;
  int idx[IR_TP_MAX_OPERANDS];
  memcpy(idx, first, sizeof idx);
  int same01 = lc->comm && n == 2 && lc->parts[0] == lc->parts[1] && tys[0] == tys[1];
  for (;;) {
    if (!same01 || idx[0] <= idx[1]) {
      st->stats->enumerated++;
      for (int i = 0; i < n; i++) bt->ops[bt->n][i] = vs[i]->v[idx[i]];
      if (++bt->n == ES_BATCH) {
        flush_batch(st, bt, prod, lc->level);
        if (solved_stop(st, lc->level, why) || over_budget(st, why)) return 1;
      }
    }
    int i = n - 1;
    while (i >= 0 && ++idx[i] == lim[i]) {
      idx[i] = first[i];
      i--;
    }
    if (i < 0) break;
  }
  flush_batch(st, bt, prod, lc->level);
  return solved_stop(st, lc->level, why);
}

/* Every operand type tuple for the current split of the level. */
static int run_types(level_ctx *lc, int slot, int *tys, es_outcome *why) {
  es_state *st = lc->st;
  const gram_op *op = lc->op;
  if (slot == op->nops) {
    ir_type opt[IR_TP_MAX_OPERANDS];
    for (int i = 0; i < op->nops; i++) opt[i] = st->types[tys[i]].t;
    const ir_type *tg = st->targets;
    int ntg = 1;
    const ir_type *tgp = NULL;
    if (gram_op_needs_target(op)) ntg = st->ntargets;
    for (int t = 0; t < ntg; t++) {
      if (gram_op_needs_target(op)) tgp = &tg[t];
      gram_prod prods[ES_MAX_PRODS];
      gram_stats gs = {0, 0};
      int np = gram_productions(op, opt, tgp, prods, ES_MAX_PRODS, &gs);
      st->stats->enumerated += gs.rejected;
      st->stats->static_filtered += gs.rejected;
      if (np > ES_MAX_PRODS) {
        np = ES_MAX_PRODS;
        st->limited = 1;
      }
      for (int p = 0; p < np; p++) {
        /* with free views, a unit-dim view belongs to the view pass only */
        if (st->in->free_views && lc->views != unit_view(&prods[p], &opt[0])) continue;
        if (lc->pass != LEVEL_ALL &&
            meets_goal(st, &prods[p].result) != (lc->pass == LEVEL_GOALS))
          continue;
        if (run_tuples(lc, &prods[p], tys, why)) return 1;
      }
    }
    return 0;
  }
  /* commutative ops: operands in (level, type) order only */
  for (int t = 0; t < st->ntypes; t++) {
    if (!bucket(st, lc->parts[slot], t)->n) continue;
    if (lc->comm && slot == 1 && op->nops == 2 && lc->parts[0] == lc->parts[1] &&
        t < tys[0])
      continue;
    tys[slot] = t;
    if (run_types(lc, slot + 1, tys, why)) return 1;
  }
  return 0;
}

/* Every split of level - 1 ops among the operands. */
static int run_splits(level_ctx *lc, int slot, int left, es_outcome *why) {
  const gram_op *op = lc->op;
  if (slot == op->nops - 1 || op->nops == 0) {
    if (op->nops == 0) {
      if (left) return 0;
    } else {
      lc->parts[slot] = left;
      if (lc->comm && op->nops == 2 && lc->parts[0] > lc->parts[1]) return 0;
    }
    int tys[IR_TP_MAX_OPERANDS];
    return run_types(lc, 0, tys, why);
  }
  for (int s = 0; s <= left; s++) {
    lc->parts[slot] = s;
    if (run_splits(lc, slot + 1, left - s, why)) return 1;
  }
  return 0;
}

/* The unit-dim views of the candidates of `level` stored from index
 * `from` on (es_search_in.free_views), stored at that level: a reshape
 * that only adds or drops dims of size 1 costs no level, so a program is
 * as deep as its other ops.  Views of views are not made (one view
 * reaches every target type). */
static int view_pass(es_state *st, int level, int from, es_outcome *why) {
  const es_search_in *in = st->in;
  if (!in->free_views) return 0;
  int below = st->ncands;
  for (int o = 0; o < in->nops; o++) {
    if (in->ops[o]->res != GRAM_RES_RESHAPE || in->ops[o]->nops != 1) continue;
    level_ctx lc = {st, in->ops[o], level, {level}, 0, 1, from, below, LEVEL_ALL};
    int tys[IR_TP_MAX_OPERANDS];
    if (run_types(&lc, 0, tys, why)) return 1;
  }
  return 0;
}

/* One pass over the productions of `level` (level_ctx.pass), then the
 * views of what it stored.  The productions whose candidates can meet a
 * goal at this level run first (LEVEL_GOALS), the others after them
 * (LEVEL_REST): a goal met ends the search after its batch (solved_stop),
 * so the rest of the last level, its largest part (outer products of rank
 * 4 on doitgen and symm), is never evaluated; when no goal is met, the
 * level holds the same candidates as in one pass.  Without goals
 * (explore) there is one pass.  Returns 1 when the search ends (*why). */
static int level_pass(es_state *st, int level, int pass, es_outcome *why) {
  const es_search_in *in = st->in;
  if (!in->ngoals) {
    if (pass == LEVEL_GOALS) return 0;
    pass = LEVEL_ALL;
  }
  int from = st->ncands;
  for (int o = 0; o < in->nops; o++) {
    level_ctx lc = {st, in->ops[o], level, {0}, 0, 0, 0, 0, pass};
    gram_binding b;
    ir_attr none[IR_TP_MAX_ATTRS];
    memset(none, 0, sizeof none);
    lc.comm = in->ops[o]->kernel && !gram_bind(in->ops[o], none, &b, NULL) &&
              commutative(b.kernel);
    if (run_splits(&lc, 0, level - 1, why)) return 1;
    if (main_solved(in)) {
      *why = ES_FOUND_MAIN;
      return 1;
    }
  }
  if (view_pass(st, level, from, why)) return 1;
  if (main_solved(in)) {
    *why = ES_FOUND_MAIN;
    return 1;
  }
  return 0;
}

es_outcome es_search(const es_search_in *in, enum_stats *stats) {
  if (observer.search_begins) observer.search_begins(observer.user, in->task);
  es_outcome gone;
  if (budget_gone(in, es_now(), &gone)) return gone;
  es_state st;
  memset(&st, 0, sizeof st);
  st.in = in;
  st.stats = stats;
  st.last_progress = es_now();
  st.buckets = ir_calloc((size_t)(in->max_ops + 1) * ES_MAX_TYPES, sizeof(es_vec));
  es_pool workers;
  pool_start(&workers, in->threads);
  st.workers = &workers;
  st.batch = ir_calloc(1, sizeof(es_batch));
  es_outcome why = ES_EXHAUSTED;
  for (int g = 0; g < in->ngoals; g++)
    if (type_index(&st, &in->goals[g].type) < 0) {
      why = ES_LIMIT;
      goto done;
    }
  for (int l = 0; l < in->nleaves; l++) add_leaf(&st, &in->leaves[l]);
  st.ntargets = targets(&st, st.targets, ES_MAX_TYPES);
  if (view_pass(&st, 0, 0, &why)) goto done;
  if (in->on_level) in->on_level(in->hook_user, 0, stats);
  if (main_solved(in)) {
    why = ES_FOUND_MAIN;
    goto done;
  }
  st.new_sub = 0;
  for (int level = 1; level <= in->max_ops; level++) {
    if (level_pass(&st, level, LEVEL_GOALS, &why) || level_pass(&st, level, LEVEL_REST, &why))
      goto done;
    if (in->on_level) in->on_level(in->hook_user, level, stats);
    if (over_budget(&st, &why)) goto done;
    if (st.new_sub) {
      why = ES_FOUND_SUB;
      goto done;
    }
  }
  why = st.limited ? ES_LIMIT : ES_EXHAUSTED;
done:
  if (in->progress && !observer.progress) fprintf(stderr, "\r\033[K");
  for (int i = 0; i < (in->max_ops + 1) * ES_MAX_TYPES; i++) ir_free(st.buckets[i].v);
  ir_free(st.buckets);
  pool_stop(&workers);
  ir_free(st.batch->vals);
  ir_free(st.batch->poison);
  ir_free(st.batch);
  ir_free(st.cands);
  if (st.pool) munmap(st.pool, st.cappool * sizeof(double));
  ir_free(st.ppool);
  ir_free(st.scratch_poison);
  ir_free(st.oe);
  return why;
}
