/*
 * tprog.c - hash-consed tensor program nodes, masks and term printing.
 *
 * The store is an open-addressing table of node pointers keyed by a 64-bit
 * hash of the node's content (kind, type, leaf payload, op descriptor,
 * attributes, operand pointers).  Because operands are themselves unique,
 * comparing operand pointers is enough to compare whole subterms.
 */
#include "ir/tprog.h"

#include <string.h>

/* ------------------------------------------------------------------ hash */

/* The integers attribute value a holds: n, or 1 for a rewrite rule's
 * attribute variable (n < 0, v[0] its number). */
static int attr_len(const ir_attr *a) { return a->n < 0 ? 1 : a->n; }

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

static uint64_t hash_type(uint64_t h, const ir_type *t) {
  h = mix(h, (uint64_t)t->elem * 16 + (uint64_t)t->rank);
  for (int i = 0; i < t->rank; i++) h = mix(h, (uint64_t)(int64_t)t->dims[i]);
  return h;
}

static uint64_t hash_node(const ir_tnode *n) {
  uint64_t h = mix(0, (uint64_t)n->kind);
  h = hash_type(h, &n->type);
  switch (n->kind) {
  case IR_TN_ARG:
    h = mix(h, (uint64_t)n->arg);
    for (const char *c = n->name ? n->name : ""; *c; c++) h = mix(h, (uint64_t)(unsigned char)*c);
    break;
  case IR_TN_CONST: {
    uint64_t bits;
    memcpy(&bits, &n->value, sizeof bits);
    h = mix(h, bits);
    break;
  }
  case IR_TN_MASK: {
    const ir_mask *m = n->mask;
    h = mix(h, (uint64_t)m->ncons);
    for (int c = 0; c < m->ncons; c++) {
      const ir_mask_con *k = &m->cons[c];
      for (int i = 0; i < IR_MAX_RANK; i++) h = mix(h, (uint64_t)(int64_t)k->coef[i]);
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++) {
        h = mix(h, k->pcoef[p] ? (uint64_t)(int64_t)k->sym[p] : 0);
        h = mix(h, (uint64_t)(int64_t)k->pcoef[p]);
      }
      h = mix(h, (uint64_t)(int64_t)k->c * 2 + (uint64_t)(k->eq != 0));
    }
    break;
  }
  case IR_TN_OP:
    h = mix(h, (uint64_t)(uintptr_t)n->op);
    for (int a = 0; a < n->op->nattrs; a++) {
      h = mix(h, (uint64_t)n->attrs[a].n);
      for (int i = 0; i < attr_len(&n->attrs[a]); i++)
        h = mix(h, (uint64_t)(int64_t)n->attrs[a].v[i]);
    }
    for (int i = 0; i < n->nops; i++) h = mix(h, (uint64_t)(uintptr_t)n->ops[i]);
    break;
  }
  return h;
}

static int mask_equal(const ir_mask *a, const ir_mask *b) {
  if (a->ncons != b->ncons) return 0;
  for (int c = 0; c < a->ncons; c++) {
    const ir_mask_con *x = &a->cons[c], *y = &b->cons[c];
    if (memcmp(x->coef, y->coef, sizeof x->coef) || x->c != y->c ||
        (x->eq != 0) != (y->eq != 0))
      return 0;
    for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
      if (x->pcoef[p] != y->pcoef[p] || (x->pcoef[p] && x->sym[p] != y->sym[p]))
        return 0;
  }
  return 1;
}

