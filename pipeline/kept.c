/*
 * kept.c - raising inside a kept sequential loop (issue 14; docs/analyze.md,
 * "Kept loops"; docs/architecture.md section 3, ir_tloop).
 *
 * When the analysis keeps a loop (polyhedral/keep.c), the program form is
 * the kept loop around the raised program of its body, with the arrays the
 * body writes carried from one iteration to the next.  What is built: one
 * outermost kept loop that is the kernel's only statement and holds no
 * kept loop (a statement that stays scalar has it as its only loop: a
 * statement of the body).  Its body is then an ordinary kernel (the kernel
 * with the loop removed: the same variables, the body's statements),
 * raised and verified as any kernel (a local that carries a value from one
 * iteration to the next would start as poison there: refused).
 *
 * The iterator.  Where the body reads an array it does not write at
 * subscripts that read the iterator t and no other iterator (fdtd-2d's
 * fict[t], A[t + 1][i], trisolv's L[i][j]), or one it writes only a
 * constant apart in t (p[i][t - 1] beside p[i][t]: writes_over), each distinct access (array
 * and t-subscripts) becomes a slice: a new operand of the body (a var
 * after the kernel's, `fict_t`, shaped by the array's other dims), read at
 * the remaining subscripts, and cut from the array at each iteration
 * (ir_tslice).  Where the body reads t anywhere else (a loop bound,
 * trisolv's j < i; a condition; an access of an array it writes, x[i] =
 * ...; one of a padded pointer, whose copy would read past its storage),
 * t becomes a size of the body's kernel (iter_as_size; ir_tloop.iter_size),
 * which each iteration gives its value: the body is raised and verified
 * for every value of its operands and of its sizes, so each verdict holds
 * at every iteration.  A subscript t - i + c (i another loop's iterator:
 * durbin's reversed window r[k - i - 1]) stays too, t a size of the body,
 * and the search reads it through slice and reverse ops whose window has
 * the size t as its extent (enumerator/raise.c, window_leaves).  Refused
 * (the reason in pipe_kept.why_not): t in a data value; a subscript that
 * reads t and another iterator in any other form (B[i + t]: no program
 * cuts that window).  A downward kept loop runs
 * downward (ir_tloop.down).  Anything else keeps the analysis of the whole
 * kernel (refused as before).
 *
 * Sequences (pipe_split): a kernel's top level cut into items, runs of
 * statements and kept loops, each raised as a kernel of its own; a batch
 * loop (polyhedral.h, poly_batch_loop: a loop that keeps nothing around
 * kept loops and carries no dependence) is first distributed over its
 * items and moved inside each kept loop it holds (top_items).
 *
 * Scalar items (docs/analyze.md, "Scalar items").  Only true recurrences
 * stay loops: a kernel whose statements all stay scalar, a kept loop part
 * of a sequence whose statements do, and in a kept loop's body the
 * statements of a recurrence through an array element written at its
 * iterator (recurrent_runs: those that stay scalar, read what the loop
 * carries, and those on a dependence cycle with them) are scalar items,
 * their statements run as written (pipe_kept.scalar; pipe_split cuts
 * their runs out of a body, ir_kernel.scalar).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"

/* Does statement list s hold a loop, at any depth? */
static int has_loop(const ir_stmt *s) {
  for (; s; s = s->next)
    if (s->kind == IR_ST_FOR ||
        (s->kind == IR_ST_IF && (has_loop(s->then_body) || has_loop(s->else_body))))
      return 1;
  return 0;
}

/* Why a's kept loops are not raised inside (NULL: they are). */
static const char *unsupported(const poly_analysis *a, ir_arena *arena) {
  const poly_kept_loop *kl = &a->kept[0];
  const ir_kernel *k = a->kernel;
  /* kept loops nested in the outermost one are the body's: its analysis
   * keeps them again, and the body is raised as a sequence of items */
  for (int i = 1; i < a->nkept; i++)
    if (a->kept[i].parent < 0) return "more than one kept loop in sequence";
  /* with one kept loop, a statement that stays scalar has it as its only
   * loop: one statement of the body, run once per iteration */
  if (a->nprelude || k->body != kl->loop || kl->loop->next)
    return "statements outside the kept loop";
  /* a body without a loop of its own is a scalar recurrence (a[i+1] =
   * a[i] + b[i]): a program over whole arrays per iteration would only
   * mask one element, so the dependence stays the reason */
  if (!has_loop(kl->loop->body)) return "its body has no loop of its own: a scalar recurrence";
  for (int i = 0; i < a->ndeps; i++) { /* the body program carries parameters only */
    const poly_dep *d = &a->deps[i];
    ir_var_kind vk = k->vars[d->var]->kind;
    if (d->kind == POLY_DEP_FLOW && (vk == IR_VAR_LOCAL || vk == IR_VAR_LOCAL_ARRAY) &&
        kl->level < 32 && ((d->levels >> kl->level) & 1u))
      return ir_arena_printf(arena, "the local %s carries a value from one iteration to the next",
                             k->vars[d->var]->name);
  }
  return NULL;
}

/* ------------------------------------------------------------ slices */

