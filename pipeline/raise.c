/*
 * raise.c - the raise pipeline: parse the C file, load the dialect, analyse
 * the loops, raise task by task with the verification callback
 * (pipe_verify_cb); the raised program as MLIR or C; the native
 * cross-check of `raise --check`; and the rebuilding of a saved program
 * text for `uplift verify`.  Errors are
 * pipe_error codes (the stage) with an ir_error (the kind and the message);
 * the front end and the dialect loader print their own positioned
 * diagnostics.
 */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"
#include "interp/interp.h"
#include "pipeline/pipeline.h"

static const ir_pos nowhere; /* the errors here have no source position */

int pipe_exit_status(pipe_error code) {
  switch (code) {
  case PIPE_OK: return IR_EXIT_OK;
  case PIPE_ERR_SOURCE:
  case PIPE_ERR_DIALECT:
  case PIPE_ERR_INPUTS:
  case PIPE_ERR_PROGRAM:
  case PIPE_ERR_REPORT:
  case PIPE_ERR_ANALYSIS: return IR_EXIT_BAD_INPUT;
  case PIPE_ERR_SOLVER:
  case PIPE_ERR_INTERNAL:
  case PIPE_ERR_CHECK: return IR_EXIT_MISMATCH;
  case PIPE_ERR_ELEM: return IR_EXIT_TYPES;
  }
  UNREACHABLE();
}

/* ------------------------------------------------------ front-end options */

static const char **push(const char **v, int *n, const char *s) {
  v = ir_realloc(v, sizeof *v * (size_t)(*n + 1));
  v[(*n)++] = s;
  return v;
}

void pipe_fe_add_include(fe_options *fe, const char *dir) {
  fe->include_dirs = push(fe->include_dirs, &fe->ninclude, dir);
}

void pipe_fe_add_define(fe_options *fe, const char *def) {
  fe->defines = push(fe->defines, &fe->ndefine, def);
}

void pipe_fe_options_free(fe_options *fe) {
  ir_free(fe->include_dirs);
  ir_free(fe->defines);
  memset(fe, 0, sizeof *fe);
}

/* --------------------------------------------------------------- raising */

int pipe_raise_analysed(const poly_analysis *a, const gram_dialect *d, const enum_options *eo,
                        pipe_verify_state *vs, ir_tp_store *store, ir_arena *arena,
                        enum_result *res) {
  return enum_raise(a, d, eo, vs && vs->v ? pipe_verify_cb : NULL, vs, store, arena, res);
}

/* e's floating types (its own and its operands', recursively) taken as
 * elem; a literal's value rounded to elem. */
static void retype_expr(ir_expr *e, ir_elem elem) {
  if (!e) return;
  if (ir_elem_is_float(e->type)) {
    e->type = elem;
    if (e->kind == IR_EX_CONST && elem == IR_F32) e->value = (double)(float)e->value;
  }
  for (int i = 0; i < e->nargs; i++) retype_expr(e->args[i], elem);
}

static void retype_stmts(ir_stmt *s, ir_elem elem) {
  for (; s; s = s->next) {
    retype_expr(s->lo, elem);
    retype_expr(s->hi, elem);
    retype_expr(s->cond, elem);
    retype_expr(s->lhs, elem);
    retype_expr(s->rhs, elem);
    retype_stmts(s->body, elem);
    retype_stmts(s->then_body, elem);
    retype_stmts(s->else_body, elem);
  }
}

/* Take every floating type of k (variables, expressions, casts, literals)
 * as elem: the kernel as if written with that type. */
static void retype_kernel(ir_kernel *k, ir_elem elem) {
  for (int v = 0; v < k->nvars; v++)
    if (ir_elem_is_float(k->vars[v]->elem)) k->vars[v]->elem = elem;
  if (ir_elem_is_float(k->data_type)) k->data_type = elem;
  retype_stmts(k->body, elem);
}

/* The message of a dialect that cannot express k's element type, with the
 * floating element types it has as --element-type hints (for floating
 * data). */
static void elem_refusal(const gram_dialect *d, const ir_kernel *k, ir_arena *arena,
                         ir_error *err, enum_result *res) {
  ir_buf b = {0};
  ir_buf_printf(&b, "dialect %s has no %s element type (the kernel's data type)", d->name,
                ir_elem_mlir_name(k->data_type));
  const char *sep = "; raise it as ";
  /* the floating types, widest first; --element-type changes only the
   * floating types, so integer data gets no hint */
  for (int e = 0; e <= IR_F32 && ir_elem_is_float(k->data_type); e++)
    if (ir_elem_is_float((ir_elem)e) && (d->elems & (1u << e))) {
      ir_buf_printf(&b, "%s%s with --element-type %s", sep, ir_elem_mlir_name((ir_elem)e),
                    ir_elem_mlir_name((ir_elem)e));
      sep = ", or ";
    }
  res->raised = 0;
  res->reason = ir_arena_strdup(arena, ir_buf_str(&b));
  ir_error_set(err, nowhere, IR_ERR_INPUT, "%s", res->reason);
  ir_buf_free(&b);
}