static int node_equal(const ir_tnode *a, const ir_tnode *b) {
  if (a->hash != b->hash || a->kind != b->kind || !ir_type_equal(&a->type, &b->type))
    return 0;
  switch (a->kind) {
  case IR_TN_ARG:
    return a->arg == b->arg && !strcmp(a->name ? a->name : "", b->name ? b->name : "");
  case IR_TN_CONST: return memcmp(&a->value, &b->value, sizeof a->value) == 0;
  case IR_TN_MASK: return mask_equal(a->mask, b->mask);
  case IR_TN_OP:
    if (a->op != b->op || a->nops != b->nops) return 0;
    for (int i = 0; i < a->nops; i++)
      if (a->ops[i] != b->ops[i]) return 0;
    for (int i = 0; i < a->op->nattrs; i++) {
      if (a->attrs[i].n != b->attrs[i].n) return 0;
      if (memcmp(a->attrs[i].v, b->attrs[i].v, (size_t)attr_len(&a->attrs[i]))) return 0;
    }
    return 1;
  }
  return 0;
}

/* ----------------------------------------------------------------- store */

void ir_tp_store_init(ir_tp_store *s, ir_arena *arena) {
  s->arena = arena;
  s->cap = 1024;
  s->count = 0;
  s->table = ir_calloc(s->cap, sizeof *s->table);
}

void ir_tp_store_free(ir_tp_store *s) {
  ir_free((void *)s->table);
  s->table = NULL;
  s->cap = s->count = 0;
}

static void grow(ir_tp_store *s) {
  size_t cap = s->cap * 2;
  const ir_tnode **t = ir_calloc(cap, sizeof *t);
  for (size_t i = 0; i < s->cap; i++) {
    const ir_tnode *n = s->table[i];
    if (!n) continue;
    size_t j = n->hash & (cap - 1);
    while (t[j]) j = (j + 1) & (cap - 1);
    t[j] = n;
  }
  ir_free((void *)s->table);
  s->table = t;
  s->cap = cap;
}

/* Find `key` in the store or insert a copy of it made in the arena. */
static const ir_tnode *intern(ir_tp_store *s, ir_tnode *key) {
  key->hash = hash_node(key);
  size_t j = key->hash & (s->cap - 1);
  while (s->table[j]) {
    if (node_equal(s->table[j], key)) return s->table[j];
    j = (j + 1) & (s->cap - 1);
  }
  ir_tnode *n = IR_NEW(s->arena, ir_tnode);
  *n = *key;
  n->id = (int)s->count;
  if (n->kind == IR_TN_ARG && n->name) n->name = ir_arena_strdup(s->arena, n->name);
  if (n->kind == IR_TN_MASK) {
    ir_mask *m = IR_NEW(s->arena, ir_mask);
    *m = *key->mask;
    n->mask = m;
  }
  s->table[j] = n;
  if (++s->count * 2 > s->cap) grow(s);
  return n;
}

const ir_tnode *ir_tp_arg(ir_tp_store *s, int arg, const char *name,
                          const ir_type *type) {
  ir_tnode k;
  memset(&k, 0, sizeof k);
  k.kind = IR_TN_ARG;
  k.type = *type;
  k.arg = arg;
  k.name = name;
  return intern(s, &k);
}

const ir_tnode *ir_tp_const(ir_tp_store *s, double value, const ir_type *type) {
  ir_tnode k;
  memset(&k, 0, sizeof k);
  k.kind = IR_TN_CONST;
  k.type = *type;
  /* -0.0 and 0.0 are one constant; an f32 constant holds a float */
  if (type->elem == IR_F32) value = (float)value;
  k.value = value == 0 ? 0.0 : value;
  return intern(s, &k);
}

const ir_tnode *ir_tp_mask(ir_tp_store *s, const ir_mask *m, const ir_type *type) {
  ir_tnode k;
  memset(&k, 0, sizeof k);
  k.kind = IR_TN_MASK;
  k.type = *type;
  k.mask = m;
  return intern(s, &k);
}

const ir_tnode *ir_tp_op(ir_tp_store *s, const ir_tp_opdesc *op,
                         const ir_attr *attrs, const ir_tnode *const *ops,
                         int nops, const ir_type *type) {
  ir_tnode k;
  memset(&k, 0, sizeof k);
  k.kind = IR_TN_OP;
  k.type = *type;
  k.op = op;
  IR_ASSERT(op->nattrs <= IR_TP_MAX_ATTRS && nops <= IR_TP_MAX_OPERANDS);
  for (int i = 0; i < op->nattrs; i++) k.attrs[i] = attrs[i];
  k.nops = nops;
  k.size = 1;
  for (int i = 0; i < nops; i++) {
    k.ops[i] = ops[i];
    k.size += ops[i]->size;
  }
  return intern(s, &k);
}