typedef struct cutter {
  ir_arena *arena;
  ir_kernel *body;   /* the body kernel being built (its vars grow) */
  const ir_kernel *k;
  int iter;
  int nvars, cap;    /* body->vars: nvars used of cap */
  ir_tslice *slices; /* in the arena: nslices used of capslices */
  int nslices, capslices;
  const char *why;   /* the first reason the body cannot be cut, or NULL */
  int as_size;       /* the body reads the iterator other than in a slice's
                        subscripts: it is a size of the body */
  int in_cond;       /* cutting an if's condition */
  int guarded;       /* cutting an if's branches: an access there may be
                        one the source makes at some iterations only */
} cutter;

static const char *iter_name(const cutter *c) { return c->k->vars[c->iter]->name; }

/* Does e read an iterator other than c's? */
static int reads_other_iter(const cutter *c, const ir_expr *e) {
  for (int v = 0; v < c->k->nvars; v++)
    if (v != c->iter && c->k->vars[v]->kind == IR_VAR_ITER && ir_expr_reads(e, v)) return 1;
  return 0;
}

/* Is subscript e t - i + c, t c's iterator, i one other iterator (a
 * reversed window whose offset moves with t)? */
static int reversed_window(const cutter *c, const ir_expr *e) {
  const ir_kernel *k = c->k;
  long *coef = ir_calloc((size_t)k->nvars + 1, sizeof(long)), c0;
  int ok = !ir_expr_affine(k, e, coef, &c0) && coef[c->iter] == 1, others = 0;
  for (int v = 0; v < k->nvars && ok; v++)
    if (v != c->iter && coef[v]) {
      ok = k->vars[v]->kind == IR_VAR_ITER && coef[v] == -1 && !others;
      others++;
    }
  ir_free(coef);
  return ok && others == 1;
}

/* The slice var of src cut at at[] (new or the same as an earlier
 * access's). */
static int slice_var(cutter *c, int src, const ir_expr *const *at, ir_pos pos) {
  const ir_var *sv = c->k->vars[src];
  for (int i = 0; i < c->nslices; i++) {
    const ir_tslice *s = &c->slices[i];
    int same = s->src == src;
    for (int d = 0; d < sv->rank && same; d++)
      same = (!s->at[d] && !at[d]) || (s->at[d] && at[d] && ir_expr_equal(s->at[d], at[d]));
    if (same) return s->var;
  }
  if (c->nslices == c->capslices) {
    c->capslices = c->capslices ? 2 * c->capslices : 4;
    ir_tslice *sl = IR_NEW_N(c->arena, ir_tslice, c->capslices);
    if (c->nslices) memcpy(sl, c->slices, sizeof *sl * (size_t)c->nslices);
    c->slices = sl;
  }
  if (c->nvars == c->cap) {
    ir_var **vars = IR_NEW_N(c->arena, ir_var *, 2 * c->cap);
    memcpy(vars, c->body->vars, sizeof *vars * (size_t)c->nvars);
    c->body->vars = vars;
    c->cap *= 2;
  }
  ir_var *v = IR_NEW(c->arena, ir_var);
  v->id = c->nvars;
  v->elem = sv->elem;
  v->param_index = -1;
  v->pos = pos;
  for (int d = 0; d < sv->rank; d++)
    if (!at[d]) v->dims[v->rank++] = sv->dims[d];
  v->kind = v->rank ? IR_VAR_ARRAY : IR_VAR_SCALAR;
  /* a C name of its own: the array and the iterator, numbered on a clash */
  v->name = ir_arena_printf(c->arena, "%s_%s", sv->name, iter_name(c));
  c->body->vars[c->nvars] = v; /* ir_kernel_find_var sees the earlier slices */
  c->body->nvars = c->nvars;
  for (int n = 2; ir_kernel_find_var(c->body, v->name) >= 0; n++)
    v->name = ir_arena_printf(c->arena, "%s_%s%d", sv->name, iter_name(c), n);
  ir_tslice *s = &c->slices[c->nslices++];
  s->var = v->id;
  s->src = src;
  for (int d = 0; d < sv->rank; d++) s->at[d] = at[d];
  c->body->nvars = ++c->nvars;
  return v->id;
}

/* Is r - w (affine subscripts) one constant other than 0?  (An affine
 * f is c0 + sum c_v v: f at 0, then at each unit vector, gives its
 * coefficients.) */
static int const_apart(const cutter *c, const ir_expr *r, const ir_expr *w) {
  long *vals = ir_calloc((size_t)c->k->nvars, sizeof(long));
  long d0 = ir_expr_eval_int(r, vals) - ir_expr_eval_int(w, vals);
  int apart = d0 != 0;
  for (int v = 0; v < c->k->nvars && apart; v++) {
    vals[v] = 1;
    apart = ir_expr_eval_int(r, vals) - ir_expr_eval_int(w, vals) == d0;
    vals[v] = 0;
  }
  ir_free(vals);
  return apart;
}

/* Does some assignment of statements s write an element of e's array that
 * e's slice holds (at one value of the iterator)?  A write whose subscript
 * in a dim where both read the iterator is a constant apart from e's
 * (p[i][j] and p[i][j - 1]) writes none: the body never changes the
 * slice's elements, so the slice cut before it runs holds the values each
 * read of e sees (adi's p[i][j] = -c / (a * p[i][j - 1] + b), moved inside
 * its j sweep: a column cut at j - 1, the write at j). */
