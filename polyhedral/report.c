/*
 * report.c - the polyhedral analysis for people (poly_print) and programs
 * (poly_to_json, cJSON).  Format: docs/analyze.md.
 *
 * Both walk the same poly_analysis in the same order: kernel, expansions,
 * statements, dependences, reductions, tasks, verdict.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "polyhedral/polyhedral.h"

static const char *vn(const poly_analysis *a, int v) {
  return v >= 0 && v < a->kernel->nvars ? a->kernel->vars[v]->name : "?";
}

/* ------------------------------------------------------ expression text */

/* Text is built in an ir_buf: no fixed size, nothing truncated. */

static void expr(const ir_kernel *k, const ir_expr *e, ir_buf *b, int paren) {
  static const char *bin[] = {
      [IR_EX_ADD] = "+", [IR_EX_SUB] = "-", [IR_EX_MUL] = "*", [IR_EX_DIV] = "/",
      [IR_EX_LT] = "<", [IR_EX_LE] = "<=", [IR_EX_GT] = ">", [IR_EX_GE] = ">=",
      [IR_EX_EQ] = "==", [IR_EX_NE] = "!=", [IR_EX_AND] = "&&", [IR_EX_OR] = "||",
      [IR_EX_SHL] = "<<", [IR_EX_SHR] = ">>"};
  switch (e->kind) {
  case IR_EX_CONST:
    if (e->is_int) ir_buf_printf(b, "%ld", (long)e->value);
    else ir_buf_printf(b, "%g", e->value);
    return;
  case IR_EX_VAR: ir_buf_printf(b, "%s", k->vars[e->var]->name); return;
  case IR_EX_ELEM:
    ir_buf_printf(b, "%s", k->vars[e->var]->name);
    for (int i = 0; i < e->nargs; i++) {
      ir_buf_printf(b, "[");
      expr(k, e->args[i], b, 0);
      ir_buf_printf(b, "]");
    }
    return;
  case IR_EX_NEG: ir_buf_printf(b, "-"); expr(k, e->args[0], b, 1); return;
  case IR_EX_NOT: ir_buf_printf(b, "!"); expr(k, e->args[0], b, 1); return;
  case IR_EX_SELECT:
    if (paren) ir_buf_printf(b, "(");
    expr(k, e->args[0], b, 1);
    ir_buf_printf(b, " ? ");
    expr(k, e->args[1], b, 1);
    ir_buf_printf(b, " : ");
    expr(k, e->args[2], b, 1);
    if (paren) ir_buf_printf(b, ")");
    return;
  case IR_EX_CALL:
    ir_buf_printf(b, "%s(", ir_fn_name(e->fn));
    for (int i = 0; i < e->nargs; i++) {
      if (i) ir_buf_printf(b, ", ");
      expr(k, e->args[i], b, 0);
    }
    ir_buf_printf(b, ")");
    return;
  case IR_EX_CAST:
    ir_buf_printf(b, "(%s)", ir_elem_c_name(e->type));
    expr(k, e->args[0], b, 1);
    return;
  case IR_EX_IMIN:
  case IR_EX_IMAX:
    ir_buf_printf(b, "%s(", e->kind == IR_EX_IMIN ? "min" : "max");
    expr(k, e->args[0], b, 0);
    ir_buf_printf(b, ", ");
    expr(k, e->args[1], b, 0);
    ir_buf_printf(b, ")");
    return;
  default:
    if (paren) ir_buf_printf(b, "(");
    expr(k, e->args[0], b, 1);
    ir_buf_printf(b, " %s ", bin[e->kind] ? bin[e->kind] : "?");
    expr(k, e->args[1], b, 1);
    if (paren) ir_buf_printf(b, ")");
    return;
  }
}

static const char *stmt_text(const ir_kernel *k, const ir_stmt *s, ir_buf *b) {
  static const char *ops[] = {"=", "+=", "-=", "*=", "/="};
  ir_buf_reset(b);
  expr(k, s->lhs, b, 0);
  ir_buf_printf(b, " %s ", ops[s->op]);
  expr(k, s->rhs, b, 0);
  return ir_buf_str(b);
}

const char *poly_stmt_text(const ir_kernel *k, const ir_stmt *s, ir_buf *b) {
  return stmt_text(k, s, b);
}