/* ----------------------------------------------------------------- masks */

int ir_mask_contains(const ir_mask *m, const long *idx,
                     long (*symval)(int sym, void *user), void *user) {
  for (int c = 0; c < m->ncons; c++) {
    const ir_mask_con *k = &m->cons[c];
    /* 128-bit sums: coefficients are ints and indices and sizes longs, so
     * no term or sum of a few terms can overflow */
    __int128 v = k->c;
    for (int i = 0; i < IR_MAX_RANK; i++)
      if (k->coef[i]) v += (__int128)k->coef[i] * idx[i];
    for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
      if (k->pcoef[p]) v += (__int128)k->pcoef[p] * symval(k->sym[p], user);
    if (k->eq ? v != 0 : v < 0) return 0;
  }
  return 1;
}

/* -------------------------------------------------------------- printing */

/* The text is built in an ir_buf (no fixed size), then written or copied. */

static void print_sym(ir_buf *b, int sym, const ir_kernel *k) {
  if (k && sym >= 0 && sym < k->nvars) ir_buf_printf(b, "%s", k->vars[sym]->name);
  else ir_buf_printf(b, "d%d", sym);
}

static void print_mask(ir_buf *b, const ir_mask *m, const ir_kernel *k) {
  ir_buf_printf(b, "mask[");
  for (int c = 0; c < m->ncons; c++) {
    const ir_mask_con *con = &m->cons[c];
    if (c) ir_buf_printf(b, ", ");
    int first = 1;
    for (int i = 0; i < IR_MAX_RANK; i++) {
      int co = con->coef[i];
      if (!co) continue;
      if (co == 1) ir_buf_printf(b, first ? "i%d" : " + i%d", i);
      else if (co == -1) ir_buf_printf(b, first ? "-i%d" : " - i%d", i);
      else ir_buf_printf(b, first ? "%d*i%d" : " %+d*i%d", co, i);
      first = 0;
    }
    for (int p = 0; p < IR_MASK_MAX_SYMS; p++) {
      int co = con->pcoef[p];
      if (!co) continue;
      if (!first || co < 0) ir_buf_printf(b, co < 0 ? (first ? "-" : " - ") : " + ");
      if (co != 1 && co != -1) ir_buf_printf(b, "%d*", co < 0 ? -co : co);
      print_sym(b, con->sym[p], k);
      first = 0;
    }
    if (con->c || first) ir_buf_printf(b, first ? "%d" : " %+d", con->c);
    ir_buf_printf(b, con->eq ? " == 0" : " >= 0");
  }
  ir_buf_printf(b, "]");
}

/* The `:TYPE` suffix of a node whose type the text does not imply. */
static void print_type_suffix(ir_buf *b, const ir_tnode *n, const ir_kernel *k) {
  if (!k) return;
  int need = n->kind == IR_TN_MASK ||
             (n->kind == IR_TN_CONST && (n->type.rank || n->type.elem != k->data_type)) ||
             (n->kind == IR_TN_OP && n->op->typed_result);
  if (!need) return;
  char buf[128];
  ir_buf_printf(b, ":%s", ir_type_str(&n->type, k, buf, sizeof buf));
}