static int writes_over(const cutter *c, const ir_stmt *s, const ir_expr *e) {
  for (; s; s = s->next) {
    if (writes_over(c, s->body, e) || writes_over(c, s->then_body, e) ||
        writes_over(c, s->else_body, e))
      return 1;
    if (s->kind != IR_ST_ASSIGN || s->lhs->var != e->var) continue;
    if (s->lhs->kind != IR_EX_ELEM) return 1;
    int apart = 0;
    for (int d = 0; d < e->nargs && !apart; d++)
      apart = ir_expr_reads(e->args[d], c->iter) && ir_expr_reads(s->lhs->args[d], c->iter) &&
              const_apart(c, e->args[d], s->lhs->args[d]);
    if (!apart) return 1;
  }
  return 0;
}

/* e with its reads at subscripts in the iterator made reads of slices (e
 * itself when nothing changes); lhs: e is an assignment's target. */
static ir_expr *cut_expr(cutter *c, ir_expr *e, int lhs) {
  if (c->why) return e;
  if (e->kind == IR_EX_VAR && e->var == c->iter) {
    if (c->in_cond) { /* affine: the body's size */
      c->as_size = 1;
      return e;
    }
    c->why = ir_arena_printf(c->arena, "the body reads the kept iterator %s outside a subscript, "
                             "a condition or a loop bound (line %d)", iter_name(c), e->pos.line);
    return e;
  }
  int pinned = 0;
  if (e->kind == IR_EX_ELEM)
    for (int d = 0; d < e->nargs; d++) pinned |= ir_expr_reads(e->args[d], c->iter);
  if (pinned) {
    const ir_var *sv = c->k->vars[e->var];
    const ir_expr *at[IR_MAX_RANK] = {0};
    /* an array the body writes, or a padded pointer (its region reaches
     * past its storage): the access stays, the iterator a size of the body
     * (a mask in it selects the element) */
    int window = 0;
    for (int d = 0; d < e->nargs; d++)
      if (ir_expr_reads(e->args[d], c->iter) && reads_other_iter(c, e->args[d])) {
        if (!reversed_window(c, e->args[d])) {
          c->why = ir_arena_printf(c->arena, "a subscript of %s reads the kept iterator %s and "
                                   "another loop's other than as %s - i + c, a reversed window "
                                   "(line %d)", sv->name, iter_name(c), iter_name(c), e->pos.line);
          return e;
        }
        window = 1;
      }
    /* a reversed window (durbin's r[k - i - 1]) stays, the iterator a
     * size of the body: the search reads it with slice and reverse ops
     * (docs/enumerator.md, "Reversed windows"); a slice (of an array the
     * body writes too, its writes a constant apart: writes_over) is cut
     * only where the source reads it unguarded: a slice is cut at every
     * iteration, and under an if the read may be one the source makes at
     * some iterations only, where its offset is inside the array
     * (nussinov's table[i + 1][j - 1] under i + 1 < n, past the table at
     * i = n - 1) */
    if (window || lhs || sv->padded || c->guarded || writes_over(c, c->body->body, e)) {
      c->as_size = 1;
      return e;
    }
    ir_expr **rest = IR_NEW_N(c->arena, ir_expr *, e->nargs);
    int nrest = 0;
    for (int d = 0; d < e->nargs; d++) {
      if (!ir_expr_reads(e->args[d], c->iter)) {
        rest[nrest++] = e->args[d];
        continue;
      }
      at[d] = e->args[d];
    }
    int v = slice_var(c, e->var, at, e->pos);
    ir_expr *x = IR_NEW(c->arena, ir_expr);
    *x = *e;
    x->kind = nrest ? IR_EX_ELEM : IR_EX_VAR;
    x->var = v;
    x->nargs = nrest;
    x->args = nrest ? rest : NULL;
    return x;
  }
  ir_expr *x = e;
  for (int i = 0; i < e->nargs; i++) {
    ir_expr *a = cut_expr(c, e->args[i], 0);
    if (a == e->args[i]) continue;
    if (x == e) { /* copied on the first change */
      x = IR_NEW(c->arena, ir_expr);
      *x = *e;
      x->args = IR_NEW_N(c->arena, ir_expr *, e->nargs);
      memcpy(x->args, e->args, sizeof *x->args * (size_t)e->nargs);
    }
    x->args[i] = a;
  }
  return x;
}

/* A copy of the statement list s with cut_expr applied. */
static ir_stmt *cut_stmts(cutter *c, const ir_stmt *s) {
  ir_stmt *first = NULL, **tail = &first;
  for (; s && !c->why; s = s->next) {
    ir_stmt *x = IR_NEW(c->arena, ir_stmt);
    *x = *s;
    x->next = NULL;
    switch (s->kind) {
    case IR_ST_FOR:
      if (ir_expr_reads(s->lo, c->iter) || ir_expr_reads(s->hi, c->iter)) c->as_size = 1;
      x->body = cut_stmts(c, s->body);
      break;
    case IR_ST_IF:
      c->in_cond = 1;
      x->cond = cut_expr(c, s->cond, 0);
      c->in_cond = 0;
      c->guarded++;
      x->then_body = cut_stmts(c, s->then_body);
      x->else_body = cut_stmts(c, s->else_body);
      c->guarded--;
      break;
    case IR_ST_ASSIGN:
      x->lhs = cut_expr(c, s->lhs, 1);
      x->rhs = cut_expr(c, s->rhs, 0);
      break;
    }
    *tail = x;
    tail = &x->next;
  }
  return first;
}

