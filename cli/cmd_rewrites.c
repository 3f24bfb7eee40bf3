/*
 * cmd_rewrites.c - `uplift rewrites`: verified rewrite rules mined from a
 * dialect, the way rule synthesizers such as Ruler do.
 *
 * enum_explore enumerates the dialect's programs over the --inputs leaves;
 * every candidate dropped because a stored one has the same values on all
 * examples gives a proposed rule `dropped -> stored` (kept when the stored
 * one is strictly smaller).  Rules are taken smallest first; a rule is
 * dropped as implied when rewriting both of its sides to normal form with
 * the rules accepted so far gives the same term (hash-consed nodes:
 * pointer equality).  Argument leaves are pattern variables; a variable
 * matches any term of its element type and rank, renaming the size symbols
 * consistently.  The others are checked by verify_rule_check in real mode
 * (accepted when proved) and then fp mode (its verdict is reported).
 * A rule whose left-hand side has a subterm that is not finite on positive
 * inputs (a division by zero) holds only vacuously and is not proposed.
 * Output: text, PDLL patterns (mlir-pdll-16) or JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "enumerator/enumerator.h"
#include "grammar/grammar.h"
#include "verify/verify.h"

/* ------------------------------------------------------------ matching */

#define MAXSYM 64

typedef struct subst {
  const ir_tnode *var[MAXSYM]; /* by arg number (var id) */
  int dim[MAXSYM];             /* size symbol map, -2: unset */
} subst;

static void subst_init(subst *s) {
  memset(s->var, 0, sizeof s->var);
  for (int i = 0; i < MAXSYM; i++) s->dim[i] = -2;
}

static int match_type(subst *s, const ir_type *p, const ir_type *t) {
  if (p->elem != t->elem || p->rank != t->rank) return 0;
  for (int d = 0; d < p->rank; d++) {
    int a = p->dims[d], b = t->dims[d];
    if (a == IR_DIM_ONE || b == IR_DIM_ONE) {
      if (a != b) return 0;
      continue;
    }
    if (a < 0 || a >= MAXSYM) return 0;
    if (s->dim[a] == -2) s->dim[a] = b;
    else if (s->dim[a] != b) return 0;
  }
  return 1;
}

static int match(subst *s, const ir_tnode *p, const ir_tnode *t) {
  if (!match_type(s, &p->type, &t->type)) return 0;
  switch (p->kind) {
  case IR_TN_ARG:
    if (p->arg < 0 || p->arg >= MAXSYM) return 0;
    if (s->var[p->arg]) return s->var[p->arg] == t;
    s->var[p->arg] = t;
    return 1;
  case IR_TN_CONST: return t->kind == IR_TN_CONST && t->value == p->value;
  case IR_TN_MASK: return p == t;
  case IR_TN_OP: break;
  }
  if (t->kind != IR_TN_OP || t->op != p->op || t->nops != p->nops ||
      memcmp(t->attrs, p->attrs, sizeof t->attrs))
    return 0;
  for (int i = 0; i < p->nops; i++)
    if (!match(s, p->ops[i], t->ops[i])) return 0;
  return 1;
}

static ir_type map_type(const subst *s, const ir_type *t) {
  ir_type r = *t;
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] >= 0 && t->dims[d] < MAXSYM && s->dim[t->dims[d]] != -2)
      r.dims[d] = s->dim[t->dims[d]];
  return r;
}

static const ir_tnode *instantiate(ir_tp_store *st, const subst *s, const ir_tnode *n) {
  ir_type ty = map_type(s, &n->type);
  switch (n->kind) {
  case IR_TN_ARG: return n->arg < MAXSYM && s->var[n->arg] ? s->var[n->arg] : n;
  case IR_TN_CONST: return ir_tp_const(st, n->value, &ty);
  case IR_TN_MASK: return n;
  case IR_TN_OP: break;
  }
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < n->nops; i++) ops[i] = instantiate(st, s, n->ops[i]);
  return ir_tp_op(st, n->op, n->attrs, ops, n->nops, &ty);
}

