/*
 * pdll.c - rewrite rules as PDLL patterns (mlir-pdll-16), for
 * `uplift rewrites --emit pdll`: one Pattern per rule; every left-hand-side
 * node is a `let` with its result type bound to t<id>; the right-hand side
 * is built in the rewrite section, op result types taken from an lhs node
 * of the same type, else a `?`-dims type.
 *
 * Each op is written as the dialect file writes it (its `emit` lines, read
 * here, so a new op needs no C code): the op name is the one its `$res =`
 * line creates, the operands are the placeholders of that line in their
 * order (`ins($a, $b ...) outs($%empty ...)`: a, b, then the destination),
 * and the attributes are the `{...}` dictionary of that line with the
 * rule's attribute values spelled as there (`#linalg.binary_fn<add>`,
 * `1 : i64`) and its fixed entries (`shift = 0 : i32`).  A rule is not a
 * PDL pattern (emit_pdll_why says why, and emit_pdll writes a comment
 * instead) when an op of it has a body region (linalg.map: the function is
 * the region, which a PDL pattern can neither match nor build), an
 * attribute in the op's custom syntax or one that depends on the shape, a
 * dialect attribute (`#linalg.binary_fn<add>`: mlir-pdll-16 parses
 * attributes with no dialect loaded, reports an error and leaves the
 * attribute unconstrained, so the pattern would match every function), an
 * operand built by a helper op other than tensor.empty (a destination whose
 * contents the op does not read, matched as any tensor.empty), or when its
 * right side would have to build a helper op or a constant of dynamic
 * shape.
 */
#include <string.h>

#include "emit/emit.h"

typedef struct pdll {
  FILE *out;
  char cname[64]; /* the dialect's constant op (from its constant line) */
  const ir_tnode *seen[128];
  int nseen;
} pdll;

/* How an op node is written in MLIR (from its gram_op's emit lines). */
typedef struct op_form {
  char name[64];
  int nopnd;
  int opnd[IR_TP_MAX_OPERANDS + 4]; /* an operand of the node, or -1: a tensor.empty */
  char dict[512];                    /* PDLL attribute dict " {...}" or "" */
} op_form;

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

/* The lines n is written with (those emit_node picks at static shapes). */
static const gram_line *op_lines(const ir_tnode *n, int *nl) {
  const gram_op *g = n->op->owner;
  *nl = g->nemit;
  if (g->nemit_b)
    for (int i = 0; i < n->nops; i++)
      if (!ir_type_equal(&n->ops[i]->type, &n->type)) {
        *nl = g->nemit_b;
        return g->emit_b;
      }
  return g->emit;
}

static int is_space(char c) { return c == ' ' || c == '\t'; }

/* Does the template line define $res (after blanks)? */
static const char *res_line(const char *t) {
  while (is_space(*t)) t++;
  if (strncmp(t, "$res", 4) || (t[4] != ' ' && t[4] != '=')) return NULL;
  t += 4;
  while (is_space(*t)) t++;
  if (*t != '=') return NULL;
  t++;
  while (is_space(*t)) t++;
  return t;
}

/* Which op does the helper line defining $%local[0..len) create ("" if
 * none)? */
static void helper_op(const gram_line *lines, int nl, const char *local, int len, char *buf,
                      size_t n) {
  buf[0] = 0;
  for (int i = 0; i < nl; i++) {
    const char *t = lines[i].text;
    while (is_space(*t)) t++;
    if (t[0] != '$' || t[1] != '%' || strncmp(t + 2, local, (size_t)len) ||
        (t[2 + len] != ' ' && t[2 + len] != '='))
      continue;
    t = strchr(t, '=');
    if (!t) return;
    t++;
    while (is_space(*t) || *t == '"') t++;
    size_t k = strcspn(t, " (\"");
    snprintf(buf, n, "%.*s", (int)(k < n ? k : n - 1), t);
    return;
  }
}