/* Make kl's iterator a size of body (the same var id, kind IR_VAR_SIZE),
 * with its bounds as assumptions (lo <= t, t <= hi): the body is then
 * raised and verified for every value of it in its range, as for any size
 * (docs/verify.md, "Which sizes"). */
static void iter_as_size(ir_kernel *body, const poly_kept_loop *kl, ir_arena *arena,
                         ir_tloop *loop) {
  ir_var *v = IR_NEW(arena, ir_var);
  *v = *body->vars[kl->iter];
  v->kind = IR_VAR_SIZE;
  body->vars[kl->iter] = v;
  ir_expr *t = IR_NEW(arena, ir_expr);
  t->kind = IR_EX_VAR;
  t->type = IR_I32;
  t->var = kl->iter;
  t->pos = v->pos;
  ir_assume *as = IR_NEW_N(arena, ir_assume, body->nassumes + 2);
  if (body->nassumes) memcpy(as, body->assumes, sizeof *as * (size_t)body->nassumes);
  as[body->nassumes] = (ir_assume){kl->loop->lo, t, kl->loop->pos, 1};
  as[body->nassumes + 1] = (ir_assume){t, kl->loop->hi, kl->loop->pos, 1};
  body->assumes = as;
  body->nassumes += 2;
  loop->iter_size = 1;
}

/* The body of kept loop kl of k as a kernel of its own, its reads at the
 * iterator cut into slices (loop->slices); NULL with *why when it cannot
 * be. */
static ir_kernel *body_kernel(const ir_kernel *k, const poly_kept_loop *kl, ir_arena *arena,
                              ir_tloop *loop, const char **why) {
  ir_kernel *body = IR_NEW(arena, ir_kernel);
  *body = *k;
  body->body = kl->loop->body;
  if (!ir_stmts_read(kl->loop->body, kl->iter)) return body;
  cutter c = {arena, body, k, kl->iter, k->nvars, k->nvars + 4, NULL, 0, 0, NULL, 0, 0, 0};
  body->vars = IR_NEW_N(arena, ir_var *, c.cap);
  memcpy(body->vars, k->vars, sizeof *k->vars * (size_t)k->nvars);
  body->body = cut_stmts(&c, kl->loop->body);
  if (c.why) {
    *why = c.why;
    return NULL;
  }
  /* the slices are parameters after the file-scope arrays, before the
   * returned value's array */
  body->params = IR_NEW_N(arena, int, k->nparams + c.nslices);
  int before = k->nparams - (k->returns != 0);
  memcpy(body->params, k->params, sizeof(int) * (size_t)before);
  for (int i = 0; i < c.nslices; i++) body->params[before + i] = c.slices[i].var;
  if (k->returns) body->params[before + c.nslices] = k->params[k->nparams - 1];
  body->nparams = k->nparams + c.nslices;
  body->nslices = k->nslices + c.nslices; /* an enclosing kept loop's too */
  loop->slices = c.slices;
  loop->nslices = c.nslices;
  if (c.as_size) iter_as_size(body, kl, arena, loop);
  return body;
}

static void mark_part(const ir_stmt *s, int part, int *part_of);
static int stmt_marked(const char *const *scalar, const ir_stmt *s);
static const char *first_mark(const char *const *scalar, const ir_stmt *s);

/* The analysis's reason why assignment st of a's kernel stays scalar, or
 * NULL when it does not. */
static const char *scalar_why(const poly_analysis *a, int st) {
  for (int i = 0; i < a->nscalar; i++)
    if (a->scalar[i].stmt == st) return a->scalar[i].why;
  return NULL;
}

static int stmt_scalar(const poly_analysis *a, const ir_stmt *s);

/* Does the flow dependence d carried by kl pass through an element of an
 * array that its reader writes at kl's iterator (nussinov's table[i][j]
 * reading table[i][j - 1])?  A program over whole arrays would then only
 * mask one element at each iteration.  A value carried in a scalar
 * (filter_steps' state e = 0.5f * e) is a rank-0 program of the body. */
static int element_recurrence(const poly_analysis *a, const poly_dep *d,
                              const poly_kept_loop *kl) {
  const ir_stmt *st = a->stmts[d->dst].stmt;
  if (a->kernel->vars[d->var]->rank == 0 || st->lhs->var != d->var) return 0;
  for (int i = 0; i < st->lhs->nargs; i++)
    if (ir_expr_reads(st->lhs->args[i], kl->iter)) return 1;
  return 0;
}

/* The innermost kept loop (index in a->kept) of assignment st, which stays
 * scalar in a, or -1. */
static int innermost_kept(const poly_analysis *a, int st) {
  for (int i = 0; i < a->nscalar; i++)
    if (a->scalar[i].stmt == st) return a->scalar[i].kept;
  return -1;
}

/* Does every statement of list l stay scalar in a?  (*n counts them.) */
static int list_scalar(const poly_analysis *a, const ir_stmt *l, int *n) {
  for (; l; l = l->next, ++*n)
    if (!stmt_scalar(a, l)) return 0;
  return 1;
}

