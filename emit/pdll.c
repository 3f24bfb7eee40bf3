/*
 * pdll.c - rewrite rules as PDLL patterns (mlir-pdll-16), for
 * `uplift rewrites --emit pdll`: one Pattern per rule; every left-hand-side
 * node is a `let` with its result type bound to t<id>; the right-hand side
 * is built in the rewrite section, op result types taken from an lhs node
 * of the same type, else a `?`-dims type.  Op names come from the dialect
 * file (gram_op mlir names), the constant op from its constant line.
 */
#include <string.h>

#include "emit/emit.h"

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

void emit_pdll(const gram_dialect *d, const ir_kernel *k, const emit_pdll_rule *rules, int n,
               FILE *out) {
  char a[512], b[512];
  for (int i = 0; i < n; i++) {
    const emit_pdll_rule *r = &rules[i];
    pdll p;
    memset(&p, 0, sizeof p);
    p.out = out;
    const char *q = d->constant.text ? strchr(d->constant.text, '"') : NULL;
    const char *e = q ? strchr(q + 1, '"') : NULL;
    if (e && e - q - 1 < (long)sizeof p.cname)
      snprintf(p.cname, sizeof p.cname, "%.*s", (int)(e - q - 1), q + 1);
    else
      snprintf(p.cname, sizeof p.cname, "arith.constant");
    fprintf(out, "\n// %s -> %s  [%s]\nPattern Rule%d with benefit(%d) {\n",
            ir_tp_str(r->lhs, k, a, sizeof a), ir_tp_str(r->rhs, k, b, sizeof b), r->note, i,
            r->lhs->size);
    pdll_lhs(&p, r->lhs);
    fprintf(out, "  rewrite v%d with {\n    replace v%d with ", r->lhs->id, r->lhs->id);
    pdll_rhs(&p, r->rhs);
    fprintf(out, ";\n  };\n}\n");
  }
}