/* Normal form of n under rules[0..nr-1] (bounded rewriting). */
static const ir_tnode *normalize(ir_tp_store *st, const cli_rule *rules, int nr,
                                 const ir_tnode *n, int depth) {
  if (depth > 16) return n;
  if (n->kind == IR_TN_OP) {
    const ir_tnode *ops[IR_TP_MAX_OPERANDS];
    int changed = 0;
    for (int i = 0; i < n->nops; i++) {
      ops[i] = normalize(st, rules, nr, n->ops[i], depth + 1);
      changed |= ops[i] != n->ops[i];
    }
    if (changed) n = ir_tp_op(st, n->op, n->attrs, ops, n->nops, &n->type);
  }
  for (int r = 0; r < nr; r++) {
    subst s;
    subst_init(&s);
    if (match(&s, rules[r].lhs, n))
      return normalize(st, rules, nr, instantiate(st, &s, rules[r].rhs), depth + 1);
  }
  return n;
}

/* Do the argument leaves of b all occur in a? */
static int vars_within(const ir_tnode *a, const ir_tnode *b) {
  if (b->kind == IR_TN_ARG) {
    const ir_tnode *stack[256];
    int sp = 0;
    stack[sp++] = a;
    while (sp) {
      const ir_tnode *x = stack[--sp];
      if (x == b) return 1;
      for (int i = 0; i < x->nops && sp < 256; i++) stack[sp++] = x->ops[i];
    }
    return 0;
  }
  for (int i = 0; i < b->nops; i++)
    if (!vars_within(a, b->ops[i])) return 0;
  return 1;
}

/* ------------------------------------------------------------- mining */

typedef struct miner {
  cli_rule *props;
  int n, cap;
} miner;

static void on_equal(void *u, const ir_tnode *n, int level, const ir_tnode *rep) {
  (void)level;
  miner *m = u;
  if (n->size <= rep->size) return;
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 256;
    m->props = ir_realloc(m->props, sizeof(cli_rule) * (size_t)m->cap);
  }
  m->props[m->n++] = (cli_rule){n, rep, VERIFY_SKIPPED, VERIFY_SKIPPED, NULL};
}

static int cmp_rule(const void *a, const void *b) {
  const cli_rule *x = a, *y = b;
  if (x->lhs->size != y->lhs->size) return x->lhs->size - y->lhs->size;
  if (x->rhs->size != y->rhs->size) return x->rhs->size - y->rhs->size;
  return x->lhs->id - y->lhs->id;
}

typedef struct cand_ctx {
  const ir_tnode *node;
  const int *in_vars;
} cand_ctx;

static int cand_eval_sym(void *user, const long *sizes, const interp_sym_tensor *inputs,
                         int nin, interp_sym_tensor *outs, int nout,
                         const interp_sym_algebra *alg, interp_err *err) {
  (void)nout;
  cand_ctx *c = user;
  return enum_eval_node_sym(c->node, c->in_vars, inputs, nin, sizes, alg, &outs[0], err);
}

static int check(verify_ctx *v, const cli_rules *rs, const int *in_vars, const cli_rule *r,
                 verify_result *res) {
  cand_ctx a = {r->lhs, in_vars}, b = {r->rhs, in_vars};
  verify_candidate ca = {cand_eval_sym, NULL, &a}, cb = {cand_eval_sym, NULL, &b};
  return verify_rule_check(v, rs->k, rs->nargs, in_vars, &ca, &cb, res);
}

/* Is every op subterm of n finite and defined on one random input at
 * sizes 3 (seeded)?  Rules whose left-hand side divides by zero hold only
 * vacuously (undefined behaviour), so they are not proposed. */
static int all_finite(const ir_tnode *n, const ir_tensor *args, int nargs, const long *sizes) {
  if (n->kind != IR_TN_OP) return 1;
  for (int i = 0; i < n->nops; i++)
    if (!all_finite(n->ops[i], args, nargs, sizes)) return 0;
  ir_tensor t;
  interp_err e;
  if (enum_eval_node(n, args, nargs, sizes, &t, &e)) return 0;
  int ok = 1;
  for (size_t j = 0; ok && j < ir_tensor_size(&t); j++)
    ok = !(t.poison && t.poison[j]) && isfinite(t.data[j]);
  interp_tensor_free(&t);
  return ok;
}