static const char *ops_text(unsigned ops, ir_buf *b) {
  ir_buf_reset(b);
  for (int i = 0; i < POLY_OP_NBITS; i++)
    if (ops & (1u << i)) ir_buf_printf(b, "%s%s", b->n ? " " : "", poly_op_name(1u << i));
  if (!b->n) ir_buf_printf(b, "(none: a copy or a constant)");
  return ir_buf_str(b);
}

static const char *dep_kind(poly_dep_kind k) {
  return k == POLY_DEP_FLOW ? "flow" : k == POLY_DEP_ANTI ? "anti" : "output";
}

static void in_flags(const poly_analysis *a, const poly_input *in, ir_buf *b) {
  ir_buf_reset(b);
  if (in->flags & POLY_IN_LIVEIN) ir_buf_printf(b, "%slive-in", b->n ? ", " : "");
  if (in->flags & POLY_IN_TASK) ir_buf_printf(b, "%soutput of task %d", b->n ? ", " : "", in->from_task);
  if (in->flags & POLY_IN_OLD) ir_buf_printf(b, "%sold value (updated in place)", b->n ? ", " : "");
  if (in->flags & POLY_IN_OUTSIDE) ir_buf_printf(b, "%sold values kept outside the written region", b->n ? ", " : "");
  if (in->flags & POLY_IN_CONST) ir_buf_printf(b, "%sconstant %g", b->n ? ", " : "", in->value);
  (void)a;
}

/* ------------------------------------------------------------ for people */

const char *poly_kept_dep(const poly_analysis *a, int k, ir_buf *b) {
  const poly_kept_loop *K = &a->kept[k];
  ir_buf_reset(b);
  ir_buf_printf(b, "S%d on S%d (%s through %s", K->dst, K->src, dep_kind(K->kind),
                vn(a, K->var));
  if (K->has_distance) ir_buf_printf(b, ", distance %ld", K->distance);
  ir_buf_printf(b, ")");
  return ir_buf_str(b);
}

/* The kept loops (docs/analyze.md, "Kept loops"); nothing when there are
 * none. */
static void print_kept(const poly_analysis *a, FILE *out) {
  if (!a->nkept) return;
  ir_buf b = {0};
  fprintf(out, "\nkept loops (%d; uplift raise raises inside a time-step loop, docs/analyze.md):\n",
          a->nkept);
  for (int k = 0; k < a->nkept; k++) {
    const poly_kept_loop *K = &a->kept[k];
    fprintf(out, "  keeps loop %s (line %d)", vn(a, K->iter), K->loop->pos.line);
    if (K->parent >= 0)
      fprintf(out, " inside loop %s", vn(a, a->kept[K->parent].iter));
    fprintf(out, ": carries a dependence of %s that is not a reduction\n",
            poly_kept_dep(a, k, &b));
    fprintf(out, "    parameters of its body:");
    for (int i = 0; i < K->nparams; i++) fprintf(out, " %s", vn(a, K->params[i]));
    fprintf(out, "\n");
    for (int i = 0; i < K->nbody; i++) {
      const poly_body_item *it = &K->body[i];
      if (it->kept >= 0) fprintf(out, "    kept loop %s:", vn(a, a->kept[it->kept].iter));
      else fprintf(out, "    task:");
      for (int j = 0; j < it->nstmts; j++) fprintf(out, " S%d", it->stmts[j]);
      fprintf(out, "\n");
    }
  }
  for (int i = 0; i < a->nscalar; i++)
    fprintf(out, "  S%d stays scalar: %s\n", a->scalar[i].stmt, a->scalar[i].why);
  for (int i = 0; i < a->nbatch; i++) {
    const poly_batch_loop *B = &a->batch[i];
    fprintf(out, "  loop %s (line %d)", vn(a, B->iter), B->loop->pos.line);
    if (B->parent >= 0) fprintf(out, " inside loop %s", vn(a, a->kept[B->parent].iter));
    if (B->why) fprintf(out, " keeps nothing, but is not distributed over its kept loops: %s\n",
                        B->why);
    else fprintf(out, " keeps nothing and carries no dependence: distributed over its "
                 "items and moved inside its kept loops\n");
  }
  ir_buf_free(&b);
}