/* Append s[0..len) to buf (escaping '"' and '\\' for a PDLL string). */
static void put_esc(char *buf, size_t n, const char *s, size_t len) {
  size_t o = strlen(buf);
  for (size_t i = 0; i < len && o + 2 < n; i++) {
    if (s[i] == '"' || s[i] == '\\') buf[o++] = '\\';
    buf[o++] = s[i];
  }
  buf[o] = 0;
}

/* Expand the attribute value template s[0..len) of node n into buf
 * (escaped).  Returns NULL, or why it cannot be a constant attribute. */
static const char *attr_value(const ir_tnode *n, const char *s, size_t len, char *buf,
                              size_t bn) {
  const gram_op *g = n->op->owner;
  buf[0] = 0;
  for (size_t i = 0; i < len;) {
    const char *name;
    int nlen, skip;
    int r = gram_template_next(s + i, &name, &nlen, &skip);
    if (r <= 0 || r == 2) {
      put_esc(buf, bn, r == 2 ? "$" : s + i, 1);
      i += r == 2 ? (size_t)skip : 1;
      continue;
    }
    i += (size_t)skip;
    const char *dot = memchr(name, '.', (size_t)nlen);
    int ai = gram_op_attr(g, name, dot ? (int)(dot - name) : nlen);
    if (ai < 0) return "an attribute that depends on the shape";
    const gram_attr *a = &g->attrs[ai];
    const ir_attr *av = &n->attrs[ai];
    char v[256] = "";
    const char *sfx = dot ? dot + 1 : "";
    int slen = dot ? (int)(name + nlen - sfx) : 0;
    int start = 0, step = 1;
    if (slen == 3 && !strncmp(sfx, "lhs", 3)) step = 2;
    else if (slen == 3 && !strncmp(sfx, "rhs", 3)) start = 1, step = 2;
    else if (slen == 1 && sfx[0] == 'n') {
      snprintf(v, sizeof v, "%d", a->dom == GRAM_DOM_PAIRS ? av->n / 2 : av->n);
    } else if (dot) return "an attribute written in a form this writer does not read";
    if (v[0]) {
      /* `.n`: the count, written above */
    } else if (a->dom == GRAM_DOM_ENUM || a->dom == GRAM_DOM_REGION) {
      ir_elem t = n->type.elem;
      for (int k = 0; k < g->nops && k < n->nops; k++)
        if (!g->pats[k].fixed_elem) {
          t = n->ops[k]->type.elem;
          break;
        }
      const char *sp = gram_attr_spelling(a, av->v[0], t);
      if (!sp) return "an attribute value with no MLIR form for this type";
      snprintf(v, sizeof v, "%s", sp);
    } else {
      if (a->dom == GRAM_DOM_WINDOW) return "a window attribute";
      if (a->dom == GRAM_DOM_SHIFT) return "a shift attribute"; /* issue 14's pad */
      size_t o = 0;
      for (int k = start; k < av->n && o < sizeof v; k += step)
        o += (size_t)snprintf(v + o, sizeof v - o, "%s%d", k == start ? "" : ", ", av->v[k]);
    }
    put_esc(buf, bn, v, strlen(v));
  }
  return NULL;
}

/* The PDLL dict of the MLIR attribute dictionary d[0..len) (without its
 * braces) of node n. */