static int defined_lhs(const cli_rules *rs, const ir_tnode *lhs) {
  const ir_kernel *k = rs->k;
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  ir_tensor *args = ir_calloc((size_t)k->nvars + 1, sizeof(ir_tensor));
  interp_rng rng;
  interp_rng_seed(&rng, 0xfeedu);
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) sizes[v] = 3;
  for (int i = 0; i < rs->nargs; i++) {
    const ir_tnode *a = rs->args[i];
    ir_tensor *t = &args[a->arg];
    t->elem = a->type.elem;
    t->rank = a->type.rank;
    for (int d = 0; d < t->rank; d++) t->dims[d] = a->type.dims[d] == IR_DIM_ONE ? 1 : 3;
    size_t n = ir_tensor_size(t);
    t->data = ir_malloc((n + 1) * sizeof(double));
    for (size_t j = 0; j < n; j++) t->data[j] = (double)interp_rng_range(&rng, 1, 64) / 8.0;
  }
  int ok = all_finite(lhs, args, k->nvars, sizes);
  for (int v = 0; v < k->nvars; v++) ir_free(args[v].data);
  ir_free(args);
  ir_free(sizes);
  return ok;
}

static void push(cli_rule **arr, int *n, const cli_rule *r) {
  *arr = ir_realloc(*arr, sizeof(cli_rule) * (size_t)(*n + 1));
  (*arr)[(*n)++] = *r;
}

int cli_rewrites_mine(const cli_rewrites_opts *o, ir_arena *arena, ir_tp_store *store,
                      cli_rules *out, char *err, size_t errn) {
  memset(out, 0, sizeof *out);
  if (cli_inputs_parse(o->inputs, arena, store, &out->k, out->args, 16, &out->nargs, err, errn))
    return IR_EXIT_BAD_INPUT;
  if (out->k->nvars > MAXSYM) {
    snprintf(err, errn, "too many inputs and dims");
    return IR_EXIT_BAD_INPUT;
  }
  const gram_dialect *d = gram_load(o->dialect, arena);
  if (!d) {
    snprintf(err, errn, "cannot load dialect %s", o->dialect);
    return IR_EXIT_BAD_INPUT;
  }
  if (d->elems && !(d->elems & (1u << out->k->data_type))) {
    snprintf(err, errn, "dialect %s has no %s element type", d->name,
             ir_elem_mlir_name(out->k->data_type));
    return IR_EXIT_BAD_INPUT;
  }
  out->d = d;
  enum_options eo;
  enum_default_options(&eo);
  eo.max_ops = o->max_ops;
  eo.threads = o->threads > 0 ? o->threads : eo.threads;
  eo.seed = o->seed;
  if (o->timeout > 0) eo.timeout = o->timeout;
  miner m = {NULL, 0, 0};
  enum_explore_hooks h = {NULL, on_equal, NULL, &m};
  enum_stats st;
  int r = enum_explore(out->k, d, out->args, out->nargs, &eo, &h, store, &st);
  if (r < 0) {
    ir_free(m.props);
    snprintf(err, errn, "the enumeration failed");
    return -1;
  }
  out->complete = r == 0;
  out->proposed = m.n;
  if (m.n) qsort(m.props, (size_t)m.n, sizeof(cli_rule), cmp_rule);
  int in_vars[16];
  for (int i = 0; i < out->nargs; i++) in_vars[i] = out->args[i]->arg;
  verify_options vo;
  verify_options_default(&vo);
  vo.bound = o->bound > 0 ? o->bound : 2;
  if (o->smt_timeout > 0) vo.timeout = o->smt_timeout;
  verify_ctx *vr = verify_new(&vo);
  vo.mode = VERIFY_FP;
  verify_ctx *vf = o->fp ? verify_new(&vo) : NULL;
  if (!vr || (o->fp && !vf)) {
    ir_free(m.props);
    verify_free(vr);
    verify_free(vf);
    snprintf(err, errn, "cannot set up Z3");
    return -1;
  }
  for (int i = 0; i < m.n; i++) {
    cli_rule rule = m.props[i];
    if (!vars_within(rule.lhs, rule.rhs)) { /* not a rewrite of lhs alone */
      out->implied++;
      continue;
    }
    if (normalize(store, out->rules, out->n, rule.lhs, 0) ==
        normalize(store, out->rules, out->n, rule.rhs, 0)) {
      out->implied++;
      continue;
    }
    if (!defined_lhs(out, rule.lhs)) { /* holds only through undefined behaviour */
      out->implied++;
      continue;
    }
    verify_result res;
    check(vr, out, in_vars, &rule, &res);
    rule.real = res.verdict;
    if (res.verdict != VERIFY_PROVED)
      rule.why = ir_arena_strdup(arena, res.reason[0] ? res.reason : verify_verdict_name(res.verdict));
    verify_result_free(&res);
    if (rule.real == VERIFY_PROVED && vf) {
      check(vf, out, in_vars, &rule, &res);
      rule.fp = res.verdict;
      verify_result_free(&res);
    }
    if (rule.real == VERIFY_PROVED) push(&out->rules, &out->n, &rule);
    else push(&out->failed, &out->nfailed, &rule);
  }
  verify_free(vr);
  verify_free(vf);
  ir_free(m.props);
  return 0;
}