void poly_print(const poly_analysis *a, FILE *out) {
  const ir_kernel *k = a->kernel;
  ir_buf b = {0};
  fprintf(out, "kernel %s (%s)\n", k->name ? k->name : "?", k->file ? k->file : "?");
  if (a->error) {
    fprintf(out, "analysis failed: %s\nraisable: no\n", a->error);
    return;
  }
  fprintf(out, "size parameters:");
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) fprintf(out, " %s", k->vars[v]->name);
  fprintf(out, "\n");
  for (int i = 0; i < a->nexpanded; i++) {
    const poly_expansion *x = &a->expanded[i];
    fprintf(out, "expanded: %s becomes a local array over loop%s", vn(a, x->var),
            x->nloops > 1 ? "s" : "");
    for (int j = 0; j < x->nloops; j++) fprintf(out, " %s", vn(a, x->iters[j]));
    fprintf(out, " so that its values can cross tasks\n");
  }

  fprintf(out, "\nstatements:\n");
  for (int i = 0; i < a->nstmts; i++) {
    const poly_stmt *s = &a->stmts[i];
    fprintf(out, "  S%d  %s:%d:%d  %s", i, s->stmt->pos.file ? s->stmt->pos.file : k->file,
            s->stmt->pos.line, s->stmt->pos.col, stmt_text(k, s->stmt, &b));
    if (s->task < 0) fprintf(out, "   [prelude: a constant]");
    if (s->guarded) fprintf(out, "   [under a data-dependent if]");
    fprintf(out, "\n      domain %s\n", s->domain);
    if (s->nspace >= 0) {
      fprintf(out, "      values over [");
      for (int d = 0; d < s->nspace; d++)
        fprintf(out, "%s%s < %s", d ? ", " : "", vn(a, s->space_iters[d]), vn(a, s->space_dims[d]));
      fprintf(out, "]: %s; final: %s\n", s->space.text, s->last.text);
    }
  }

  fprintf(out, "\ndependences (flow: value-based; anti, output: memory-based):\n");
  if (!a->ndeps) fprintf(out, "  none\n");
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    fprintf(out, "  %-6s S%d -> S%d  %s  ", dep_kind(d->kind), d->src, d->dst, vn(a, d->var));
    if (d->carried >= 0)
      fprintf(out, "carried by loop %s%s\n", vn(a, d->iter),
              d->independent ? " (and loop-independent)" : "");
    else
      fprintf(out, "loop-independent\n");
  }

  fprintf(out, "\nreductions:\n");
  if (!a->nreductions) fprintf(out, "  none\n");
  for (int i = 0; i < a->nreductions; i++) {
    const poly_reduction *r = &a->reductions[i];
    fprintf(out, "  S%d: %s over", r->stmt, poly_red_name(r->op));
    for (int j = 0; j < r->niters; j++) fprintf(out, " %s", vn(a, r->iters[j]));
    fprintf(out, " into %s\n", vn(a, r->var));
  }

  fprintf(out, "\ntasks (%d, run in this order):\n", a->ntasks);
  for (int t = 0; t < a->ntasks; t++) {
    const poly_task *T = &a->tasks[t];
    fprintf(out, "  task %d: statements", t);
    for (int j = 0; j < T->nstmts; j++) fprintf(out, " S%d", T->stmts[j]);
    fprintf(out, "\n    ops: %s\n", ops_text(T->ops, &b));
    for (int j = 0; j < T->nreductions; j++) {
      const poly_reduction *r = &a->reductions[T->reductions[j]];
      fprintf(out, "    reduction: S%d %s over %s\n", r->stmt, poly_red_name(r->op),
              vn(a, r->iter));
    }
    for (int j = 0; j < T->ninputs; j++) {
      in_flags(a, &T->inputs[j], &b);
      fprintf(out, "    input  %-10s %s\n", vn(a, T->inputs[j].var), ir_buf_str(&b));
    }
    for (int j = 0; j < T->noutputs; j++) {
      const poly_output *o = &T->outputs[j];
      fprintf(out, "    output %-10s written: %s", vn(a, o->var), o->region.text);
      if (o->flags & POLY_OUT_PARTIAL) fprintf(out, " (new values inside, old outside)");
      if (o->flags & POLY_OUT_PARAM) fprintf(out, "; live-out");
      if (o->nreaders) {
        fprintf(out, "; read by task%s", o->nreaders > 1 ? "s" : "");
        for (int x = 0; x < o->nreaders; x++) fprintf(out, " %d", o->readers[x]);
      }
      fprintf(out, "\n");
    }
    for (int j = 0; j < T->naccess; j++) {
      const poly_access *ac = &T->access[j];
      fprintf(out, "    region %-10s read: %s; written: %s\n", vn(a, ac->var),
              ac->read.text, ac->write.text);
    }
  }
  if (a->nprelude) {
    fprintf(out, "\nprelude (run before every task):");
    for (int i = 0; i < a->nprelude; i++) fprintf(out, " S%d", a->prelude[i]);
    fprintf(out, "\n");
  }
  print_kept(a, out);
  fprintf(out, "\nraisable: %s\n", a->raisable ? "yes" : "no");
  if (!a->raisable && a->reason) fprintf(out, "reason: %s\n", a->reason);
  ir_buf_free(&b);
}