/* A raise watched for its hooks (pipe_raise_hooks): the enumerator's
 * observer and the verification callback report here. */
typedef struct raise_watch {
  const pipe_raise_hooks *h;
  const pipe_raised *pr;
  pipe_verify_state *vs;
  int done; /* the tasks reported done */
} raise_watch;

/* Report the tasks before `upto` done. */
static void watch_done(raise_watch *w, int upto) {
  for (; w->done < upto; w->done++)
    if (w->h->task_done) w->h->task_done(w->h->user, w->pr, w->done);
}

/* A search of task begins: every task before it is done. */
static void watch_begins(void *user, int task) {
  raise_watch *w = user;
  watch_done(w, task);
  if (w->h->searching) w->h->searching(w->h->user, w->pr, task, 0, -1);
}

static void watch_progress(void *user, int task, long stored, double rate) {
  raise_watch *w = user;
  if (w->h->searching) w->h->searching(w->h->user, w->pr, task, stored, rate);
}

static void watch_verify(void *user, const enum_query *q, enum_verify_result *r) {
  raise_watch *w = user;
  if (w->h->verifying) w->h->verifying(w->h->user, w->pr, q->task);
  pipe_verify_cb(w->vs, q, r);
}

/* Raise out->a with the hooks of o watching; enum_raise's status. */
static int raise_watched(const pipe_raise_opts *o, pipe_verify_state *vs, ir_tp_store *store,
                         ir_arena *arena, pipe_raised *out) {
  raise_watch w = {o->hooks, out, vs, 0};
  enum_observer ob = {watch_begins, watch_progress, &w};
  enum_set_observer(&ob);
  int r = enum_raise(out->a, out->d, &o->search, vs->v ? watch_verify : NULL, &w, store, arena,
                     &out->res);
  enum_set_observer(NULL);
  /* the tasks after the last search began: done when every output has a
   * program (a failed raise stops at the first that has none) */
  int upto = w.done;
  while (upto < out->res.ntasks) {
    const enum_task_result *tr = &out->res.tasks[upto];
    int all = out->res.raised || tr->noutputs > 0;
    for (int i = 0; i < tr->noutputs; i++) all &= tr->outputs[i].program != NULL;
    if (!all) break;
    upto++;
  }
  watch_done(&w, upto);
  return r;
}

static int raise_parts(const pipe_raise_opts *o, pipe_verify_state *vs, ir_tp_store *store,
                       ir_arena *arena, pipe_raised *out, ir_kernel **parts, int nparts);

/* Raise the body of a kept loop that keeps loops of its own (out->kept.
 * nested; out->a the body's analysis, the iterator a size of it) as a
 * sequence of items (pipe_split; a body that is one kept loop is one item),
 * each raised as a kernel of its own, recursively, and proved for every
 * value of the iterator as of any size: so every item's proof holds at
 * every iteration, on the arrays as the items before leave them.  The
 * loop's program is the signature of the items' sequence (its arguments
 * every array an item reads or writes, its results the arrays the items
 * write) with the items (ir_tprog.items).  enum_raise's status. */
static int raise_nested(const pipe_raise_opts *o, pipe_verify_state *vs, ir_tp_store *store,
                        ir_arena *arena, pipe_raised *out) {
  ir_kernel **parts = NULL;
  const char *why = NULL;
  int n = pipe_split(out->a, out->kept.scalar_stmts, arena, &parts, &why);
  if (!n && why) {
    out->res.reason = ir_arena_printf(arena, "the body of the kept loop: %s", why);
    return 1;
  }
  if (!n) { /* the body is one kept loop */
    parts = IR_NEW_N(arena, ir_kernel *, 1);
    parts[0] = (ir_kernel *)out->a->kernel;
    n = 1;
  }
  pipe_raised *b = IR_NEW(arena, pipe_raised);
  memset(b, 0, sizeof *b);
  b->k = (ir_kernel *)out->a->kernel;
  b->written = b->k;
  b->d = out->d;
  b->a = out->a;
  int r = raise_parts(o, vs, store, arena, b, parts, n);
  if (r < 0) return r;
  out->body = b;
  out->res.seconds += b->res.seconds;
  if (!b->res.raised) {
    out->res.reason = ir_arena_printf(arena, "the body of the kept loop: %s", b->res.reason);
    return 1;
  }
  const ir_tprog **items = IR_NEW_N(arena, const ir_tprog *, n);
  for (int i = 0; i < n; i++) items[i] = &b->parts[i].res.prog;
  if (emit_mlir_seq_signature(items, n, &out->res.prog)) {
    out->res.reason = "the body of the kept loop: its items' arrays do not fit one program's "
                      "arguments";
    return 1;
  }
  out->res.raised = 1;
  out->res.body = &b->res;
  out->res.prog.kernel = out->a->kernel;
  out->res.prog.items = items;
  out->res.prog.nitems = n;
  for (int i = 0; i < out->res.prog.nresults; i++)
    out->res.result_vars[i] = ir_kernel_find_var(out->a->kernel, out->res.prog.result_names[i]);
  return 0;
}