void cli_rules_free(cli_rules *r) {
  ir_free(r->rules);
  ir_free(r->failed);
  r->rules = r->failed = NULL;
  r->n = r->nfailed = 0;
}

/* ------------------------------------------------------------- output */

static const char *verdicts(const cli_rule *r, char *buf, size_t n) {
  if (r->fp == VERIFY_SKIPPED)
    snprintf(buf, n, "real: %s", verify_verdict_name((verify_verdict)r->real));
  else
    snprintf(buf, n, "real: %s, fp: %s", verify_verdict_name((verify_verdict)r->real),
             verify_verdict_name((verify_verdict)r->fp));
  return buf;
}

static void emit_text(const cli_rules *rs, const cli_rewrites_opts *o, FILE *out) {
  char a[512], b[512], v[96];
  fprintf(out, "# %d rules for dialect %s over %s (at most %d ops; %ld proposed, %ld implied, "
          "%d not proved)\n", rs->n, rs->d->name, o->inputs, o->max_ops, rs->proposed,
          rs->implied, rs->nfailed);
  for (int i = 0; i < rs->n; i++)
    fprintf(out, "%s -> %s    [%s]\n", ir_tp_str(rs->rules[i].lhs, rs->k, a, sizeof a),
            ir_tp_str(rs->rules[i].rhs, rs->k, b, sizeof b), verdicts(&rs->rules[i], v, sizeof v));
  for (int i = 0; i < rs->nfailed; i++)
    fprintf(out, "# dropped, not proved: %s -> %s    [%s: %s]\n",
            ir_tp_str(rs->failed[i].lhs, rs->k, a, sizeof a),
            ir_tp_str(rs->failed[i].rhs, rs->k, b, sizeof b),
            verdicts(&rs->failed[i], v, sizeof v), rs->failed[i].why ? rs->failed[i].why : "");
}

static cJSON *rule_json(const cli_rules *rs, const cli_rule *r) {
  char a[1024];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "lhs", ir_tp_str(r->lhs, rs->k, a, sizeof a));
  cJSON_AddStringToObject(o, "rhs", ir_tp_str(r->rhs, rs->k, a, sizeof a));
  cJSON_AddStringToObject(o, "type", ir_type_str(&r->lhs->type, rs->k, a, sizeof a));
  cJSON_AddNumberToObject(o, "lhs_ops", r->lhs->size);
  cJSON_AddNumberToObject(o, "rhs_ops", r->rhs->size);
  cJSON_AddStringToObject(o, "real", verify_verdict_name((verify_verdict)r->real));
  cJSON_AddStringToObject(o, "fp", verify_verdict_name((verify_verdict)r->fp));
  if (r->why) cJSON_AddStringToObject(o, "reason", r->why);
  return o;
}