/* Does statement s (alone, with what is inside it) hold assignments, all
 * staying scalar in a? */
static int stmt_scalar(const poly_analysis *a, const ir_stmt *s) {
  if (s->kind == IR_ST_ASSIGN) return scalar_why(a, s->id) != NULL;
  int n = 0;
  return list_scalar(a, s->body, &n) && list_scalar(a, s->then_body, &n) &&
         list_scalar(a, s->else_body, &n) && n > 0;
}

/* The scalar items of the body of a's kept loop kl (issue 14; docs/
 * analyze.md, "Scalar items"): the statements of a true recurrence of kl,
 * run as written.  A statement that stays scalar (every loop around it is
 * kept) with kl its innermost kept loop, that reads what kl carries (a
 * flow dependence carried by kl: nussinov's table[i][j - 1]) is one, and so is every statement of the
 * body on a cycle of flow dependences with it (what it reads from an
 * earlier iteration and what reads it; they run in lockstep with it at
 * each iteration: nussinov's max over k of table[i][k], k < j, which the
 * scalar statements of the earlier iterations wrote); so are the
 * statements that stay scalar in the same run of consecutive top-level
 * statements.  Returns marks[id] = the reason for every such assignment
 * (in arena), or NULL when there is none: a statement that stays scalar
 * but reads nothing the loop carries (trisolv's x[i] = b[i]) is a task of
 * the body, raised as before. */
static const char **recurrent_runs(const poly_analysis *a, const poly_kept_loop *kl,
                                   ir_arena *arena) {
  const ir_kernel *k = a->kernel;
  int n = k->nassign;
  unsigned char *rec = IR_NEW_N(arena, unsigned char, n + 1);
  unsigned char *reach = IR_NEW_N(arena, unsigned char, (size_t)n * (size_t)n + 1);
  int any = 0;
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    if (d->kind != POLY_DEP_FLOW) continue;
    reach[(size_t)d->src * (size_t)n + (size_t)d->dst] = 1;
    if (kl->level < 32 && ((d->levels >> kl->level) & 1u) && scalar_why(a, d->dst) &&
        innermost_kept(a, d->dst) == kl - a->kept && element_recurrence(a, d, kl))
      any = rec[d->dst] = 1;
  }
  if (!any) return NULL;
  for (int m = 0; m < n; m++) /* the transitive closure (a body's few statements) */
    for (int i = 0; i < n; i++)
      if (reach[(size_t)i * (size_t)n + (size_t)m])
        for (int j = 0; j < n; j++)
          reach[(size_t)i * (size_t)n + (size_t)j] |= reach[(size_t)m * (size_t)n + (size_t)j];
  const char **marks = IR_NEW_N(arena, const char *, n + 1);
  for (int st = 0; st < n; st++)
    for (int r = 0; r < n && !marks[st]; r++) {
      if (!rec[r]) continue;
      if (st == r) marks[st] = scalar_why(a, r);
      else if (reach[(size_t)st * (size_t)n + (size_t)r] && reach[(size_t)r * (size_t)n + (size_t)st])
        marks[st] = scalar_why(a, st)
                        ? scalar_why(a, st)
                        : ir_arena_printf(arena, "on a cycle of dependences with S%d, a recurrence "
                                          "that stays scalar: %s", r, scalar_why(a, r));
    }
  /* the statements that stay scalar next to them, in one item */
  int *run_of = IR_NEW_N(arena, int, n + 1);
  for (int i = 0; i < n; i++) run_of[i] = -1;
  int nruns = 0, prev = 0;
  for (const ir_stmt *s = kl->loop->body; s; s = s->next) {
    int sc = stmt_scalar(a, s) || stmt_marked((const char *const *)marks, s);
    nruns += sc && !prev;
    if (sc) mark_part(s, nruns - 1, run_of);
    prev = sc;
  }
  unsigned char *hit = IR_NEW_N(arena, unsigned char, nruns + 1);
  for (int i = 0; i < n; i++)
    if (run_of[i] >= 0 && marks[i]) hit[run_of[i]] = 1;
  for (int i = 0; i < n; i++)
    if (run_of[i] >= 0 && hit[run_of[i]] && !marks[i]) marks[i] = scalar_why(a, i);
  return marks;
}

/* Is the body ba (not raisable, keeping loops) raised inside as items?
 * A body that is one kept loop is so where that loop is raised inside in
 * turn or is a scalar item (nussinov's j). */
static int nested_inside(const poly_analysis *ba, const char *const *scalar, ir_arena *arena) {
  ir_kernel **parts;
  const char *why;
  if (pipe_split(ba, scalar, arena, &parts, &why) || why) return 1;
  pipe_kept inner;
  pipe_analyze(ba->kernel, arena, &inner);
  return inner.scalar || (inner.outer && !inner.why_not);
}

/* The locals k accesses and its fold fk does not, "w" or "s, t". */
static const char *folded_names(const ir_kernel *k, const ir_kernel *fk, ir_arena *arena) {
  ir_buf b = {0};
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_LOCAL && ir_stmts_read(k->body, v) && !ir_stmts_read(fk->body, v))
      ir_buf_printf(&b, "%s%s", b.n ? ", " : "", k->vars[v]->name);
  const char *r = ir_arena_strdup(arena, ir_buf_str(&b));
  ir_buf_free(&b);
  return r;
}