/* Does an assignment of statements s write variable v (an element of it,
 * or the scalar itself)? */
static int assigns(const ir_stmt *s, int v) {
  for (; s; s = s->next)
    if ((s->kind == IR_ST_ASSIGN && s->lhs->var == v) || assigns(s->body, v) ||
        assigns(s->then_body, v) || assigns(s->else_body, v))
      return 1;
  return 0;
}

/* A scalar item (out->kept.scalar; issue 14, docs/analyze.md "Scalar
 * items"): nothing is raised, its program runs out->k's statements as
 * written (ir_tprog.scalar).  Its arguments are out->k's array and scalar
 * parameters (argument leaves by var id), its results the leaves of those
 * it writes.  Nothing to prove: the item is the original, and it has no
 * task, so no verdict of it says proved.  Returns 0, or 1 with the reason
 * when they do not fit a program's. */
static int scalar_item(ir_tp_store *store, ir_arena *arena, pipe_raised *out) {
  const ir_kernel *k = out->k;
  enum_result *res = &out->res;
  memset(res, 0, sizeof *res);
  res->prog.kernel = k;
  res->prog.scalar = 1;
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    const ir_var *x = k->vars[v];
    ir_type ty;
    if ((x->kind != IR_VAR_ARRAY && x->kind != IR_VAR_SCALAR) || enum_var_type(k, v, &ty))
      continue;
    if (res->prog.nargs == (int)(sizeof res->prog.args / sizeof res->prog.args[0]) ||
        res->prog.nresults == IR_TP_MAX_RESULTS) {
      res->reason = ir_arena_printf(arena, "a scalar item with more parameters than a "
                                    "program's %d arguments", res->prog.nargs);
      return 1;
    }
    const ir_tnode *leaf = ir_tp_arg(store, v, x->name, &ty);
    res->prog.args[res->prog.nargs++] = leaf;
    if (!assigns(k->body, v)) continue;
    res->result_vars[res->prog.nresults] = v;
    res->prog.result_names[res->prog.nresults] = x->name;
    res->prog.results[res->prog.nresults++] = leaf;
  }
  res->raised = 1;
  return 0;
}

/* Raise out->a (analysed with pipe_analyze into out->kept) with the
 * hooks of o watching, if any; the raised program carries the kept loop
 * raised inside.  enum_raise's status. */
static int raise_one(const pipe_raise_opts *o, pipe_verify_state *vs, ir_tp_store *store,
                     ir_arena *arena, pipe_raised *out) {
  if (out->kept.scalar) return scalar_item(store, arena, out);
  int r = out->kept.nested ? raise_nested(o, vs, store, arena, out)
          : o->hooks       ? raise_watched(o, vs, store, arena, out)
                   : pipe_raise_analysed(out->a, out->d, &o->search, vs, store, arena, &out->res);
  if (r >= 0 && out->kept.outer && out->res.raised) { /* in the arena: res may be copied */
    ir_tloop *l = IR_NEW(arena, ir_tloop);
    *l = out->kept.loop;
    out->res.prog.loop = l;
  }
  return r;
}

/* Raise the parts of a sequence (pipe_split) one by one into out->parts,
 * each as a kernel of its own, and chain their results (enum_result.then):
 * each part's proof holds for every value of its arguments, so it holds
 * on the arrays as the part before leaves them.  The first part not
 * raised is the reason.  enum_raise's status. */
static int raise_parts(const pipe_raise_opts *o, pipe_verify_state *vs, ir_tp_store *store,
                       ir_arena *arena, pipe_raised *out, ir_kernel **parts, int nparts) {
  out->parts = IR_NEW_N(arena, pipe_raised, nparts);
  out->nparts = nparts;
  out->res.raised = 1;
  for (int i = 0; i < nparts; i++) {
    pipe_raised *p = &out->parts[i];
    p->k = parts[i];
    p->written = parts[i];
    p->d = out->d;
    p->a = pipe_analyze(p->k, arena, &p->kept);
    int r = raise_one(o, vs, store, arena, p);
    if (r < 0) return r;
    out->res.seconds += p->res.seconds;
    if (!p->res.raised) {
      out->res.raised = 0;
      out->res.reason = ir_arena_printf(arena, "part %d of %d (line %d): %s", i + 1, nparts,
                                        p->k->body->pos.line, p->res.reason);
      return 1;
    }
    if (i) out->parts[i - 1].res.then = &p->res;
  }
  out->res.prog = out->parts[0].res.prog;
  memcpy(out->res.result_vars, out->parts[0].res.result_vars, sizeof out->res.result_vars);
  out->res.then = out->parts[0].res.then;
  out->res.body = out->parts[0].res.body; /* a first part that is a nested kept loop */
  return 0;
}