static void emit_json(const cli_rules *rs, const cli_rewrites_opts *o, FILE *out) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "dialect", rs->d->name);
  cJSON_AddStringToObject(root, "inputs", o->inputs);
  cJSON_AddNumberToObject(root, "max_ops", o->max_ops);
  cJSON_AddNumberToObject(root, "proposed", (double)rs->proposed);
  cJSON_AddNumberToObject(root, "implied", (double)rs->implied);
  cJSON_AddBoolToObject(root, "complete", rs->complete);
  cJSON *ra = cJSON_AddArrayToObject(root, "rules");
  for (int i = 0; i < rs->n; i++) cJSON_AddItemToArray(ra, rule_json(rs, &rs->rules[i]));
  cJSON *fa = cJSON_AddArrayToObject(root, "not_proved");
  for (int i = 0; i < rs->nfailed; i++) cJSON_AddItemToArray(fa, rule_json(rs, &rs->failed[i]));
  char *text = cJSON_Print(root);
  fprintf(out, "%s\n", text);
  cJSON_free(text);
  cJSON_Delete(root);
}

/* PDLL: one Pattern per rule; every lhs node is a `let` with its result
 * type bound to t<id>; the rhs is built in the rewrite section, op result
 * types taken from an lhs node of the same type, else a `?`-dims type. */
typedef struct pdll {
  FILE *out;
  char cname[64]; /* the dialect's constant op (from its constant line) */
  const ir_tnode *seen[128];
  int nseen;
} pdll;

static int pseen(pdll *p, const ir_tnode *n) {
  for (int i = 0; i < p->nseen; i++)
    if (p->seen[i] == n) return 1;
  return 0;
}

static void mlir_type(const ir_type *t, char *buf, size_t n) {
  size_t o = (size_t)snprintf(buf, n, "tensor<");
  for (int d = 0; d < t->rank && o < n; d++)
    o += (size_t)snprintf(buf + o, n - o, "%sx", t->dims[d] == IR_DIM_ONE ? "1" : "?");
  if (o < n) snprintf(buf + o, n - o, "%s>", ir_elem_mlir_name(t->elem));
}

static void pdll_attrs(FILE *out, const ir_tnode *n) {
  if (!n->op->nattrs) return;
  fprintf(out, " {");
  for (int i = 0; i < n->op->nattrs; i++) {
    fprintf(out, "%s\"%s\" = attr<\"", i ? ", " : "", n->op->attr_names[i]);
    const ir_attr *a = &n->attrs[i];
    if (n->op->attr_enum[i] && a->n > 0) {
      fprintf(out, "\\\"%s\\\"", n->op->attr_enum[i][a->v[0]]);
    } else {
      fprintf(out, "array<i64%s", a->n ? ": " : "");
      for (int j = 0; j < a->n; j++) fprintf(out, "%s%d", j ? ", " : "", a->v[j]);
      fprintf(out, ">");
    }
    fprintf(out, "\">");
  }
  fprintf(out, "}");
}

static const char *op_mlir(const ir_tnode *n) {
  const gram_op *g = n->op->owner;
  return g && g->mlir ? g->mlir : n->op->name;
}

static void pdll_const(pdll *p, const ir_tnode *n) {
  FILE *out = p->out;
  char tb[64];
  mlir_type(&n->type, tb, sizeof tb);
  fprintf(out, "op<%s>", p->cname);
  fprintf(out, " {\"value\" = attr<\"dense<%.17e> : %s\">}",
          n->value, tb);
}

static void pdll_lhs(pdll *p, const ir_tnode *n) {
  if (pseen(p, n) || p->nseen == 128) return;
  for (int i = 0; i < n->nops; i++) pdll_lhs(p, n->ops[i]);
  p->seen[p->nseen++] = n;
  FILE *out = p->out;
  if (n->kind == IR_TN_ARG) {
    fprintf(out, "  let v%d: Value<t%d: Type>;\n", n->id, n->id);
  } else if (n->kind == IR_TN_CONST) {
    fprintf(out, "  let v%d = ", n->id);
    pdll_const(p, n);
    fprintf(out, " -> (t%d: Type);\n", n->id);
  } else {
    fprintf(out, "  let v%d = op<%s>(", n->id, op_mlir(n));
    for (int i = 0; i < n->nops; i++) fprintf(out, "%sv%d", i ? ", " : "", n->ops[i]->id);
    fprintf(out, ")");
    pdll_attrs(out, n);
    fprintf(out, " -> (t%d: Type);\n", n->id);
  }
}

