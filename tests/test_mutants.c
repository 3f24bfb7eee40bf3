/*
 * test_mutants.c - the verifier against mutants of real raised programs
 * (issue 6), and the round trip of the program text.
 *
 * For every kernel file found by glob under benchmarks/kernels that raises
 * to hlo:
 *   - every task program printed with its kernel and parsed back
 *     (ir_tp_parse) is the same node (hash-consing);
 *   - fp mode: each task program is proved, or refuted only about rounding
 *     and reduction order (real mode proves it and the concrete runs do not
 *     tell the two apart); never unknown, even with the test's 2 s time-out;
 *   - mutants, made generically from the dialect (swapped operands of
 *     non-commutative kernels, other attribute values from the generator,
 *     an op dropped for a same-typed operand, an op substituted by another
 *     op whose production has the same result type, a changed constant),
 *     are verified in real mode at bound 3: a refuted mutant's
 *     counterexample must be confirmed here by the loop interpreter (source)
 *     against enum_eval_node (mutant); a proved mutant must agree with the
 *     original program on random inputs at several sizes; an unknown is
 *     allowed only where exp or pow (uninterpreted in real mode) is
 *     involved; none may end in an error.  The counts are printed.
 * No kernel is named here: everything comes from the glob, the analysis
 * and the dialect.
 */
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "enumerator/enumerator.h"
#include "interp/interp.h"
#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"
#include "tests/harness.h"
#include "verify/verify.h"

#define MAX_MUTANTS 24 /* per task program, sampled deterministically */
#define MAX_NODES 256

typedef struct ctx {
  const poly_analysis *a;
  const ir_kernel *k;
  const gram_dialect *d;
  ir_tp_store *store;
  ir_arena *arena;
  pipe_verify_state vs;
  /* totals */
  int mutants, refuted, proved, unknown, errors;
} ctx;

/* ----------------------------------------------------------- mutants */

/* root with every occurrence of node `from` replaced by `to` (same type). */
static const ir_tnode *replace(ir_tp_store *s, const ir_tnode *n, const ir_tnode *from,
                               const ir_tnode *to) {
  if (n == from) return to;
  if (n->kind != IR_TN_OP) return n;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int changed = 0;
  for (int i = 0; i < n->nops; i++) {
    ops[i] = replace(s, n->ops[i], from, to);
    changed |= ops[i] != n->ops[i];
  }
  return changed ? ir_tp_op(s, n->op, n->attrs, ops, n->nops, &n->type) : n;
}

typedef struct mlist {
  const ir_tnode *m[512];
  const char *how[512];
  int n;
} mlist;

static void add_mutant(ctx *c, mlist *ml, const ir_tnode *root, const ir_tnode *from,
                       const ir_tnode *to, const char *how) {
  if (!to || to == from || !ir_type_equal(&to->type, &from->type)) return;
  const ir_tnode *m = replace(c->store, root, from, to);
  if (m == root) return;
  for (int i = 0; i < ml->n; i++)
    if (ml->m[i] == m) return;
  if (ml->n < (int)(sizeof ml->m / sizeof ml->m[0])) {
    ml->how[ml->n] = how;
    ml->m[ml->n++] = m;
  }
}

static int attrs_equal(const gram_op *op, const ir_attr *a, const ir_attr *b) {
  for (int i = 0; i < op->nattrs; i++)
    if (a[i].n != b[i].n || memcmp(a[i].v, b[i].v, (size_t)a[i].n)) return 0;
  return 1;
}

/* The production of op over operand types tys with attributes attrs (or,
 * when attrs is NULL, the first one) whose result type is want. */
static const ir_tnode *make_op(ctx *c, const gram_op *op, const ir_attr *attrs,
                               const ir_tnode *const *ops, const ir_type *want) {
  static gram_prod prods[4096];
  ir_type tys[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < op->nops; i++) tys[i] = ops[i]->type;
  int n = gram_productions(op, tys, gram_op_needs_target(op) ? want : NULL, prods, 4096, NULL);
  for (int i = 0; i < n && i < 4096; i++)
    if (ir_type_equal(&prods[i].result, want) && (!attrs || attrs_equal(op, attrs, prods[i].attrs)))
      return ir_tp_op(c->store, &op->desc, prods[i].attrs, ops, op->nops, want);
  return NULL;
}