poly_analysis *pipe_analyze(const ir_kernel *k, ir_arena *arena, pipe_kept *kept) {
  memset(kept, 0, sizeof *kept);
  poly_analysis *a = poly_analyze(k, arena);
  if (!a || a->error) return a;
  /* a scalar item: one a sequence cut (pipe_split), or a kernel whose
   * every statement stays scalar (seidel-2d, floyd-warshall: every loop
   * kept), run as written */
  if (k->scalar) {
    kept->scalar = k->scalar;
    return a;
  }
  if (a->raisable || a->nkept == 0) return a;
  if (k->nassign && a->nscalar == k->nassign) {
    const char **why = IR_NEW_N(arena, const char *, k->nassign);
    for (int i = 0; i < a->nscalar; i++) why[a->scalar[i].stmt] = a->scalar[i].why;
    kept->scalar = a->scalar[0].why;
    kept->scalar_stmts = why;
    return a;
  }
  /* a local accumulator stored into one element at each iteration is that
   * element (lu's in-place update for ludcmp's w), which the kept loop's
   * body raises where its expansion over the kept loops does not */
  int nfolded;
  const ir_kernel *fk = poly_fold_locals(k, arena, &nfolded);
  if (fk != k) {
    kept->folded = folded_names(k, fk, arena);
    poly_analysis *fa = poly_analyze(fk, arena);
    if (!fa || fa->error) return a;
    a = fa;
    if (a->raisable || a->nkept == 0) return a;
  }
  if ((kept->why_not = unsupported(a, arena))) return a;
  const poly_kept_loop *kl = &a->kept[0];
  /* a true recurrence in the body stays scalar loops: the whole loop when
   * every statement is on it (nussinov's j) */
  kept->scalar_stmts = recurrent_runs(a, kl, arena);
  if (kept->scalar_stmts && stmt_marked(kept->scalar_stmts, kl->loop)) {
    kept->scalar = first_mark(kept->scalar_stmts, kl->loop);
    return a;
  }
  ir_tloop loop;
  memset(&loop, 0, sizeof loop);
  ir_kernel *body = body_kernel(a->kernel, kl, arena, &loop, &kept->why_not);
  if (!body) return a;
  poly_analysis *ba = poly_analyze(body, arena);
  if (!ba || ba->error || (!ba->raisable && !ba->nkept)) {
    kept->why_not = "its body is not raisable as a kernel of its own";
    return a;
  }
  /* a body that keeps loops of its own (lu's j sweep inside the pivot loop
   * i): the body is raised as a sequence of items (pipe_split), the
   * iterator a size of each (pipeline/raise.c, raise_nested) */
  kept->nested = !ba->raisable || kept->scalar_stmts;
  if (kept->nested && !nested_inside(ba, kept->scalar_stmts, arena)) {
    kept->nested = 0;
    kept->why_not = "its body is not raisable as a kernel of its own";
    return a;
  }
  kept->outer = a;
  kept->kept = 0;
  kept->loop = loop;
  kept->loop.iter = kl->iter;
  kept->loop.lo = kl->loop->lo;
  kept->loop.hi = kl->loop->hi;
  kept->loop.down = kl->loop->step < 0;
  return ba;
}

char *pipe_kept_slice_str(const ir_kernel *k, const ir_tslice *s, ir_arena *arena) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  const ir_var *src = k->vars[s->src];
  fputs(src->name, f);
  for (int d = 0; d < src->rank; d++) {
    fputc('[', f);
    if (s->at[d]) ir_expr_print(k, s->at[d], f);
    else fputc(':', f);
    fputc(']', f);
  }
  fclose(f);
  char *r = ir_arena_strdup(arena, text);
  free(text);
  return r;
}

/* ------------------------------------------------------------ sequences */

/* Is s (a top-level statement of a's kernel) an outermost kept loop? */
static int is_kept_loop(const poly_analysis *a, const ir_stmt *s) {
  for (int i = 0; i < a->nkept; i++)
    if (a->kept[i].parent < 0 && a->kept[i].loop == s) return 1;
  return 0;
}

/* Mark part_of[id] = part for every assignment in statement s and those
 * inside it (not those after it). */
static void mark_part(const ir_stmt *s, int part, int *part_of) {
  if (s->kind == IR_ST_ASSIGN) part_of[s->id] = part;
  for (const ir_stmt *x = s->body; x; x = x->next) mark_part(x, part, part_of);
  for (const ir_stmt *x = s->then_body; x; x = x->next) mark_part(x, part, part_of);
  for (const ir_stmt *x = s->else_body; x; x = x->next) mark_part(x, part, part_of);
}

/* A copy of statement s alone (not those after it) and everything inside
 * it, its assignments numbered from *id on (a part's ids are 0..n-1). */
static ir_stmt *copy_stmt(const ir_stmt *s, int *id, ir_arena *arena);

static ir_stmt *copy_stmts(const ir_stmt *s, int *id, ir_arena *arena) {
  ir_stmt *first = NULL, **tail = &first;
  for (; s; s = s->next) {
    *tail = copy_stmt(s, id, arena);
    tail = &(*tail)->next;
  }
  return first;
}