static void pdll_type(pdll *p, const ir_type *t) {
  for (int i = 0; i < p->nseen; i++)
    if (ir_type_equal(&p->seen[i]->type, t)) {
      fprintf(p->out, "t%d", p->seen[i]->id);
      return;
    }
  char tb[64];
  mlir_type(t, tb, sizeof tb);
  fprintf(p->out, "type<\"%s\">", tb);
}

static void pdll_rhs(pdll *p, const ir_tnode *n) {
  FILE *out = p->out;
  if (pseen(p, n)) {
    fprintf(out, "v%d", n->id);
  } else if (n->kind == IR_TN_CONST) {
    pdll_const(p, n);
    fprintf(out, " -> (");
    pdll_type(p, &n->type);
    fprintf(out, ")");
  } else {
    fprintf(out, "op<%s>(", op_mlir(n));
    for (int i = 0; i < n->nops; i++) {
      if (i) fprintf(out, ", ");
      pdll_rhs(p, n->ops[i]);
    }
    fprintf(out, ")");
    pdll_attrs(out, n);
    fprintf(out, " -> (");
    pdll_type(p, &n->type);
    fprintf(out, ")");
  }
}

static void emit_pdll(const cli_rules *rs, const cli_rewrites_opts *o, FILE *out) {
  char a[512], b[512], v[96];
  fprintf(out, "// uplift rewrites --dialect %s --inputs \"%s\" --max-ops %d\n"
          "// %d verified rules (Z3, sizes 1..%d); attribute values as MLIR arrays/strings.\n",
          rs->d->name, o->inputs, o->max_ops, rs->n, o->bound > 0 ? o->bound : 2);
  for (int i = 0; i < rs->n; i++) {
    const cli_rule *r = &rs->rules[i];
    pdll p;
    memset(&p, 0, sizeof p);
    p.out = out;
    const char *q = rs->d->constant.text ? strchr(rs->d->constant.text, '"') : NULL;
    const char *e = q ? strchr(q + 1, '"') : NULL;
    if (e && e - q - 1 < (long)sizeof p.cname)
      snprintf(p.cname, sizeof p.cname, "%.*s", (int)(e - q - 1), q + 1);
    else
      snprintf(p.cname, sizeof p.cname, "arith.constant");
    fprintf(out, "\n// %s -> %s  [%s]\nPattern Rule%d with benefit(%d) {\n",
            ir_tp_str(r->lhs, rs->k, a, sizeof a), ir_tp_str(r->rhs, rs->k, b, sizeof b),
            verdicts(r, v, sizeof v), i, r->lhs->size);
    pdll_lhs(&p, r->lhs);
    fprintf(out, "  rewrite v%d with {\n    replace v%d with ", r->lhs->id, r->lhs->id);
    pdll_rhs(&p, r->rhs);
    fprintf(out, ";\n  };\n}\n");
  }
}

/* ----------------------------------------------------------------- main */

static void help(FILE *out) {
  fprintf(out,
          "Usage: uplift rewrites --dialect D --inputs SPEC [options]\n"
          "Enumerate the dialect's programs over the inputs, group them by\n"
          "observational equivalence and propose `bigger -> smallest` rules; drop\n"
          "rules implied by smaller ones, verify the rest with Z3 (real mode; fp\n"
          "mode reported too) and print the proved ones with their verdicts.\n\n"
          "  --dialect D               dialect name or file\n"
          "  --inputs SPEC             e.g. \"x:f64[n],y:f64[n],a:f64[]\"\n"
          "  --max-ops N               largest left-hand side (default 2)\n"
          "  --emit text|pdll|json     output format (default text)\n"
          "  -o FILE                   write the output to FILE\n"
          "  --bound N                 verify at sizes 1..N (default 2)\n"
          "  --smt-timeout S           seconds per solver query (default 10)\n"
          "  --no-fp                   skip the fp-mode check\n"
          "  --threads N, --seed S, --timeout S   as for explore\n"
          "  -h, --help                this help\n");
}

enum { OPT_DIALECT = 0x100, OPT_INPUTS, OPT_MAXOPS, OPT_EMIT, OPT_BOUND, OPT_SMT, OPT_NOFP,
       OPT_THREADS, OPT_SEED, OPT_TIMEOUT };