pipe_error pipe_raise_file(const char *path, const pipe_raise_opts *o, ir_arena *arena,
                           ir_tp_store *store, pipe_raised *out, ir_error *err) {
  fe_options none;
  memset(&none, 0, sizeof none);
  memset(out, 0, sizeof *out);
  ir_error_clear(err);
  const fe_options *fe = o->fe ? o->fe : &none;
  if (!(out->k = fe_parse_file(path, fe, arena))) return PIPE_ERR_SOURCE;
  out->written = out->k;
  int retype = o->retype && ir_elem_is_float(out->k->data_type) && out->k->data_type != o->elem;
  if (retype) retype_kernel(out->k, o->elem);
  if (retype | pipe_generalize(out->k, arena)) {
    /* a second parse keeps the kernel as written for the native runs */
    if (!(out->written = fe_parse_file(path, fe, arena))) return PIPE_ERR_SOURCE;
  }
  out->d = o->d ? o->d : gram_load(o->dialect, arena);
  if (!out->d) return PIPE_ERR_DIALECT;
  if (out->d->elems && !(out->d->elems & (1u << out->k->data_type))) {
    elem_refusal(out->d, out->k, arena, err, &out->res);
    return PIPE_ERR_ELEM;
  }
  out->a = pipe_analyze(out->k, arena, &out->kept);
  ir_kernel **parts = NULL;
  const char *why = NULL;
  int nparts = out->kept.why_not ? pipe_split(out->a, NULL, arena, &parts, &why) : 0;
  if (why) out->kept.why_not = why;
  if (nparts) out->kept.why_not = NULL; /* each part says why of its own */
  pipe_verify_state vs;
  pipe_verify_state_open(&vs, &o->verify); /* no Z3: the tasks' verdicts say so */
  int r = nparts ? raise_parts(o, &vs, store, arena, out, parts, nparts)
                 : raise_one(o, &vs, store, arena, out);
  pipe_verify_state_free(&vs);
  pipe_verify_state_close(&vs);
  if (r < 0) {
    ir_error_set(err, nowhere, IR_ERR_INTERNAL, "internal error");
    return PIPE_ERR_INTERNAL;
  }
  return PIPE_OK;
}

/* ----------------------------------------------------------- emitting */

int pipe_emit(const pipe_raised *pr, pipe_emit_kind kind, const long *sizes, FILE *out,
              ir_error *err) {
  const ir_kernel *k = pr->a->kernel;
  ir_error_clear(err);
  if (pr->nparts) { /* a sequence: each part a function of its own */
    const ir_tprog **ps = ir_malloc(sizeof *ps * (size_t)pr->nparts);
    const ir_kernel **ks = ir_malloc(sizeof *ks * (size_t)pr->nparts);
    for (int i = 0; i < pr->nparts; i++) {
      ps[i] = &pr->parts[i].res.prog;
      ks[i] = pr->parts[i].a->kernel;
    }
    emit_opts eo = {k->name, sizes, k->nvars, kind == PIPE_EMIT_MLIR_DYNAMIC, 0, 0};
    int rc = kind == PIPE_EMIT_C ? emit_c_seq(pr->d, ps, ks, pr->nparts, k, out, err)
             : emit_mlir_seq(pr->d, ps, pr->nparts, &eo, out)
                 ? ir_error_set(err, nowhere, IR_ERR_INPUT, "the MLIR emitter failed (see above)")
                 : 0;
    ir_free(ps);
    ir_free(ks);
    return rc ? -1 : 0;
  }
  if (kind == PIPE_EMIT_C) return emit_c_func(pr->d, &pr->res.prog, k, out, err) ? -1 : 0;
  emit_opts eopts = {k->name, sizes, k->nvars, kind == PIPE_EMIT_MLIR_DYNAMIC, 0, 0};
  if (!emit_mlir_func(pr->d, &pr->res.prog, &eopts, out)) return 0;
  return ir_error_set(err, nowhere, IR_ERR_INPUT, "the MLIR emitter failed (see above)");
}

/* ------------------------------------------------------------ --check */

/* Copies of env's arguments (values only) for a raised program over nvars
 * variables (a kept loop's body may have vars after env's: its slices, cut
 * per iteration). */
static ir_tensor *copy_args(int nvars, const interp_env *env) {
  ir_tensor *args = ir_calloc((size_t)nvars, sizeof(ir_tensor));
  for (int v = 0; v < nvars && v < env->k->nvars; v++) {
    if (!env->vals[v].data) continue;
    args[v] = env->vals[v];
    size_t n = ir_tensor_size(&env->vals[v]);
    args[v].data = ir_malloc((n ? n : 1) * sizeof(double));
    memcpy(args[v].data, env->vals[v].data, n * sizeof(double));
    args[v].poison = NULL;
  }
  return args;
}