static const char *attr_dict(const ir_tnode *n, const char *d, size_t len, char *out,
                             size_t on) {
  size_t o = (size_t)snprintf(out, on, " {");
  int first = 1;
  for (size_t i = 0; i < len;) {
    while (i < len && (is_space(d[i]) || d[i] == ',')) i++;
    if (i == len) break;
    size_t e = i;
    int depth = 0;
    while (e < len && (depth || d[e] != ',')) {
      if (strchr("<[({", d[e])) depth++;
      else if (strchr(">])}", d[e])) depth--;
      e++;
    }
    const char *eq = memchr(d + i, '=', e - i);
    if (!eq) return "an attribute written in a form this writer does not read";
    size_t k = (size_t)(eq - d) - i;
    while (k && is_space(d[i + k - 1])) k--;
    const char *v = eq + 1;
    while (is_space(*v)) v++;
    size_t vlen = (size_t)(d + e - v);
    while (vlen && is_space(v[vlen - 1])) vlen--;
    char val[256];
    const char *why = attr_value(n, v, vlen, val, sizeof val);
    if (why) return why;
    if (val[0] == '#') /* parsed where no dialect is loaded: the constraint would be dropped */
      return "a dialect attribute (#...), which mlir-pdll-16 cannot parse: it would drop the constraint";
    o += (size_t)snprintf(out + o, o < on ? on - o : 0, "%s\"%.*s\" = attr<\"%s\">",
                          first ? "" : ", ", (int)k, d + i, val);
    first = 0;
    i = e;
  }
  if (first) out[0] = 0;
  else if (o < on) snprintf(out + o, on - o, "}");
  return o < on ? NULL : "attributes too long for this writer";
}

/* How op node n is written; NULL, or why it is no PDL op (rhs: n would be
 * built by the rewrite). */
static const char *op_form_of(const ir_tnode *n, int rhs, op_form *f) {
  memset(f, 0, sizeof *f);
  const gram_op *g = n->op->owner;
  if (!g) return "an op without a dialect form";
  int nl;
  const gram_line *lines = op_lines(n, &nl);
  int r = -1;
  for (int i = 0; i < nl && r < 0; i++)
    if (res_line(lines[i].text)) r = i;
  if (r < 0) return "an op written without a `$res =` line";
  if (r < nl - 1) return "an op with a body region, which PDL can neither match nor build";
  if (r > 0 && rhs) return "an op that needs helper ops (its destination tensor), which the rewrite would build";
  const char *t = res_line(lines[r].text);
  const char *q = t;
  if (*q == '"') q++;
  size_t k = strcspn(q, " (\"{");
  snprintf(f->name, sizeof f->name, "%.*s", (int)k, q);
  t = q + k + (q[k] == '"');
  /* operands and attributes in order; the dict is the first {...} */
  int depth = 0, seen_dict = 0;
  const char *dict = NULL;
  size_t dict_len = 0;
  for (const char *s = t; *s;) {
    const char *name;
    int len, skip;
    int rr = gram_template_next(s, &name, &len, &skip);
    if (rr <= 0 || rr == 2) {
      if (*s == '{' && !depth && !seen_dict) {
        const char *e = s + 1;
        int dd = 1;
        while (*e && dd) {
          if (*e == '{') dd++;
          else if (*e == '}') dd--;
          e++;
        }
        dict = s + 1;
        dict_len = (size_t)(e - s - 2);
        seen_dict = 1;
        s = e;
        continue;
      }
      if (*s == '(') depth++;
      else if (*s == ')') depth--;
      s += rr == 2 ? skip : 1;
      continue;
    }
    s += skip;
    if (memchr(name, '.', (size_t)len)) continue; /* a type, a shape */
    if (name[0] == '%') {
      char h[64];
      helper_op(lines, r, name + 1, len - 1, h, sizeof h);
      if (strcmp(h, "tensor.empty"))
        return "an operand built by a helper op other than tensor.empty";
      if (f->nopnd < (int)(sizeof f->opnd / sizeof f->opnd[0])) f->opnd[f->nopnd++] = -1;
      continue;
    }
    int oi = gram_op_operand(g, name, len);
    if (oi >= 0) {
      if (f->nopnd < (int)(sizeof f->opnd / sizeof f->opnd[0])) f->opnd[f->nopnd++] = oi;
      continue;
    }
    if (len == 3 && !strncmp(name, "res", 3)) continue;
    return "an attribute written in the op's custom syntax";
  }
  return dict ? attr_dict(n, dict, dict_len, f->dict, sizeof f->dict) : NULL;
}