static void print_node(ir_buf *b, const ir_tnode *n, const ir_kernel *k) {
  switch (n->kind) {
  case IR_TN_ARG:
    if (n->name) ir_buf_printf(b, "%s", n->name);
    else ir_buf_printf(b, "arg%d", n->arg);
    return;
  case IR_TN_CONST:
    ir_buf_printf(b, "%.17g", n->value);
    print_type_suffix(b, n, k);
    return;
  case IR_TN_MASK:
    print_mask(b, n->mask, k);
    print_type_suffix(b, n, k);
    return;
  case IR_TN_OP: break;
  }
  ir_buf_printf(b, "%s", n->op->name);
  if (n->op->nattrs) {
    ir_buf_printf(b, "[");
    for (int a = 0; a < n->op->nattrs; a++) {
      ir_buf_printf(b, "%s%s=", a ? ", " : "", n->op->attr_names[a]);
      const ir_attr *v = &n->attrs[a];
      if (v->n < 0) { /* an attribute variable of a rewrite rule */
        ir_buf_printf(b, "$%d", v->v[0]);
        continue;
      }
      if (n->op->attr_enum[a] && v->n == 1) {
        ir_buf_printf(b, "%s", n->op->attr_enum[a][v->v[0]]);
        continue;
      }
      ir_buf_printf(b, "(");
      for (int i = 0; i < v->n; i++) ir_buf_printf(b, "%s%d", i ? "," : "", v->v[i]);
      ir_buf_printf(b, ")");
    }
    ir_buf_printf(b, "]");
  }
  ir_buf_printf(b, "(");
  for (int i = 0; i < n->nops; i++) {
    if (i) ir_buf_printf(b, ", ");
    print_node(b, n->ops[i], k);
  }
  ir_buf_printf(b, ")");
  print_type_suffix(b, n, k);
}

void ir_tp_print(const ir_tnode *n, const ir_kernel *k, FILE *out) {
  ir_buf b = {0};
  print_node(&b, n, k);
  fputs(ir_buf_str(&b), out);
  ir_buf_free(&b);
}

void ir_tp_buf(ir_buf *b, const ir_tnode *t, const ir_kernel *k) { print_node(b, t, k); }

char *ir_tp_str(const ir_tnode *t, const ir_kernel *k, char *buf, size_t n) {
  ir_buf b = {0};
  print_node(&b, t, k);
  if (n) snprintf(buf, n, "%s", ir_buf_str(&b));
  ir_buf_free(&b);
  return buf;
}

/* --------------------------------------------------------------- walking */

static int topo(const ir_tnode *n, const ir_tnode **out, int *count, int cap) {
  for (int i = 0; i < *count; i++)
    if (out[i] == n) return 0;
  if (n->kind == IR_TN_OP)
    for (int i = 0; i < n->nops; i++)
      if (topo(n->ops[i], out, count, cap)) return -1;
  if (*count == cap) return -1;
  out[(*count)++] = n;
  return 0;
}

int ir_tp_topo(const ir_tnode *const *roots, int nroots, const ir_tnode **out,
               int cap) {
  int count = 0;
  for (int r = 0; r < nroots; r++)
    if (topo(roots[r], out, &count, cap)) return -1;
  return count;
}

long ir_tloop_trips(const ir_tloop *loop, const long *sizes) {
  long n = ir_expr_eval_int(loop->hi, sizes) - ir_expr_eval_int(loop->lo, sizes) + 1;
  return n > 0 ? n : 0;
}

long ir_tloop_iter_value(const ir_tloop *loop, const long *sizes, long t) {
  return loop->down ? ir_expr_eval_int(loop->hi, sizes) - t : ir_expr_eval_int(loop->lo, sizes) + t;
}

const ir_tslice *ir_tloop_slice(const ir_tloop *loop, int v) {
  for (int i = 0; loop && i < loop->nslices; i++)
    if (loop->slices[i].var == v) return &loop->slices[i];
  return NULL;
}

int ir_tp_has_attr_var(const ir_tnode *n) {
  if (n->kind != IR_TN_OP) return 0;
  for (int a = 0; a < n->op->nattrs; a++)
    if (n->attrs[a].n < 0) return 1;
  for (int i = 0; i < n->nops; i++)
    if (ir_tp_has_attr_var(n->ops[i])) return 1;
  return 0;
}