static ir_stmt *copy_stmt(const ir_stmt *s, int *id, ir_arena *arena) {
  ir_stmt *x = IR_NEW(arena, ir_stmt);
  *x = *s;
  x->next = NULL;
  if (s->kind == IR_ST_ASSIGN) x->id = (*id)++;
  x->body = copy_stmts(s->body, id, arena);
  x->then_body = copy_stmts(s->then_body, id, arena);
  x->else_body = copy_stmts(s->else_body, id, arena);
  return x;
}

/* Make each local scalar marked in carried that part p reads or writes a
 * value of its own: a scalar (IR_VAR_SCALAR, not a C parameter) among p's
 * parameters after its slices (p->ncarried), which the analysis sees as an
 * input where p reads the value an earlier part left, and as an output
 * (live-out) where p writes it.  p's proofs then hold for every incoming
 * value, and the part's result carries the value to the parts after it
 * (by variable, as an array's). */
static void carry_locals(ir_kernel *p, const unsigned char *carried, ir_arena *arena) {
  int n = 0;
  for (int v = 0; v < p->nvars; v++)
    n += carried[v] && (ir_stmts_read(p->body, v) || ir_kernel_writes(p, v));
  if (!n) return;
  ir_var **vars = IR_NEW_N(arena, ir_var *, p->nvars);
  memcpy(vars, p->vars, sizeof *vars * (size_t)p->nvars);
  int *params = IR_NEW_N(arena, int, p->nparams + n);
  memcpy(params, p->params, sizeof *params * (size_t)p->nparams);
  for (int v = 0; v < p->nvars; v++) {
    if (!carried[v] || !(ir_stmts_read(p->body, v) || ir_kernel_writes(p, v))) continue;
    ir_var *x = IR_NEW(arena, ir_var);
    *x = *p->vars[v];
    x->kind = IR_VAR_SCALAR;
    x->param_index = -1;
    x->carried = 1;
    vars[v] = x;
    params[p->nparams++] = v;
  }
  p->vars = vars;
  p->params = params;
  p->ncarried = n;
}

/* The batch loop of a (poly_batch_loop) that is top-level statement s, or
 * NULL. */
static const poly_batch_loop *batch_loop(const poly_analysis *a, const ir_stmt *s) {
  for (int i = 0; i < a->nbatch; i++)
    if (a->batch[i].parent < 0 && a->batch[i].loop == s) return &a->batch[i];
  return NULL;
}

/* A copy of statement s alone (its next dropped; what it holds shared). */
static ir_stmt *alone(const ir_stmt *s, ir_arena *arena) {
  ir_stmt *x = IR_NEW(arena, ir_stmt);
  *x = *s;
  x->next = NULL;
  return x;
}

/* A copy of loop header l around the statement list body. */
static ir_stmt *loop_around(const ir_stmt *l, ir_stmt *body, ir_arena *arena) {
  ir_stmt *x = alone(l, arena);
  x->body = body;
  return x;
}

/* The top-level items of a's kernel, in the order they run (*kind: 0 a
 * statement that is no kept loop, 1 a kept loop holding loops, 2 one
 * without: a scalar recurrence), with every batch loop B distributed over
 * its body (loop fission: B around each run of its statements that are no
 * kept loop) and moved inside each of its kept loops (interchange: `for j
 * { for i { body } }`).  poly_batch_loop says why this keeps every
 * dependence: B carries none.  Returns the number of items (in arena);
 * -1 with *why when a batch loop cannot be so. */
static int top_items(const poly_analysis *a, ir_arena *arena, const ir_stmt ***items,
                     unsigned char **kinds, int *batched, const char **why) {
  int cap = 0;
  for (const ir_stmt *s = a->kernel->body; s; s = s->next) {
    cap++;
    for (const ir_stmt *x = s->body; x && batch_loop(a, s); x = x->next) cap++;
  }
  const ir_stmt **it = IR_NEW_N(arena, const ir_stmt *, cap);
  unsigned char *kd = IR_NEW_N(arena, unsigned char, cap);
  int n = 0;
  *batched = 0;
  for (const ir_stmt *s = a->kernel->body; s; s = s->next) {
    const poly_batch_loop *B = batch_loop(a, s);
    if (!B) {
      int kl = is_kept_loop(a, s);
      kd[n] = (unsigned char)(kl ? (has_loop(s->body) ? 1 : 2) : 0);
      it[n++] = s;
      continue;
    }
    if (B->why) {
      *why = ir_arena_printf(arena, "loop %s (line %d) is not distributed over the kept loops "
                             "inside it: %s", a->kernel->vars[B->iter]->name, s->pos.line,
                             B->why);
      return -1;
    }
    *batched = 1;
    ir_stmt **tail = NULL;
    for (const ir_stmt *x = s->body; x; x = x->next) {
      if (is_kept_loop(a, x)) { /* for j { for i { body of j } } */
        ir_stmt *j = loop_around(x, loop_around(s, x->body, arena), arena);
        kd[n] = 1;
        it[n++] = j;
        tail = NULL;
        continue;
      }
      if (!tail) { /* a new run: for i { ... } */
        ir_stmt *i = loop_around(s, NULL, arena);
        kd[n] = 0;
        it[n++] = i;
        tail = &i->body;
      }
      *tail = alone(x, arena);
      tail = &(*tail)->next;
    }
  }
  *items = it;
  *kinds = kd;
  return n;
}