/* ------------------------------------------------------------- for programs */

static cJSON *region_json(const poly_analysis *a, const poly_region *r) {
  static const char *kinds[] = {"none", "box", "mask", "opaque"};
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "kind", kinds[r->kind]);
  cJSON_AddStringToObject(o, "text", r->text ? r->text : "");
  if (r->isl) cJSON_AddStringToObject(o, "isl", r->isl);
  if (r->kind == POLY_REGION_MASK) {
    cJSON *ms = cJSON_AddArrayToObject(o, "masks");
    for (int i = 0; i < r->nmasks; i++) {
      const poly_mask *m = &r->masks[i];
      cJSON *mj = cJSON_CreateObject();
      cJSON_AddStringToObject(mj, "text", m->text);
      cJSON *cs = cJSON_AddArrayToObject(mj, "constraints");
      for (int c = 0; c < m->ncons; c++) {
        const poly_constraint *k = &m->cons[c];
        cJSON *cj = cJSON_CreateObject();
        cJSON_AddStringToObject(cj, "rel", k->is_eq ? "==" : ">=");
        cJSON *dims = cJSON_AddArrayToObject(cj, "dims");
        for (int d = 0; d < k->rank; d++) cJSON_AddItemToArray(dims, cJSON_CreateNumber((double)k->dim[d]));
        cJSON *ps = cJSON_AddObjectToObject(cj, "params");
        for (int p = 0; p < k->nparams; p++)
          cJSON_AddNumberToObject(ps, vn(a, k->pvar[p]), (double)k->pcoef[p]);
        cJSON_AddNumberToObject(cj, "const", (double)k->c0);
        cJSON_AddItemToArray(cs, cj);
      }
      cJSON_AddItemToArray(ms, mj);
    }
  }
  return o;
}

static cJSON *names(const poly_analysis *a, const int *vars, int n) {
  cJSON *arr = cJSON_CreateArray();
  for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, cJSON_CreateString(vn(a, vars[i])));
  return arr;
}

static cJSON *ints(const int *v, int n) {
  cJSON *arr = cJSON_CreateArray();
  for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]));
  return arr;
}

/* The names of the POLY_OP_* bits set in ops, as a JSON array. */
static cJSON *ops_json(unsigned ops) {
  cJSON *arr = cJSON_CreateArray();
  for (int j = 0; j < POLY_OP_NBITS; j++)
    if (ops & (1u << j)) cJSON_AddItemToArray(arr, cJSON_CreateString(poly_op_name(1u << j)));
  return arr;
}

/* Statement i of a as a JSON object (b: scratch for its text). */
static cJSON *stmt_json(const poly_analysis *a, int i, ir_buf *b) {
  const ir_kernel *k = a->kernel;
  const poly_stmt *s = &a->stmts[i];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "id", i);
  cJSON_AddStringToObject(o, "text", stmt_text(k, s->stmt, b));
  cJSON_AddNumberToObject(o, "line", s->stmt->pos.line);
  cJSON_AddNumberToObject(o, "col", s->stmt->pos.col);
  cJSON *loops = cJSON_AddArrayToObject(o, "loops");
  for (int d = 0; d < s->depth; d++)
    cJSON_AddItemToArray(loops, cJSON_CreateString(vn(a, s->loops[d]->iter)));
  cJSON_AddStringToObject(o, "domain", s->domain);
  if (s->nspace >= 0) {
    cJSON *vs = cJSON_AddObjectToObject(o, "values");
    cJSON_AddItemToObject(vs, "iters", names(a, s->space_iters, s->nspace));
    cJSON_AddItemToObject(vs, "dims", names(a, s->space_dims, s->nspace));
    cJSON_AddItemToObject(vs, "points", region_json(a, &s->space));
    cJSON_AddItemToObject(vs, "final", region_json(a, &s->last));
  }
  cJSON_AddNumberToObject(o, "task", s->task);
  cJSON_AddBoolToObject(o, "prelude", s->task < 0);
  cJSON_AddBoolToObject(o, "guarded", s->guarded);
  cJSON_AddItemToObject(o, "ops", ops_json(s->ops));
  return o;
}