/* Is n a subterm of t? */
static int contains(const ir_tnode *t, const ir_tnode *n) {
  if (t == n) return 1;
  for (int i = 0; i < t->nops; i++)
    if (contains(t->ops[i], n)) return 1;
  return 0;
}

static int has_sym_dim(const ir_type *t) {
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != IR_DIM_ONE) return 1;
  return 0;
}

/* Why the term n (lhs: matched; else built, with lhs's nodes reused)
 * cannot be written, or NULL. */
static const char *term_why(const ir_tnode *n, const ir_tnode *lhs, int rhs) {
  if (rhs && contains(lhs, n)) return NULL;
  if (n->kind == IR_TN_ARG) return NULL;
  if (n->kind == IR_TN_CONST)
    return has_sym_dim(&n->type) ? "a constant of dynamic shape (a dense literal needs a static one)"
                                 : NULL;
  if (n->kind != IR_TN_OP) return "a leaf that is not an input or a constant";
  op_form f;
  const char *why = op_form_of(n, rhs, &f);
  for (int i = 0; i < n->nops && !why; i++) why = term_why(n->ops[i], lhs, rhs);
  return why;
}

const char *emit_pdll_why(const emit_pdll_rule *r) {
  if (ir_tp_has_attr_var(r->lhs))
    return "an attribute variable ($0, one rule for every value of the attribute), which "
           "these patterns do not bind";
  const char *why = term_why(r->lhs, r->lhs, 0);
  if (!why) why = term_why(r->rhs, r->lhs, 1);
  /* a PDL pattern states no shape: it matches its ops at any shape, so a
   * rule proved at its inputs' shapes only (`reverse[dim=(0)](_4) -> _4`
   * over _4:f64[1,n], a reverse along a unit dim) would rewrite
   * `stablehlo.reverse` of a tensor<3xf64> to its operand */
  if (!why && !gram_rule_shape_generic(r->lhs, r->rhs))
    why = "proved at its inputs' shapes only (an op that is not elementwise, or operands "
          "of other shapes than the result), which a PDL pattern cannot state: it would "
          "match the ops at any shape";
  return why;
}

static void pdll_const(pdll *p, const ir_tnode *n) {
  FILE *out = p->out;
  char tb[64];
  mlir_type(&n->type, tb, sizeof tb);
  fprintf(out, "op<%s>", p->cname);
  fprintf(out, " {\"value\" = attr<\"dense<%.17e> : %s\">}", n->value, tb);
}

/* A use of node n as an operand: an input is a Value, an op is the op and
 * its result 0 is named (a whole op as an operand is its results range,
 * and two ranges in one operand list match nothing). */
static void pdll_ref(pdll *p, const ir_tnode *n) {
  if (n->kind == IR_TN_ARG) fprintf(p->out, "v%d", n->id);
  else fprintf(p->out, "%c%d.0", pseen(p, n) ? 'v' : 'r', n->id);
}