static int is_noncommutative(const char *kernel) {
  static const char *const names[] = {"sub", "div", "dot_general", "select", "compare"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (kernel && !strcmp(kernel, names[i])) return 1;
  return 0;
}

static void make_mutants(ctx *c, const ir_tnode *root, mlist *ml) {
  const ir_tnode *nodes[MAX_NODES];
  int nn = ir_tp_topo(&root, 1, nodes, MAX_NODES);
  ml->n = 0;
  for (int i = 0; i < nn; i++) {
    const ir_tnode *n = nodes[i];
    if (n->kind == IR_TN_CONST) {
      double vals[3] = {n->value + 1, n->value != 0 ? 0 : 2, -n->value};
      for (int j = 0; j < 3; j++)
        add_mutant(c, ml, root, n, ir_tp_const(c->store, vals[j], &n->type), "constant");
      continue;
    }
    if (n->kind != IR_TN_OP) continue;
    const gram_op *op = n->op->owner;
    /* swapped operands */
    if (is_noncommutative(gram_prod_kernel(op, n->attrs)) && n->nops >= 2) {
      const ir_tnode *ops[IR_TP_MAX_OPERANDS];
      memcpy(ops, n->ops, sizeof ops);
      int a = n->nops == 3 ? 1 : 0, b = a + 1;
      ops[a] = n->ops[b];
      ops[b] = n->ops[a];
      add_mutant(c, ml, root, n, make_op(c, op, n->attrs, ops, &n->type), "swap");
    }
    /* other attribute values */
    if (op->nattrs) {
      static gram_prod prods[4096];
      ir_type tys[IR_TP_MAX_OPERANDS];
      for (int j = 0; j < n->nops; j++) tys[j] = n->ops[j]->type;
      int np = gram_productions(op, tys, gram_op_needs_target(op) ? &n->type : NULL, prods,
                                4096, NULL);
      for (int j = 0; j < np && j < 4096; j++)
        if (ir_type_equal(&prods[j].result, &n->type) && !attrs_equal(op, prods[j].attrs, n->attrs))
          add_mutant(c, ml, root, n,
                     ir_tp_op(c->store, n->op, prods[j].attrs, n->ops, n->nops, &n->type),
                     "attribute");
    }
    /* a dropped op */
    for (int j = 0; j < n->nops; j++) add_mutant(c, ml, root, n, n->ops[j], "drop");
    /* a substituted op */
    for (int o = 0; o < c->d->nops; o++) {
      const gram_op *other = c->d->ops[o];
      if (other == op || other->nops != n->nops) continue;
      add_mutant(c, ml, root, n, make_op(c, other, NULL, n->ops, &n->type), "substitute");
    }
  }
}

/* ------------------------------------------------------------ checks */

/* The counterexample of a refuted mutant, run here: the loop interpreter on
 * the task's statements against enum_eval_node on the mutant. */
static int cex_differs(ctx *c, const pipe_task_setup *ts, int out_var, const ir_tnode *m,
                       const verify_cex *cex) {
  const ir_kernel *k = c->k;
  interp_env env;
  interp_error err;
  if (interp_env_init(&env, k, cex->sizes, &err)) return 0;
  ir_tensor *args = ir_calloc((size_t)k->nvars, sizeof(ir_tensor));
  for (int j = 0; j < cex->nvars; j++) {
    interp_set_values(&env, cex->vars[j], cex->values[j].data);
    args[cex->vars[j]] = cex->values[j];
  }
  int differs = 0;
  ir_tensor got;
  interp_err ierr;
  if (!interp_run(&env, ts->mask, &err) &&
      !enum_eval_node(m, args, k->nvars, cex->sizes, &got, &ierr)) {
    const ir_tensor *src = &env.vals[out_var];
    size_t idx = 0;
    for (int d = 0; d < src->rank; d++) idx = idx * (size_t)src->dims[d] + (size_t)cex->out_index[d];
    if (idx < ir_tensor_size(&got) && !(src->poison && src->poison[idx]))
      differs = (got.poison && got.poison[idx]) ||
                !interp_values_agree_signed(src->data[idx], got.data[idx], 1e-9);
    interp_tensor_free(&got);
  }
  ir_free(args);
  interp_env_free(&env);
  return differs;
}

/* Do a and b agree on random inputs at several sizes (where a is defined
 * and finite)? */
static int agree_random(ctx *c, const pipe_task_setup *ts, const ir_tnode *a, const ir_tnode *b,
                        char *why, size_t whyn) {
  const ir_kernel *k = c->k;
  int ok = 1;
  for (int variant = 0; variant < 3 && ok; variant++)
    for (int seed = 0; seed < 2 && ok; seed++) {
      long *sizes = ir_calloc((size_t)k->nvars, sizeof(long));
      interp_default_sizes(k, variant, sizes);
      interp_env env;
      interp_error err;
      if (interp_env_init(&env, k, sizes, &err)) {
        ir_free(sizes);
        continue;
      }
      interp_fill_random(&env, 977u * (uint64_t)variant + (uint64_t)seed + 5);
      interp_rng rng;
      interp_rng_seed(&rng, 31u * (uint64_t)variant + (uint64_t)seed);
      for (int i = 0; i < ts->nin; i++) {
        int v = ts->in_vars[i];
        ir_tensor *t = &env.vals[v];
        if (!t->data || k->vars[v]->kind == IR_VAR_ARRAY || k->vars[v]->kind == IR_VAR_SCALAR)
          continue;
        size_t n = ir_tensor_size(t);
        double *vals = ir_malloc((n ? n : 1) * sizeof(double));
        for (size_t j = 0; j < n; j++) vals[j] = (double)interp_rng_range(&rng, -8, 8);
        interp_set_values(&env, v, vals);
        ir_free(vals);
      }
      ir_tensor ra, rb;
      interp_err e1, e2;
      int fa = enum_eval_node(a, env.vals, k->nvars, sizes, &ra, &e1);
      int fb = enum_eval_node(b, env.vals, k->nvars, sizes, &rb, &e2);
      if (!fa && !fb) {
        size_t n = ir_tensor_size(&ra);
        for (size_t j = 0; j < n && ok; j++) {
          if ((ra.poison && ra.poison[j]) || !isfinite(ra.data[j])) continue;
          if ((rb.poison && rb.poison[j]) || !interp_values_agree(ra.data[j], rb.data[j], 1e-9)) {
            snprintf(why, whyn, "sizes variant %d: element %zu: %.17g vs %.17g", variant, j,
                     ra.data[j], rb.data[j]);
            ok = 0;
          }
        }
      } else if (!fa) {
        snprintf(why, whyn, "the mutant cannot be evaluated: %.200s", e2.msg);
        ok = 0;
      }
      if (!fa) interp_tensor_free(&ra);
      if (!fb) interp_tensor_free(&rb);
      interp_env_free(&env);
      ir_free(sizes);
    }
  return ok;
}

/* Does the task's source or the mutant use a function that real mode
 * leaves uninterpreted (exp, pow)?  Only there can a model fail to be
 * confirmed concretely.  sqrt is not one of them: real mode gives the
 * solver its defining properties (a root r >= 0 with r*r = x). */
static int uses_uninterpreted(ctx *c, int ti, const ir_tnode *m) {
  if (c->a->tasks[ti].ops & (POLY_OP_EXP | POLY_OP_POW)) return 1;
  const ir_tnode *nodes[MAX_NODES];
  int nn = ir_tp_topo(&m, 1, nodes, MAX_NODES);
  for (int i = 0; i < nn; i++) {
    if (nodes[i]->kind != IR_TN_OP) continue;
    const char *kn = gram_prod_kernel(nodes[i]->op->owner, nodes[i]->attrs);
    if (kn && (!strcmp(kn, "exp") || !strcmp(kn, "pow"))) return 1;
  }
  return 0;
}

static void check_program(ctx *c, int ti, int out_var, const ir_tnode *prog,
                          const pipe_task_setup *ts, verify_ctx *fpv) {
  const ir_kernel *k = c->k;
  const char *kname = k->name, *oname = k->vars[out_var]->name;
  char text[8192];
  ir_tp_str(prog, k, text, sizeof text);

  /* round trip */
  ir_tp_syntax syn;
  gram_term_syntax(c->d, &syn);
  ir_error err;
  const ir_tnode *back = ir_tp_parse(c->store, text, k, ts->in_args, ts->nin, &syn, &err);
  CHECKF(back == prog, "%s task %d (%s): parse(print(p)) is p: %s [%s]", kname, ti, oname, text,
         back ? "another node" : err.msg);

  /* fp mode */
  enum_query q = {k, c->a, ti, ts->mask, ts->nin, ts->in_vars, ts->in_args, out_var, prog, c->d, 0};
  enum_verify_result r;
  verify_ctx *real = c->vs.v;
  c->vs.v = fpv;
  pipe_verify_cb(&c->vs, &q, &r);
  c->vs.v = real;
  const verify_result *vr = c->vs.last;
  CHECKF(vr->verdict != VERIFY_ERROR, "%s task %d (%s): fp verification error: %s", kname, ti,
         oname, vr->reason);
  /* the fp encoding decides a raised program in milliseconds: an unknown
   * within the test's 2 s is a defect (reduction chains that start from
   * the output's old value used to time out before commutative operations
   * were ordered canonically) */
  CHECKF(vr->verdict != VERIFY_UNKNOWN, "%s task %d (%s): fp unknown: %s", kname, ti, oname,
         vr->reason);
  if (vr->verdict == VERIFY_REFUTED) {
    /* only rounding or reduction order may differ: the concrete runs agree */
    int confirmed = vr->cex && vr->cex->confirmed;
    CHECKF(!confirmed, "%s task %d (%s): fp refutation confirmed concretely: %s", kname, ti,
           oname, vr->reason);
  }
  printf("  %s task %d (%s): fp %s (%.2f s)%s%s\n", kname, ti, oname,
         verify_verdict_name(vr->verdict), vr->seconds,
         vr->verdict == VERIFY_REFUTED ? ": rounding or reduction order only (proved in real mode, "
                                         "concrete runs agree)"
                                       : "",
         vr->verdict == VERIFY_UNKNOWN ? ": unknown" : "");

  /* mutants */
  static mlist ml;
  make_mutants(c, prog, &ml);
  int stride = ml.n > MAX_MUTANTS ? (ml.n + MAX_MUTANTS - 1) / MAX_MUTANTS : 1;
  for (int i = 0; i < ml.n; i += stride) {
    const ir_tnode *m = ml.m[i];
    q.cand = m;
    pipe_verify_cb(&c->vs, &q, &r);
    vr = c->vs.last;
    char mtext[8192];
    ir_tp_str(m, k, mtext, sizeof mtext);
    c->mutants++;
    if (vr->verdict == VERIFY_PROVED && (vr->assumes & VERIFY_ASSUMES_ORDINARY)) {
      /* refuted on a NaN or -0 input only, proved without them (a
       * comparison's mutant: relu's v > 0 against 0 <= v): not
       * equivalent; the refutation is kept, confirmed */
      c->refuted++;
      const verify_result *sh = c->vs.shown;
      CHECKF(sh && sh->verdict == VERIFY_REFUTED && sh->cex && sh->cex->confirmed,
             "%s task %d: %s mutant %s: proved for inputs without NaN or -0, refuted with one",
             kname, ti, ml.how[i], mtext);
      printf("  %s task %d: %s mutant %s: %s\n", kname, ti, ml.how[i], mtext,
             verify_verdict_word(vr->verdict, vr->assumes, 0));
      continue;
    }
    switch (vr->verdict) {
    case VERIFY_REFUTED:
      c->refuted++;
      CHECKF(vr->cex && vr->cex->confirmed && cex_differs(c, ts, out_var, m, vr->cex),
             "%s task %d: %s mutant %s: counterexample not confirmed by the interpreter", kname,
             ti, ml.how[i], mtext);
      break;
    case VERIFY_PROVED: {
      c->proved++;
      printf("  %s task %d: %s mutant %s: proved equivalent\n", kname, ti, ml.how[i], mtext);
      char why[256] = "";
      CHECKF(agree_random(c, ts, prog, m, why, sizeof why),
             "%s task %d: %s mutant %s proved but differs from %s: %s", kname, ti, ml.how[i],
             mtext, text, why);
      break;
    }
    case VERIFY_UNKNOWN:
      c->unknown++;
      /* allowed only where uninterpreted functions keep a model from being
       * confirmed concretely, or real mode's abstract infinities (the
       * class of inf - inf is keyed by its polynomial: abs(A - B) against
       * abs(B - A)) for a mutant that agrees with the program on random
       * inputs */
      char why[256] = "";
      CHECKF(uses_uninterpreted(c, ti, m) || agree_random(c, ts, prog, m, why, sizeof why),
             "%s task %d: %s mutant %s: unknown without exp/pow and not equal on random "
             "inputs: %s",
             kname, ti, ml.how[i], mtext, vr->reason);
      printf("  %s task %d: %s mutant %s: unknown: %s\n", kname, ti, ml.how[i], mtext,
             vr->reason);
      break;
    default:
      c->errors++;
      CHECKF(0, "%s task %d: %s mutant %s: %s: %s", kname, ti, ml.how[i], mtext,
             verify_verdict_name(vr->verdict), vr->reason);
    }
  }
}

static void run_kernel(const char *path, ctx *tot) {
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  /* a file may name its options on its first line: // uplift: --function NAME */
  char first[256] = "", fn[128] = "";
  FILE *f = fopen(path, "r");
  if (f) {
    if (!fgets(first, sizeof first, f)) first[0] = 0;
    fclose(f);
  }
  if (sscanf(first, "// uplift: --function %127s", fn) == 1) fe.function = fn;
  ir_kernel *k = fe_parse_file(path, &fe, &arena);
  gram_dialect *d = gram_load("hlo", &arena);
  CHECKF(k && d, "%s parses and hlo loads", path);
  if (!k || !d) goto done;
  poly_analysis *a = poly_analyze(k, &arena);
  if (a->error || !a->raisable) {
    printf("  %s: not raisable (%s)\n", path, a->error ? a->error : a->reason);
    goto done;
  }
  verify_options vo;
  verify_options_default(&vo);
  ctx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.k = a->kernel;
  c.d = d;
  c.store = &store;
  c.arena = &arena;
  c.vs.v = verify_new(&vo);
  enum_options eo;
  enum_default_options(&eo);
  eo.timeout = 30;
  enum_result res;
  int r = pipe_raise_analysed(a, d, &eo, &c.vs, &store, &arena, &res);
  if (r != 0 || !res.raised) {
    printf("  %s: not raised (%s)\n", path, res.reason ? res.reason : "?");
  } else {
    verify_options fo = vo;
    fo.mode = VERIFY_FP;
    verify_ctx *fpv = verify_new(&fo);
    for (int t = 0; t < res.ntasks; t++) {
      pipe_task_setup ts;
      CHECK("task setup", !pipe_task_setup_make(a, t, &store, &arena, &ts));
      for (int i = 0; i < ts.nin; i++)
        CHECKF(ts.in_args[i] == res.tasks[t].in_args[i],
               "%s task %d: the glue's input leaves are the enumerator's", path, t);
      for (int o = 0; o < res.tasks[t].noutputs; o++) {
        const enum_output *eo2 = &res.tasks[t].outputs[o];
        CHECKF(eo2->verify.verdict == ENUM_PROVED, "%s task %d proved in real mode", path, t);
        check_program(&c, t, eo2->var, eo2->program, &ts, fpv);
      }
    }
    verify_free(fpv);
    /* the whole program round-trips too */
    ir_tp_syntax syn;
    gram_term_syntax(d, &syn);
    for (int i = 0; i < res.prog.nresults; i++) {
      static char text[65536];
      ir_error err;
      ir_tp_str(res.prog.results[i], a->kernel, text, sizeof text);
      const ir_tnode *back = ir_tp_parse(&store, text, a->kernel, res.prog.args, res.prog.nargs,
                                         &syn, &err);
      CHECKF(back == res.prog.results[i], "%s: result %d round-trips [%s]", path, i,
             back ? "another node" : err.msg);
    }
    printf("  %s: %d mutants: %d refuted, %d proved (equivalent), %d unknown, %d errors\n",
           path, c.mutants, c.refuted, c.proved, c.unknown, c.errors);
    tot->mutants += c.mutants;
    tot->refuted += c.refuted;
    tot->proved += c.proved;
    tot->unknown += c.unknown;
    tot->errors += c.errors;
  }
  pipe_verify_state_free(&c.vs);
  verify_free(c.vs.v);
done:
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

int main(void) {
  glob_t g;
  memset(&g, 0, sizeof g);
  glob("benchmarks/kernels/*.c", 0, NULL, &g);
  glob("benchmarks/kernels/*/*.c", GLOB_APPEND, NULL, &g);
  CHECK("kernel files found", g.gl_pathc > 0);
  ctx tot;
  memset(&tot, 0, sizeof tot);
  const char *only = getenv("MUTANTS_ONLY"); /* for people: one file */
  for (size_t i = 0; i < g.gl_pathc; i++) {
    if (only && !strstr(g.gl_pathv[i], only)) continue;
    run_kernel(g.gl_pathv[i], &tot);
  }
  globfree(&g);
  printf("mutants: %d: %d refuted, %d proved (equivalent), %d unknown, %d errors\n",
         tot.mutants, tot.refuted, tot.proved, tot.unknown, tot.errors);
  CHECK("some mutants were refuted", tot.refuted > 0);
  CHECK("no mutant ended in an error", tot.errors == 0);
  CHECK("no leaked blocks", ir_mem_live() == 0);
  return TEST_REPORT();
}