/* The relative tolerance of --check for the raised kernel k: 0 when its
 * arithmetic is exact on the inputs, 1e-9 when it rounds, 1e-4 in f32. */
static double check_rtol(const ir_kernel *k) {
  if (k->data_type == IR_F32) return 1e-4;
  return interp_kernel_tolerance(k) > 0 ? 1e-9 : 0;
}

/* Cut loop's slices from args at iteration t (the iterator's value lo + t)
 * into args.  Returns 0, or -1 with err filled when an index is outside its
 * array (the source reads out of bounds there). */
static int cut_slices(const ir_kernel *k, const ir_tloop *loop, ir_tensor *args,
                      const long *sizes, long t, ir_error *err) {
  long *at = ir_malloc(((size_t)k->nvars + 1) * sizeof(long));
  memcpy(at, sizes, ((size_t)k->nvars + 1) * sizeof(long));
  at[loop->iter] = ir_tloop_iter_value(loop, sizes, t);
  int rc = 0;
  for (int i = 0; i < loop->nslices && !rc; i++) {
    const ir_tslice *s = &loop->slices[i];
    const ir_tensor *src = &args[s->src];
    ir_tensor *dst = &args[s->var];
    ir_free(dst->data);
    memset(dst, 0, sizeof *dst);
    dst->elem = src->elem;
    long off[IR_MAX_RANK];
    for (int d = 0; d < src->rank; d++) {
      off[d] = s->at[d] ? ir_expr_eval_int(s->at[d], at) : 0;
      if (!s->at[d]) dst->dims[dst->rank++] = src->dims[d];
      else if (off[d] < 0 || off[d] >= src->dims[d])
        rc = ir_error_set(err, nowhere, IR_ERR_RANGE, "the slice %s of %s at %s = %ld: index %ld "
                          "of dim %d is outside its extent %ld", k->vars[s->var]->name,
                          k->vars[s->src]->name, k->vars[loop->iter]->name, at[loop->iter],
                          off[d], d, src->dims[d]);
    }
    size_t n = ir_tensor_size(dst);
    dst->data = ir_calloc(n ? n : 1, sizeof(double));
    for (size_t j = 0; j < n && !rc; j++) { /* element j of the slice */
      long idx[IR_MAX_RANK];
      ir_unravel(j, dst->rank, dst->dims, idx);
      size_t from = 0;
      for (int d = 0, r = 0; d < src->rank; d++)
        from = from * (size_t)src->dims[d] + (size_t)(s->at[d] ? off[d] : idx[r++]);
      dst->data[j] = src->data[from];
    }
  }
  ir_free(at);
  return rc;
}

static int run_chain(const enum_result *r, ir_tensor *args, const long *sizes, ir_error *err);
static int chain_nvars(const ir_kernel *k, const enum_result *r);

/* Evaluate every result of r on args into got[0..nresults-1] (ir_malloc'd;
 * interp_tensor_free).  With a kept loop (r->prog.loop), the results are
 * evaluated once per iteration and each fed back into args (by variable);
 * got then holds the carried values after the last iteration.  Returns 0,
 * or -1 with err filled (got freed). */
/* Run the scalar item r (ir_tprog.scalar) on args in the interpreter, as
 * written, its results into got[0..nresults-1] (ir_malloc'd).  Returns 0,
 * or -1 with err filled (got freed). */
static int run_scalar(const enum_result *r, const ir_tensor *args, const long *sizes,
                      ir_tensor *got, ir_error *err) {
  const ir_kernel *k = r->prog.kernel;
  interp_env env;
  if (interp_env_init(&env, k, sizes, err)) return -1;
  for (int i = 0; i < r->prog.nargs; i++) {
    int v = r->prog.args[i]->arg;
    if (args[v].data) interp_set_values(&env, v, args[v].data);
  }
  int rc = interp_run(&env, NULL, err);
  for (int i = 0; i < r->prog.nresults && !rc; i++) {
    const ir_tensor *a = &env.vals[r->result_vars[i]];
    size_t m = ir_tensor_size(a);
    got[i] = *a;
    got[i].data = ir_malloc((m ? m : 1) * sizeof(double));
    memcpy(got[i].data, a->data, m * sizeof(double));
    got[i].poison = NULL;
  }
  interp_env_free(&env);
  return rc;
}