/* The dependences and the reductions of a into root. */
static void deps_json(const poly_analysis *a, cJSON *root) {
  cJSON *deps = cJSON_AddArrayToObject(root, "dependences");
  for (int i = 0; i < a->ndeps; i++) {
    const poly_dep *d = &a->deps[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", dep_kind(d->kind));
    cJSON_AddNumberToObject(o, "src", d->src);
    cJSON_AddNumberToObject(o, "dst", d->dst);
    cJSON_AddStringToObject(o, "var", vn(a, d->var));
    if (d->iter >= 0) cJSON_AddStringToObject(o, "carried_by", vn(a, d->iter));
    else cJSON_AddNullToObject(o, "carried_by");
    cJSON_AddBoolToObject(o, "loop_independent", d->independent);
    cJSON_AddStringToObject(o, "relation", d->rel);
    cJSON_AddItemToArray(deps, o);
  }
  cJSON *reds = cJSON_AddArrayToObject(root, "reductions");
  for (int i = 0; i < a->nreductions; i++) {
    const poly_reduction *r = &a->reductions[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "statement", r->stmt);
    cJSON_AddStringToObject(o, "op", poly_red_name(r->op));
    cJSON_AddStringToObject(o, "var", vn(a, r->var));
    cJSON_AddStringToObject(o, "loop", vn(a, r->iter));
    cJSON_AddItemToObject(o, "loops", names(a, r->iters, r->niters));
    cJSON_AddItemToArray(reds, o);
  }
}

/* Task t of a as a JSON object: statements, ops, reductions, inputs,
 * outputs and regions. */
static cJSON *task_json(const poly_analysis *a, int t) {
  const poly_task *T = &a->tasks[t];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "index", t);
  cJSON_AddItemToObject(o, "statements", ints(T->stmts, T->nstmts));
  cJSON_AddItemToObject(o, "ops", ops_json(T->ops));
  cJSON_AddItemToObject(o, "reductions", ints(T->reductions, T->nreductions));
  cJSON *ins = cJSON_AddArrayToObject(o, "inputs");
  for (int j = 0; j < T->ninputs; j++) {
    const poly_input *in = &T->inputs[j];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "var", vn(a, in->var));
    cJSON_AddBoolToObject(x, "live_in", (in->flags & POLY_IN_LIVEIN) != 0);
    if (in->from_task >= 0) cJSON_AddNumberToObject(x, "from_task", in->from_task);
    else cJSON_AddNullToObject(x, "from_task");
    cJSON_AddBoolToObject(x, "old_value", (in->flags & POLY_IN_OLD) != 0);
    cJSON_AddBoolToObject(x, "kept_outside", (in->flags & POLY_IN_OUTSIDE) != 0);
    if (in->flags & POLY_IN_CONST) cJSON_AddNumberToObject(x, "constant", in->value);
    cJSON_AddItemToArray(ins, x);
  }
  cJSON *outs = cJSON_AddArrayToObject(o, "outputs");
  for (int j = 0; j < T->noutputs; j++) {
    const poly_output *ou = &T->outputs[j];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "var", vn(a, ou->var));
    cJSON_AddBoolToObject(x, "live_out", (ou->flags & POLY_OUT_PARAM) != 0);
    cJSON_AddBoolToObject(x, "partial", (ou->flags & POLY_OUT_PARTIAL) != 0);
    cJSON_AddItemToObject(x, "read_by", ints(ou->readers, ou->nreaders));
    cJSON_AddItemToObject(x, "region", region_json(a, &ou->region));
    cJSON_AddItemToArray(outs, x);
  }
  cJSON *regs = cJSON_AddArrayToObject(o, "regions");
  for (int j = 0; j < T->naccess; j++) {
    const poly_access *ac = &T->access[j];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "var", vn(a, ac->var));
    cJSON_AddItemToObject(x, "read", region_json(a, &ac->read));
    cJSON_AddItemToObject(x, "write", region_json(a, &ac->write));
    cJSON_AddItemToArray(regs, x);
  }
  return o;
}