int cli_cmd_rewrites(int argc, char **argv) {
  static const struct option longopts[] = {
      {"dialect", required_argument, NULL, OPT_DIALECT},
      {"inputs", required_argument, NULL, OPT_INPUTS},
      {"max-ops", required_argument, NULL, OPT_MAXOPS},
      {"emit", required_argument, NULL, OPT_EMIT},
      {"bound", required_argument, NULL, OPT_BOUND},
      {"smt-timeout", required_argument, NULL, OPT_SMT},
      {"no-fp", no_argument, NULL, OPT_NOFP},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"seed", required_argument, NULL, OPT_SEED},
      {"timeout", required_argument, NULL, OPT_TIMEOUT},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  cli_rewrites_opts o = {NULL, NULL, 2, 0, 2, 1, 10, 120, 1};
  const char *emit = "text", *outpath = NULL;
  int c;
  long v;
  optind = 1;
  while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
    switch (c) {
    case 'h': help(stdout); return IR_EXIT_OK;
    case 'o': outpath = optarg; break;
    case OPT_DIALECT: o.dialect = optarg; break;
    case OPT_INPUTS: o.inputs = optarg; break;
    case OPT_EMIT:
      if (strcmp(optarg, "text") && strcmp(optarg, "pdll") && strcmp(optarg, "json"))
        return cli_usage_error("rewrites", "--emit expects text, pdll or json, not '%s'", optarg);
      emit = optarg;
      break;
    case OPT_NOFP: o.fp = 0; break;
    case OPT_MAXOPS:
      if (cli_parse_long("rewrites", "--max-ops", optarg, 1, 8, &v)) return IR_EXIT_BAD_INPUT;
      o.max_ops = (int)v;
      break;
    case OPT_BOUND:
      if (cli_parse_long("rewrites", "--bound", optarg, 1, 8, &v)) return IR_EXIT_BAD_INPUT;
      o.bound = (int)v;
      break;
    case OPT_SMT:
      if (cli_parse_long("rewrites", "--smt-timeout", optarg, 1, 3600, &v)) return IR_EXIT_BAD_INPUT;
      o.smt_timeout = (double)v;
      break;
    case OPT_THREADS:
      if (cli_parse_long("rewrites", "--threads", optarg, 1, 256, &v)) return IR_EXIT_BAD_INPUT;
      o.threads = (int)v;
      break;
    case OPT_SEED:
      if (cli_parse_long("rewrites", "--seed", optarg, 0, 1L << 40, &v)) return IR_EXIT_BAD_INPUT;
      o.seed = (uint64_t)v;
      break;
    case OPT_TIMEOUT:
      if (cli_parse_long("rewrites", "--timeout", optarg, 1, 86400, &v)) return IR_EXIT_BAD_INPUT;
      o.timeout = (double)v;
      break;
    default: return cli_usage_error("rewrites", "unknown option");
    }
  }
  if (optind < argc) return cli_usage_error("rewrites", "unexpected argument '%s'", argv[optind]);
  if (!o.dialect) return cli_usage_error("rewrites", "missing --dialect");
  if (!o.inputs) return cli_usage_error("rewrites", "missing --inputs");
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  cli_rules rs;
  char err[256] = "";
  int r = cli_rewrites_mine(&o, &arena, &store, &rs, err, sizeof err);
  int status = IR_EXIT_OK;
  if (r) {
    if (r == IR_EXIT_BAD_INPUT && strncmp(err, "cannot load", 11))
      cli_usage_error("rewrites", "--inputs: %s", err);
    else if (r != IR_EXIT_BAD_INPUT)
      fprintf(stderr, "uplift rewrites: %s\n", err);
    status = r == IR_EXIT_BAD_INPUT ? IR_EXIT_BAD_INPUT : IR_EXIT_MISMATCH;
  } else {
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
      fprintf(stderr, "uplift rewrites: cannot write %s\n", outpath);
      status = IR_EXIT_BAD_INPUT;
    } else {
      if (!strcmp(emit, "json")) emit_json(&rs, &o, out);
      else if (!strcmp(emit, "pdll")) emit_pdll(&rs, &o, out);
      else emit_text(&rs, &o, out);
      if (out != stdout) fclose(out);
    }
  }
  cli_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}