static int eval_results(const ir_kernel *k, const enum_result *r, ir_tensor *args,
                        const long *sizes, ir_tensor *got, ir_error *err) {
  if (r->prog.scalar) return run_scalar(r, args, sizes, got, err);
  const ir_tloop *loop = r->prog.loop;
  long trips = loop ? ir_tloop_trips(loop, sizes) : 1;
  int n = r->prog.nresults;
  for (int i = 0; i < n; i++) { /* no iteration: the carried values as given */
    const ir_tensor *a = &args[r->result_vars[i]];
    size_t m = ir_tensor_size(a);
    got[i] = *a;
    got[i].data = ir_malloc((m ? m : 1) * sizeof(double));
    memcpy(got[i].data, a->data, m * sizeof(double));
    got[i].poison = NULL;
  }
  /* with the iterator's value; room for the vars of the body's items
   * (their slices), which read it as their sizes */
  int nat = r->body ? chain_nvars(k, r->body) : k->nvars;
  long *at = ir_calloc((size_t)nat + 1, sizeof(long));
  memcpy(at, sizes, ((size_t)k->nvars + 1) * sizeof(long));
  for (long t = 0; t < trips; t++) {
    if (loop && loop->iter_size) at[loop->iter] = ir_tloop_iter_value(loop, sizes, t);
    if (loop && (cut_slices(k, loop, args, sizes, t, err) ||
                 (r->body && run_chain(r->body, args, at, err)))) {
      ir_free(at);
      for (int i = 0; i < n; i++) interp_tensor_free(&got[i]);
      return -1;
    }
    if (r->body) { /* the items wrote their results into args */
      for (int i = 0; i < n; i++) {
        const ir_tensor *a = &args[r->result_vars[i]];
        size_t m = ir_tensor_size(a);
        memcpy(got[i].data, a->data, m * sizeof(double));
      }
      continue;
    }
    for (int i = 0; i < n; i++) interp_tensor_free(&got[i]);
    for (int i = 0; i < n; i++) {
      interp_err ierr;
      if (enum_eval_node(r->prog.results[i], args, k->nvars, at, &got[i], &ierr)) {
        for (int j = 0; j < i; j++) interp_tensor_free(&got[j]);
        ir_free(at);
        return ir_error_set(err, nowhere, ierr.code, "evaluating %s: %s",
                            k->vars[r->result_vars[i]]->name, ierr.msg);
      }
    }
    if (!loop) break;
    for (int i = 0; i < n; i++) { /* carried into the next iteration */
      ir_tensor *a = &args[r->result_vars[i]];
      size_t m = ir_tensor_size(&got[i]);
      ir_free(a->data);
      *a = got[i];
      a->data = ir_malloc((m ? m : 1) * sizeof(double));
      memcpy(a->data, got[i].data, m * sizeof(double));
      a->poison = NULL;
    }
  }
  ir_free(at);
  return 0;
}

/* Run the items of the sequence r (r->then) in order, each one's results
 * written into args for the items after it (sizes: with the values of
 * the enclosing kept loops' iterators).  Returns 0, or -1 with err
 * filled. */
static int run_chain(const enum_result *r, ir_tensor *args, const long *sizes, ir_error *err) {
  for (const enum_result *p = r; p; p = p->then) {
    ir_tensor part[IR_TP_MAX_RESULTS];
    if (eval_results(p->prog.kernel, p, args, sizes, part, err)) return -1;
    for (int i = 0; i < p->prog.nresults; i++) {
      ir_free(args[p->result_vars[i]].data);
      args[p->result_vars[i]] = part[i];
    }
  }
  return 0;
}

/* The most variables a kernel of r, the parts after it and the items of
 * their kept loops have (a kept loop's body has its slices after k's). */
static int chain_nvars(const ir_kernel *k, const enum_result *r) {
  int nv = k->nvars;
  for (; r; r = r->then) {
    if (r->prog.kernel && r->prog.kernel->nvars > nv) nv = r->prog.kernel->nvars;
    if (r->body) {
      int b = chain_nvars(k, r->body);
      if (b > nv) nv = b;
    }
  }
  return nv;
}

/* Evaluate r on args into got[] (ir_malloc'd; interp_tensor_free) and
 * their vars into vars[], *n of them (at most nvars).  A sequence
 * (r->then) runs its parts in order, each part's results written into
 * args; got then holds every array some part writes, as the last leaves
 * it (not the locals carried from one part to another, which are no
 * output of k).  Returns 0, or -1 with err filled (got freed). */
static int eval_all(const ir_kernel *k, const enum_result *r, ir_tensor *args, const long *sizes,
                    ir_tensor *got, int *vars, int *n, ir_error *err) {
  if (!r->then) { /* (a sequence of one part: its kernel, with its slices) */
    *n = r->prog.nresults;
    memcpy(vars, r->result_vars, sizeof(int) * (size_t)*n);
    return eval_results(r->prog.kernel ? r->prog.kernel : k, r, args, sizes, got, err);
  }
  *n = 0;
  for (const enum_result *p = r; p; p = p->then) {
    ir_tensor part[IR_TP_MAX_RESULTS];
    if (eval_results(p->prog.kernel, p, args, sizes, part, err)) return -1;
    for (int i = 0; i < p->prog.nresults; i++) { /* the next part's argument */
      int v = p->result_vars[i], seen = 0;
      ir_free(args[v].data);
      args[v] = part[i];
      for (int j = 0; j < *n && !seen; j++) seen = vars[j] == v;
      if (!seen && k->vars[v]->kind != IR_VAR_LOCAL) vars[(*n)++] = v;
    }
  }
  for (int i = 0; i < *n; i++) {
    const ir_tensor *a = &args[vars[i]];
    size_t m = ir_tensor_size(a);
    got[i] = *a;
    got[i].data = ir_malloc((m ? m : 1) * sizeof(double));
    memcpy(got[i].data, a->data, m * sizeof(double));
    got[i].poison = NULL;
  }
  return 0;
}