/* "kept_loops", "scalar_statements" and "batch_loops" (docs/analyze.md). */
static void kept_json(const poly_analysis *a, cJSON *root) {
  cJSON *kl = cJSON_AddArrayToObject(root, "kept_loops");
  for (int k = 0; k < a->nkept; k++) {
    const poly_kept_loop *K = &a->kept[k];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "loop", vn(a, K->iter));
    cJSON_AddNumberToObject(x, "line", K->loop->pos.line);
    cJSON_AddNumberToObject(x, "level", K->level);
    cJSON_AddNumberToObject(x, "parent", K->parent);
    cJSON_AddItemToObject(x, "parameters", names(a, K->params, K->nparams));
    cJSON *d = cJSON_AddObjectToObject(x, "dependence");
    cJSON_AddStringToObject(d, "kind", dep_kind(K->kind));
    cJSON_AddNumberToObject(d, "src", K->src);
    cJSON_AddNumberToObject(d, "dst", K->dst);
    cJSON_AddStringToObject(d, "var", vn(a, K->var));
    if (K->has_distance) cJSON_AddNumberToObject(d, "distance", (double)K->distance);
    else cJSON_AddNullToObject(d, "distance");
    cJSON *body = cJSON_AddArrayToObject(x, "body");
    for (int i = 0; i < K->nbody; i++) {
      cJSON *it = cJSON_CreateObject();
      cJSON_AddItemToObject(it, "statements", ints(K->body[i].stmts, K->body[i].nstmts));
      cJSON_AddNumberToObject(it, "kept_loop", K->body[i].kept);
      cJSON_AddItemToArray(body, it);
    }
    cJSON_AddItemToArray(kl, x);
  }
  cJSON *sc = cJSON_AddArrayToObject(root, "scalar_statements");
  for (int i = 0; i < a->nscalar; i++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "statement", a->scalar[i].stmt);
    cJSON_AddNumberToObject(x, "kept_loop", a->scalar[i].kept);
    cJSON_AddStringToObject(x, "why", a->scalar[i].why);
    cJSON_AddItemToArray(sc, x);
  }
  cJSON *bl = cJSON_AddArrayToObject(root, "batch_loops");
  for (int i = 0; i < a->nbatch; i++) {
    const poly_batch_loop *B = &a->batch[i];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "loop", vn(a, B->iter));
    cJSON_AddNumberToObject(x, "line", B->loop->pos.line);
    cJSON_AddNumberToObject(x, "parent", B->parent);
    if (B->why) cJSON_AddStringToObject(x, "why_not", B->why);
    else cJSON_AddNullToObject(x, "why_not");
    cJSON_AddItemToArray(bl, x);
  }
}

char *poly_to_json(const poly_analysis *a) {
  const ir_kernel *k = a->kernel;
  ir_buf b = {0};
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "kernel", k->name ? k->name : "");
  cJSON_AddStringToObject(root, "file", k->file ? k->file : "");
  cJSON_AddBoolToObject(root, "raisable", a->raisable);
  if (a->reason) cJSON_AddStringToObject(root, "reason", a->reason);
  else cJSON_AddNullToObject(root, "reason");
  cJSON_AddItemToObject(root, "reason_statements", ints(a->reason_stmts, a->nreason_stmts));
  if (a->error) {
    cJSON_AddStringToObject(root, "error", a->error);
    goto out;
  }
  cJSON *sizes = cJSON_AddArrayToObject(root, "sizes");
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) cJSON_AddItemToArray(sizes, cJSON_CreateString(k->vars[v]->name));
  cJSON *ex = cJSON_AddArrayToObject(root, "expanded");
  for (int i = 0; i < a->nexpanded; i++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "var", vn(a, a->expanded[i].var));
    cJSON_AddItemToObject(x, "loops", names(a, a->expanded[i].iters, a->expanded[i].nloops));
    cJSON_AddItemToArray(ex, x);
  }
  cJSON *sts = cJSON_AddArrayToObject(root, "statements");
  for (int i = 0; i < a->nstmts; i++) cJSON_AddItemToArray(sts, stmt_json(a, i, &b));
  deps_json(a, root);
  cJSON *tasks = cJSON_AddArrayToObject(root, "tasks");
  for (int t = 0; t < a->ntasks; t++) cJSON_AddItemToArray(tasks, task_json(a, t));
  cJSON_AddItemToObject(root, "prelude", ints(a->prelude, a->nprelude));
  kept_json(a, root);
out:
  ir_buf_free(&b);
  char *txt = cJSON_Print(root);
  cJSON_Delete(root);
  char *r = ir_strdup(txt ? txt : "{}");
  free(txt);
  return r;
}