static void pdll_lhs(pdll *p, const ir_tnode *n) {
  if (pseen(p, n) || p->nseen == 128) return;
  for (int i = 0; i < n->nops; i++) pdll_lhs(p, n->ops[i]);
  FILE *out = p->out;
  /* nodes of one type share its type variable: the pattern matches only
   * where the values the rule relates have the types it relates */
  char ty[32];
  const ir_tnode *same = NULL;
  for (int i = 0; i < p->nseen && !same; i++)
    if (ir_type_equal(&p->seen[i]->type, &n->type)) same = p->seen[i];
  if (same) snprintf(ty, sizeof ty, "t%d", same->id);
  else snprintf(ty, sizeof ty, "t%d: Type", n->id);
  if (n->kind == IR_TN_ARG) {
    fprintf(out, "  let v%d: Value<%s>;\n", n->id, ty);
  } else if (n->kind == IR_TN_CONST) {
    fprintf(out, "  let v%d = ", n->id);
    pdll_const(p, n);
    fprintf(out, " -> (%s);\n", ty);
  } else {
    op_form f;
    op_form_of(n, 0, &f);
    for (int i = 0; i < f.nopnd; i++)
      if (f.opnd[i] < 0)
        fprintf(out, "  let e%d_%d = op<tensor.empty>(d%d_%d: ValueRange);\n", n->id, i, n->id, i);
    fprintf(out, "  let v%d = op<%s>(", n->id, f.name);
    for (int i = 0; i < f.nopnd; i++) {
      if (i) fprintf(out, ", ");
      if (f.opnd[i] < 0) fprintf(out, "e%d_%d.0", n->id, i);
      else pdll_ref(p, n->ops[f.opnd[i]]);
    }
    fprintf(out, ")%s -> (%s);\n", f.dict, ty);
  }
  p->seen[p->nseen++] = n;
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

/* The rewrite's lets building rhs node n (operands first; built[] holds
 * the nodes built so far). */
static void pdll_rhs(pdll *p, const ir_tnode *n, const ir_tnode **built, int *nbuilt) {
  if (pseen(p, n)) return;
  for (int i = 0; i < *nbuilt; i++)
    if (built[i] == n) return;
  for (int i = 0; i < n->nops; i++) pdll_rhs(p, n->ops[i], built, nbuilt);
  FILE *out = p->out;
  fprintf(out, "    let r%d = ", n->id);
  if (n->kind == IR_TN_CONST) {
    pdll_const(p, n);
  } else {
    op_form f;
    op_form_of(n, 1, &f);
    fprintf(out, "op<%s>(", f.name);
    for (int i = 0; i < f.nopnd; i++) {
      if (i) fprintf(out, ", ");
      pdll_ref(p, n->ops[f.opnd[i]]);
    }
    fprintf(out, ")%s", f.dict);
  }
  fprintf(out, " -> (");
  pdll_type(p, &n->type);
  fprintf(out, ");\n");
  if (*nbuilt < 128) built[(*nbuilt)++] = n;
}

int emit_pdll(const gram_dialect *d, const ir_kernel *k, const emit_pdll_rule *rules, int n,
              FILE *out) {
  char a[512], b[512];
  int written = 0;
  for (int i = 0; i < n; i++) {
    const emit_pdll_rule *r = &rules[i];
    ir_tp_str(r->lhs, k, a, sizeof a);
    ir_tp_str(r->rhs, k, b, sizeof b);
    const char *why = emit_pdll_why(r);
    if (why) {
      fprintf(out, "\n// not a PDL pattern (%s): %s -> %s  [%s]\n", why, a, b, r->note);
      continue;
    }
    pdll p;
    memset(&p, 0, sizeof p);
    p.out = out;
    const char *q = d->constant.text ? strchr(d->constant.text, '"') : NULL;
    const char *e = q ? strchr(q + 1, '"') : NULL;
    if (e && e - q - 1 < (long)sizeof p.cname)
      snprintf(p.cname, sizeof p.cname, "%.*s", (int)(e - q - 1), q + 1);
    else
      snprintf(p.cname, sizeof p.cname, "arith.constant");
    fprintf(out, "\n// %s -> %s  [%s]\nPattern Rule%d with benefit(%d) {\n", a, b, r->note, i,
            r->lhs->size);
    pdll_lhs(&p, r->lhs);
    fprintf(out, "  rewrite v%d with {\n", r->lhs->id);
    const ir_tnode *built[128];
    int nbuilt = 0;
    pdll_rhs(&p, r->rhs, built, &nbuilt);
    fprintf(out, "    replace v%d with ", r->lhs->id);
    pdll_ref(&p, r->rhs);
    fprintf(out, ";\n  };\n}\n");
    written++;
  }
  return written;
}