/* Compare every result of r, evaluated on args, with the native outputs in
 * env, but the elements where ref (the interpreter's run of the original,
 * NULL: none) has no value in C or none a double holds
 * (INTERP_POISON_UNDEF: a signed overflow; the native value is then
 * anything) and integer elements whose value is not known on either side
 * (NaN: past 2^53); *elements counts the elements compared.  Returns 0, or
 * -1 with the first difference in err. */
static int compare_results(const ir_kernel *k, const enum_result *r, const interp_env *env,
                           const interp_env *ref, ir_tensor *args, const long *sizes,
                           long *elements, long *left_out, ir_error *err) {
  double rtol = check_rtol(k);
  int nv = chain_nvars(k, r), ngot = 0;
  ir_tensor *got = ir_calloc((size_t)nv, sizeof *got);
  int *vars = ir_calloc((size_t)nv, sizeof *vars);
  if (eval_all(k, r, args, sizes, got, vars, &ngot, err)) {
    ir_free(got);
    ir_free(vars);
    return -1;
  }
  int bad = 0;
  for (int i = 0; i < ngot; i++) {
    int v = vars[i];
    size_t n = ir_tensor_size(&got[i]);
    const ir_tensor *rv = ref ? &ref->vals[v] : NULL;
    int is_int = ir_elem_is_int(got[i].elem);
    for (size_t j = 0; j < n && !bad; j++) {
      if ((rv && rv->poison && ir_tensor_size(rv) == n && (rv->poison[j] & INTERP_POISON_UNDEF)) ||
          (is_int && (env->vals[v].data[j] != env->vals[v].data[j] ||
                      got[i].data[j] != got[i].data[j]))) {
        ++*left_out;
        continue;
      }
      ++*elements;
      if (!interp_values_agree(env->vals[v].data[j], got[i].data[j], rtol) ||
          (got[i].poison && got[i].poison[j])) {
        ir_error_set(err, nowhere, IR_ERR_RANGE, "%s element %zu: native %.17g, raised %.17g",
                     k->vars[v]->name, j, env->vals[v].data[j], got[i].data[j]);
        bad = 1;
      }
    }
  }
  for (int i = 0; i < ngot; i++) interp_tensor_free(&got[i]);
  ir_free(got);
  ir_free(vars);
  return bad ? -1 : 0;
}

/* One --check run at sizes: native original (kernel as written) against
 * the raised program of k. */
static int check_at(const ir_kernel *k, const ir_kernel *written, interp_native *nat,
                    const enum_result *r, const long *sizes, uint64_t seed, long *elements,
                    long *left_out, ir_error *err) {
  interp_env env;
  interp_native_result nres;
  if (interp_env_init(&env, written, sizes, err)) return -1;
  interp_fill_random(&env, seed);
  int nv = chain_nvars(k, r);
  ir_tensor *args = copy_args(nv, &env);
  /* the interpreter's run of the original says where C gives no value */
  interp_env ienv;
  ir_error ierr;
  int have_ref = !interp_env_init(&ienv, written, sizes, &ierr);
  if (have_ref) {
    interp_env_copy(&ienv, &env);
    if (interp_run(&ienv, NULL, &ierr)) {
      interp_env_free(&ienv);
      have_ref = 0;
    }
  }
  int bad = 0;
  if (interp_native_call(nat, &env, NULL, &nres)) {
    ir_error_set(err, nowhere, IR_ERR_TOOL, "native run: %s", nres.msg);
    bad = 1;
  }
  if (!bad)
    bad = compare_results(k, r, &env, have_ref ? &ienv : NULL, args, sizes, elements, left_out,
                          err) != 0;
  for (int v = 0; v < nv; v++) ir_free(args[v].data);
  ir_free(args);
  if (have_ref) interp_env_free(&ienv);
  interp_env_free(&env);
  return bad ? -1 : 0;
}

void pipe_check_summary_free(pipe_check_summary *s) {
  ir_free(s->sizes);
  memset(s, 0, sizeof *s);
}