/* Does statement s (alone) hold assignments, all marked in scalar? */
static int stmt_marked(const char *const *scalar, const ir_stmt *s) {
  if (!scalar) return 0;
  if (s->kind == IR_ST_ASSIGN) return scalar[s->id] != NULL;
  int n = 0;
  for (int l = 0; l < 3; l++)
    for (const ir_stmt *x = l == 0 ? s->body : l == 1 ? s->then_body : s->else_body; x;
         x = x->next, n++)
      if (!stmt_marked(scalar, x)) return 0;
  return n > 0;
}

/* The id of the first assignment in statement s (alone), or -1. */
static int first_assign(const ir_stmt *s) {
  if (s->kind == IR_ST_ASSIGN) return s->id;
  for (int l = 0; l < 3; l++)
    for (const ir_stmt *x = l == 0 ? s->body : l == 1 ? s->then_body : s->else_body; x;
         x = x->next) {
      int id = first_assign(x);
      if (id >= 0) return id;
    }
  return -1;
}

/* The reason of the first assignment of s marked in scalar. */
static const char *first_mark(const char *const *scalar, const ir_stmt *s) {
  if (s->kind == IR_ST_ASSIGN) return scalar[s->id];
  for (int l = 0; l < 3; l++)
    for (const ir_stmt *x = l == 0 ? s->body : l == 1 ? s->then_body : s->else_body; x;
         x = x->next) {
      const char *w = first_mark(scalar, x);
      if (w) return w;
    }
  return NULL;
}

int pipe_split(const poly_analysis *a, const char *const *scalar, ir_arena *arena,
               ir_kernel ***parts, const char **why) {
  const ir_kernel *k = a->kernel;
  *why = NULL;
  if (a->error) return 0;
  const ir_stmt **items;
  unsigned char *part_kept;
  int batched, kept = 0, marked = 0;
  int n = top_items(a, arena, &items, &part_kept, &batched, why);
  if (n < 0) return 0;
  for (int i = 0; i < n; i++) {
    kept |= part_kept[i] != 0;
    marked |= stmt_marked(scalar, items[i]);
  }
  if (!marked && (a->raisable || !kept || (n < 2 && !batched))) return 0;
  if (k->returns) {
    *why = "statements outside the kept loop of a kernel that returns a value";
    return 0;
  }
  /* the items: runs of statements that are no kept loop, and each kept
   * loop alone, in order */
  ir_kernel **ps = IR_NEW_N(arena, ir_kernel *, n);
  int *part_of = IR_NEW_N(arena, int, k->nassign + 1);
  int np = 0;
  ir_stmt **tail = NULL;
  int prev_kept = 1, prev_marked = 0;
  for (int i = 0; i < n; i++) {
    const ir_stmt *s = items[i];
    /* a kept loop whose statements all stay scalar is a scalar item (as
     * pipe_analyze would make it, but there a local it carries from one
     * iteration to the next, made a value of its own, would look like an
     * input no iteration writes: read_first's B[i] = s; s = A[i] * 2) */
    int kl = part_kept[i] != 0, sc = stmt_marked(scalar, s) || (kl && stmt_scalar(a, s));
    /* a run of marked statements (a scalar item) is cut from what is
     * around it, a kept loop in it included */
    if (!np || (sc ? !prev_marked : kl || prev_kept || prev_marked)) {
      ir_kernel *p = IR_NEW(arena, ir_kernel);
      *p = *k;
      p->body = NULL;
      p->nassign = 0;
      p->scalar = !sc ? NULL : stmt_marked(scalar, s) ? first_mark(scalar, s)
                                                       : scalar_why(a, first_assign(s));
      ps[np++] = p;
      tail = &p->body;
    }
    mark_part(s, np - 1, part_of);
    *tail = copy_stmt(s, &ps[np - 1]->nassign, arena);
    tail = &(*tail)->next;
    prev_kept = kl && !sc;
    prev_marked = sc;
  }
  /* each part is raised on the arrays as the one before leaves them; a
   * local scalar that a part reads from another (a flow dependence,
   * value-based: ludcmp's w, written before it is read in each part, has
   * none; durbin's alpha and beta, set by the prelude, do) is made a
   * value of its own in the parts that touch it (carry_locals); a local
   * array would start uninitialised */
  unsigned char *carried = IR_NEW_N(arena, unsigned char, k->nvars + 1);
  int ncarried = 0;
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    ir_var_kind vk = k->vars[d->var]->kind;
    if (d->kind != POLY_DEP_FLOW || part_of[d->src] == part_of[d->dst] ||
        (vk != IR_VAR_LOCAL && vk != IR_VAR_LOCAL_ARRAY))
      continue;
    if (vk == IR_VAR_LOCAL_ARRAY || k->vars[d->var]->rank) {
      *why = ir_arena_printf(arena, "the local array %s carries a value from one of the "
                             "statements and kept loops in sequence to another",
                             k->vars[d->var]->name);
      return 0;
    }
    ncarried += !carried[d->var];
    carried[d->var] = 1;
  }
  if (ncarried)
    for (int p = 0; p < np; p++) carry_locals(ps[p], carried, arena);
  *parts = ps;
  return np;
}