pipe_error pipe_check_native(const ir_kernel *k, const ir_kernel *written, const char *path,
                             const fe_options *fe, const enum_result *r, uint64_t seed,
                             pipe_check_summary *sum, ir_error *err) {
  interp_native_result nres;
  pipe_check_summary none;
  if (!sum) sum = &none;
  memset(sum, 0, sizeof *sum);
  sum->nvars = k->nvars;
  sum->rtol = check_rtol(k);
  ir_error_clear(err);
  interp_native *nat = interp_native_compile(written, path, fe, &nres);
  if (!nat) {
    ir_error_set(err, nowhere, IR_ERR_TOOL, "%s", nres.msg);
    return PIPE_ERR_CHECK;
  }
  const ir_tnode *masks[64];
  int nmasks = 0;
  for (const enum_result *p = r; p; p = p->then) {
    /* in a sequence (of one part or more), a part's iterator as a size
     * is none of k's */
    if (p->prog.kernel != k && p->prog.loop && p->prog.loop->iter_size) continue;
    /* a nested kept loop's results are its items' nodes: their masks read
     * the items' iterators, none of k's sizes */
    if (p->prog.nitems) continue;
    for (int i = 0; i < p->prog.nresults; i++)
      nmasks = pipe_tnode_masks(p->prog.results[i], masks, nmasks, 64);
  }
  poly_size_cases sc;
  if (poly_size_cases_build(k, NULL, nmasks, masks, PIPE_SIZE_CASES, &sc))
    memset(&sc, 0, sizeof sc);
  int bad = 0;
  long *sizes = ir_calloc((size_t)chain_nvars(k, r) + 1, sizeof(long));
  sum->sizes = ir_calloc((size_t)(2 + sc.ncases) * (size_t)k->nvars + 1, sizeof(long));
  for (int variant = 7; variant < 9 + sc.ncases && !bad; variant++) {
    if (variant < 9)
      interp_default_sizes(k, variant, sizes);
    else
      memcpy(sizes, sc.cases + (long)(variant - 9) * k->nvars, sizeof(long) * (size_t)k->nvars);
    ir_kernel_pin_constants(k, sizes); /* the native code has its own extents */
    ir_kernel_fit_sizes(k, sizes);      /* a view's storage fits its region */
    if (ir_kernel_elements(k, sizes, VERIFY_MAX_ELEMS) > VERIFY_MAX_ELEMS) continue;
    int seen = 0; /* pinned sizes make assignments coincide */
    for (int i = 0; i < sum->nruns && !seen; i++)
      seen = !memcmp(sum->sizes + (long)i * k->nvars, sizes, sizeof(long) * (size_t)k->nvars);
    if (seen) continue;
    memcpy(sum->sizes + (long)sum->nruns * k->nvars, sizes, sizeof(long) * (size_t)k->nvars);
    sum->nruns++;
    bad = check_at(k, written, nat, r, sizes, seed + (uint64_t)variant, &sum->elements,
                   &sum->left_out, err) != 0;
  }
  sum->agree = !bad;
  if (sum == &none) pipe_check_summary_free(sum);
  ir_free(sizes);
  poly_size_cases_free(&sc);
  interp_native_free(nat);
  return bad ? PIPE_ERR_CHECK : PIPE_OK;
}

/* ------------------------------------------------------- saved programs */

const ir_tnode *pipe_program_parse(const poly_analysis *a, const gram_dialect *d,
                                   const pipe_task_setup *ts, int task, int var,
                                   const char *text, ir_tp_store *store, ir_error *err) {
  const ir_kernel *k = a->kernel;
  const char *name = k->vars[var]->name;
  ir_tp_syntax syn;
  gram_term_syntax(d, &syn);
  ir_error perr;
  const ir_tnode *p = ir_tp_parse(store, text, k, ts->in_args, ts->nin, &syn, &perr);
  if (!p) {
    ir_error_set(err, nowhere, IR_ERR_INPUT, "task %d (%s): program: %s", task, name, perr.msg);
    return NULL;
  }
  /* a huge program would only make a huge query: refused (docs/verify.md) */
  const ir_tnode **topo = ir_calloc(PIPE_MAX_TERMS, sizeof *topo);
  int nterms = ir_tp_topo(&p, 1, topo, PIPE_MAX_TERMS);
  ir_free(topo);
  if (nterms < 0) {
    ir_error_set(err, nowhere, IR_ERR_RANGE,
                 "task %d (%s): the program has more than %d distinct terms "
                 "(the limit of uplift verify)",
                 task, name, PIPE_MAX_TERMS);
    return NULL;
  }
  ir_type want;
  if (!enum_var_type(k, var, &want) && !ir_type_equal(&want, &p->type)) {
    char b1[128], b2[128];
    ir_error_set(err, nowhere, IR_ERR_SHAPE, "task %d (%s): the program has type %s, the output is %s",
                 task, name, ir_type_str(&p->type, k, b1, sizeof b1),
                 ir_type_str(&want, k, b2, sizeof b2));
    return NULL;
  }
  return p;
}
