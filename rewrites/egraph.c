/*
 * egraph.c - an e-graph with equality saturation (rewrites.h, rw_egraph_*),
 * used to decide whether a candidate rule follows from the rules accepted
 * so far, the way Ruler measures derivability.
 *
 * E-nodes live in one flat array: a leaf (an argument, constant or mask
 * node of the hash-consed term store) or an op with its attributes, result
 * type and operand e-classes.  E-classes are a union-find over node
 * numbers (a class is named by the node that created it).  A hash table
 * of canonical nodes (operands replaced by their class roots) makes equal
 * nodes one node: adding a node that is there returns its class.  Unions
 * can make two nodes equal (congruence); rw_egraph_rebuild re-canonicalizes
 * every node, merging the classes of nodes that became equal, until
 * nothing changes.
 *
 * Saturation matches each rule's left side against every class (argument
 * leaves of a rule are pattern variables matching any class of their
 * element type and rank, renaming size symbols consistently, as
 * rw_normalize does), adds the instantiated right side and merges it with
 * the matched class, then rebuilds; it stops when an iteration changes
 * nothing, when the goal classes meet, or at a node or iteration limit: a
 * count, not a time, so the answer does not depend on the machine.
 */
#include <stdint.h>
#include <string.h>

#include "rewrites/internal.h"

typedef struct enode {
  const ir_tnode *leaf; /* argument, constant or mask; NULL for an op */
  const ir_tp_opdesc *op;
  const ir_attr *attrs; /* IR_TP_MAX_ATTRS of them (lives with a term) */
  ir_type type;
  int nops;
  int ops[IR_TP_MAX_OPERANDS]; /* operand classes */
  int dead;                    /* a duplicate removed by rebuild */
  int folded;                  /* handed to the folder already */
} enode;

struct rw_egraph {
  ir_tp_store *store;
  enode *nodes;
  int *parent; /* union-find by node number */
  int n, cap;
  int *tab; /* hash table of node numbers (-1 empty), cap2 slots */
  size_t cap2;
  long limit;
  const rw_folder *fold;
  const ir_tnode **ground; /* by node: the ground term it stands for
                            * (constant leaves, and op nodes over ground
                            * classes once fold_pass saw them), or NULL */
  /* class lists of the last rebuild: members of root c are
   * members[start[c] .. start[c + 1] - 1] */
  int *start, *members;
};

rw_egraph *rw_egraph_new(ir_tp_store *store, long node_limit) {
  rw_egraph *g = ir_calloc(1, sizeof *g);
  g->store = store;
  g->limit = node_limit;
  g->cap2 = 64;
  g->tab = ir_malloc(g->cap2 * sizeof(int));
  memset(g->tab, -1, g->cap2 * sizeof(int));
  return g;
}

void rw_egraph_set_folder(rw_egraph *g, const rw_folder *f) { g->fold = f; }

void rw_egraph_free(rw_egraph *g) {
  if (!g) return;
  ir_free(g->nodes);
  ir_free(g->parent);
  ir_free(g->ground);
  ir_free(g->tab);
  ir_free(g->start);
  ir_free(g->members);
  ir_free(g);
}

int rw_egraph_find(rw_egraph *g, int c) {
  while (g->parent[c] != c) {
    g->parent[c] = g->parent[g->parent[c]];
    c = g->parent[c];
  }
  return c;
}

int rw_egraph_union(rw_egraph *g, int a, int b) {
  a = rw_egraph_find(g, a);
  b = rw_egraph_find(g, b);
  if (a == b) return 0;
  if (b < a) { /* the older node names the class: a fixed choice */
    int t = a;
    a = b;
    b = t;
  }
  g->parent[b] = a;
  return 1;
}

long rw_egraph_size(const rw_egraph *g) { return g->n; }

/* ------------------------------------------------------- the hash table */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t node_hash(rw_egraph *g, const enode *e) {
  uint64_t h = mix((uint64_t)(uintptr_t)e->leaf, (uint64_t)(uintptr_t)e->op);
  if (e->leaf) return h;
  const unsigned char *a = (const unsigned char *)e->attrs;
  for (size_t i = 0; i < sizeof(ir_attr) * IR_TP_MAX_ATTRS; i++) h = mix(h, a[i]);
  h = mix(h, (uint64_t)e->type.elem * 131u + (uint64_t)e->type.rank);
  for (int d = 0; d < e->type.rank; d++) h = mix(h, (uint64_t)(e->type.dims[d] + 7));
  for (int i = 0; i < e->nops; i++) h = mix(h, (uint64_t)rw_egraph_find(g, e->ops[i]));
  return h;
}

/* Are a and b the same node, operands compared by class? */
static int node_equal(rw_egraph *g, const enode *a, const enode *b) {
  if (a->leaf || b->leaf) return a->leaf == b->leaf;
  if (a->op != b->op || a->nops != b->nops || !ir_type_equal(&a->type, &b->type) ||
      memcmp(a->attrs, b->attrs, sizeof(ir_attr) * IR_TP_MAX_ATTRS))
    return 0;
  for (int i = 0; i < a->nops; i++)
    if (rw_egraph_find(g, a->ops[i]) != rw_egraph_find(g, b->ops[i])) return 0;
  return 1;
}

/* The slot of e in the table: where a node equal to it is, or the empty
 * slot where it would go. */
static size_t slot(rw_egraph *g, const enode *e) {
  size_t i = (size_t)node_hash(g, e) & (g->cap2 - 1);
  while (g->tab[i] >= 0 && !node_equal(g, &g->nodes[g->tab[i]], e)) i = (i + 1) & (g->cap2 - 1);
  return i;
}

static void table_clear(rw_egraph *g, size_t want) {
  if (want > g->cap2) {
    while (g->cap2 < want) g->cap2 *= 2;
    ir_free(g->tab);
    g->tab = ir_malloc(g->cap2 * sizeof(int));
  }
  memset(g->tab, -1, g->cap2 * sizeof(int));
}

/* Insert node number i (not there); grows the table past half full. */
static void table_put(rw_egraph *g, int i) {
  if ((size_t)g->n * 2 >= g->cap2) { /* grow: re-insert every live node */
    table_clear(g, g->cap2 * 2);
    for (int j = 0; j < g->n; j++)
      if (!g->nodes[j].dead && j != i) g->tab[slot(g, &g->nodes[j])] = j;
  }
  g->tab[slot(g, &g->nodes[i])] = i;
}

/* ------------------------------------------------------------- adding */

/* The class of e: the class of an equal node, or a new node's class. */
static int add_node(rw_egraph *g, const enode *e) {
  size_t s = slot(g, e);
  if (g->tab[s] >= 0) return rw_egraph_find(g, g->tab[s]);
  if (g->n == g->cap) {
    g->cap = g->cap ? g->cap * 2 : 64;
    g->nodes = ir_realloc(g->nodes, sizeof(enode) * (size_t)g->cap);
    g->parent = ir_realloc(g->parent, sizeof(int) * (size_t)g->cap);
    g->ground = ir_realloc(g->ground, sizeof(g->ground[0]) * (size_t)g->cap);
  }
  int i = g->n++;
  g->nodes[i] = *e;
  g->parent[i] = i;
  g->ground[i] = e->leaf && e->leaf->kind == IR_TN_CONST ? e->leaf : NULL;
  table_put(g, i);
  return i;
}

int rw_egraph_add(rw_egraph *g, const ir_tnode *t) {
  enode e;
  memset(&e, 0, sizeof e);
  e.type = t->type;
  if (t->kind != IR_TN_OP) {
    e.leaf = t;
    return add_node(g, &e);
  }
  e.op = t->op;
  e.attrs = t->attrs;
  e.nops = t->nops;
  for (int i = 0; i < t->nops; i++) e.ops[i] = rw_egraph_add(g, t->ops[i]);
  return add_node(g, &e);
}

/* ------------------------------------------------------------- rebuild */

/* Fill the class lists (start, members) of the live nodes. */
static void class_lists(rw_egraph *g) {
  g->start = ir_realloc(g->start, sizeof(int) * (size_t)(g->n + 1));
  g->members = ir_realloc(g->members, sizeof(int) * (size_t)(g->n + 1));
  memset(g->start, 0, sizeof(int) * (size_t)(g->n + 1));
  for (int i = 0; i < g->n; i++)
    if (!g->nodes[i].dead) g->start[rw_egraph_find(g, i) + 1]++;
  for (int c = 0; c < g->n; c++) g->start[c + 1] += g->start[c];
  int *fill = ir_calloc((size_t)g->n + 1, sizeof(int));
  for (int i = 0; i < g->n; i++)
    if (!g->nodes[i].dead) {
      int c = rw_egraph_find(g, i);
      g->members[g->start[c] + fill[c]++] = i;
    }
  ir_free(fill);
}

int rw_egraph_rebuild(rw_egraph *g) {
  int merged = 0, again = 1;
  while (again) {
    again = 0;
    table_clear(g, (size_t)g->n * 2 + 2);
    for (int i = 0; i < g->n; i++) {
      enode *e = &g->nodes[i];
      if (e->dead) continue;
      for (int j = 0; j < e->nops; j++) e->ops[j] = rw_egraph_find(g, e->ops[j]);
      size_t s = slot(g, e);
      if (g->tab[s] < 0) {
        g->tab[s] = i;
        continue;
      }
      /* congruence: an equal node is there; one node is enough */
      if (rw_egraph_union(g, g->tab[s], i)) again = merged = 1;
      e->dead = 1;
    }
  }
  class_lists(g);
  return merged;
}

/* ------------------------------------------------------------ matching */

typedef struct esubst {
  int var[RW_MAXSYM]; /* class of each pattern variable (arg number), -1 */
  int dim[RW_MAXSYM]; /* size symbol map, -2: unset */
  ir_type shape;      /* a shape-generic rule: the dims its nodes of rank
                       * above 0 take (shape.rank < 0: unset) */
  ir_attr attr;       /* the value of the rule's attribute variable
                       * (attr.n < 0: unset) */
} esubst;

/* Do pattern attributes p match node attributes e under s (extended:
 * an attribute variable, n < 0, binds the value it meets)? */
static int match_attrs(esubst *s, const ir_attr *p, const ir_attr *e) {
  for (int a = 0; a < IR_TP_MAX_ATTRS; a++) {
    if (p[a].n >= 0) {
      if (memcmp(&p[a], &e[a], sizeof *p)) return 0;
      continue;
    }
    if (s->attr.n < 0) s->attr = e[a];
    else if (memcmp(&s->attr, &e[a], sizeof *p)) return 0;
  }
  return 1;
}

#define MAXPEND 64 /* pattern nodes pending in one match */

typedef struct matcher {
  rw_egraph *g;
  const rw_rule *rule;
  int generic;  /* the rule holds at every shape (gram_rule_shape_generic) */
  int root;     /* the class the lhs matched */
  int changed;  /* a node was added or classes merged */
} matcher;

/* Does pattern type p match class type t under s (extended)?  A
 * shape-generic rule's node matches a node of its element type at any
 * shape its other nodes of rank above 0 take too (rank 0 at rank 0). */
static int match_type(const matcher *m, esubst *s, const ir_type *p, const ir_type *t) {
  if (!m->generic) return rw_match_type(s->dim, p, t);
  if (p->elem != t->elem) return 0;
  if (!p->rank) return !t->rank;
  if (!t->rank) return 0;
  if (s->shape.rank < 0) {
    s->shape = *t;
    return 1;
  }
  if (s->shape.rank != t->rank) return 0;
  for (int d = 0; d < t->rank; d++)
    if (s->shape.dims[d] != t->dims[d]) return 0;
  return 1;
}

/* The type of rhs node type p instantiated under s. */
static ir_type inst_type(const matcher *m, const esubst *s, const ir_type *p) {
  if (!m->generic) return rw_map_type(s->dim, p);
  if (!p->rank) return *p;
  ir_type t = s->shape;
  t.elem = p->elem;
  return t;
}

/* The class of rhs pattern n instantiated with s (new nodes added). */
static int instantiate(matcher *m, const esubst *s, const ir_tnode *n) {
  rw_egraph *g = m->g;
  ir_type ty = inst_type(m, s, &n->type);
  enode e;
  memset(&e, 0, sizeof e);
  e.type = ty;
  switch (n->kind) {
  case IR_TN_ARG:
    if (n->arg >= 0 && n->arg < RW_MAXSYM && s->var[n->arg] >= 0) return s->var[n->arg];
    e.leaf = n;
    break;
  case IR_TN_CONST: e.leaf = ir_tp_const(g->store, n->value, &ty); break;
  case IR_TN_MASK: e.leaf = n; break;
  case IR_TN_OP:
    e.op = n->op;
    e.attrs = n->attrs;
    for (int a = 0; a < IR_TP_MAX_ATTRS; a++)
      if (n->attrs[a].n < 0) { /* the variable's value, in attributes that
                                * live with a term (hash-consed: one per
                                * rule node and value) */
        ir_attr at[IR_TP_MAX_ATTRS];
        memcpy(at, n->attrs, sizeof at);
        for (int b = a; b < IR_TP_MAX_ATTRS; b++)
          if (at[b].n < 0) at[b] = s->attr;
        e.attrs = ir_tp_op(g->store, n->op, at, n->ops, n->nops, &n->type)->attrs;
        break;
      }
    e.nops = n->nops;
    for (int i = 0; i < n->nops; i++) e.ops[i] = instantiate(m, s, n->ops[i]);
    break;
  }
  int before = g->n, c = add_node(g, &e);
  if (g->n != before) m->changed = 1;
  return c;
}

/* Match the pending pattern nodes ps[0..np-1] against classes cs[..]
 * (the last first), extending s; at every full match, add the rule's rhs
 * and merge it with m->root. */
static void ematch(matcher *m, const ir_tnode *const *ps, const int *cs, int np,
                   const esubst *s0) {
  rw_egraph *g = m->g;
  if (g->n > g->limit) return;
  if (!np) {
    int c = instantiate(m, s0, m->rule->rhs);
    if (rw_egraph_union(g, m->root, c)) m->changed = 1;
    return;
  }
  const ir_tnode *p = ps[np - 1];
  int c = rw_egraph_find(g, cs[np - 1]);
  esubst s = *s0;
  /* the class's type is its first member's */
  if (!match_type(m, &s, &p->type, &g->nodes[g->members[g->start[c]]].type)) return;
  if (p->kind == IR_TN_ARG) {
    if (p->arg < 0 || p->arg >= RW_MAXSYM) return;
    if (s.var[p->arg] >= 0 && rw_egraph_find(g, s.var[p->arg]) != c) return;
    s.var[p->arg] = c;
    ematch(m, ps, cs, np - 1, &s);
    return;
  }
  for (int k = g->start[c]; k < g->start[c + 1]; k++) {
    const enode *e = &g->nodes[g->members[k]];
    if (p->kind != IR_TN_OP) {
      /* a constant or mask: the same value (its type matched above) */
      if (e->leaf && e->leaf->kind == p->kind &&
          (p->kind == IR_TN_CONST ? e->leaf->value == p->value : e->leaf == p)) {
        ematch(m, ps, cs, np - 1, &s);
        return;
      }
      continue;
    }
    esubst s2 = s;
    if (e->leaf || e->op != p->op || e->nops != p->nops || !match_attrs(&s2, p->attrs, e->attrs) ||
        np - 1 + p->nops > MAXPEND)
      continue;
    const ir_tnode *ps2[MAXPEND];
    int cs2[MAXPEND];
    memcpy(ps2, ps, sizeof(ps[0]) * (size_t)(np - 1));
    memcpy(cs2, cs, sizeof(cs[0]) * (size_t)(np - 1));
    for (int i = 0; i < p->nops; i++) {
      ps2[np - 1 + i] = p->ops[i];
      cs2[np - 1 + i] = e->ops[i];
    }
    ematch(m, ps2, cs2, np - 1 + p->nops, &s2);
  }
}

/* A ground term of class c, or NULL (class lists current). */
static const ir_tnode *class_ground(rw_egraph *g, int c) {
  c = rw_egraph_find(g, c);
  for (int k = g->start[c]; k < g->start[c + 1]; k++)
    if (g->ground[g->members[k]]) return g->ground[g->members[k]];
  return NULL;
}

/* Ground folding: every op node not tried yet whose operand classes hold
 * ground terms (no argument) stands for the ground term of its op over
 * them; it goes to the folder once, and a term the folder gives (a
 * constant, or another ground term of the same value) joins the node's
 * class.  Returns 1 if classes merged (rebuild before matching). */
static int fold_pass(rw_egraph *g) {
  int merged = 0, n = g->n;
  for (int i = 0; i < n && g->n <= g->limit; i++) {
    enode *e = &g->nodes[i];
    if (e->dead || e->leaf || e->folded) continue;
    const ir_tnode *ops[IR_TP_MAX_OPERANDS];
    int k = 0;
    while (k < e->nops && (ops[k] = class_ground(g, e->ops[k]))) k++;
    if (k < e->nops) continue;
    e->folded = 1;
    ir_type ty = e->type;
    const ir_tnode *t = ir_tp_op(g->store, e->op, e->attrs, ops, e->nops, &ty);
    g->ground[i] = t;
    const ir_tnode *v = g->fold->fn(g->fold->user, t);
    if (v) merged |= rw_egraph_union(g, i, rw_egraph_add(g, v));
  }
  return merged;
}

/* Fold until nothing more folds (each node goes to the folder once). */
static void fold_all(rw_egraph *g) {
  while (g->fold && g->n <= g->limit && fold_pass(g)) rw_egraph_rebuild(g);
}

/* The iterations of rw_egraph_saturate, generic[r] saying whether rule r
 * is shape-generic (worked out once per saturation, not per
 * iteration). */
static int saturate(rw_egraph *g, const rw_rule *rules, const unsigned char *generic, int nr,
                    int max_iters, int goal_a, int goal_b) {
  for (int it = 0; it < max_iters; it++) {
    fold_all(g);
    if (goal_a >= 0 && rw_egraph_find(g, goal_a) == rw_egraph_find(g, goal_b)) return 0;
    int changed = 0, roots = 0;
    for (int c = 0; c < g->n; c++) roots += g->start[c + 1] > g->start[c];
    int *rootv = ir_malloc(sizeof(int) * (size_t)(roots + 1));
    roots = 0;
    for (int c = 0; c < g->n; c++)
      if (g->start[c + 1] > g->start[c]) rootv[roots++] = c;
    for (int r = 0; r < nr && g->n <= g->limit; r++) {
      for (int k = 0; k < roots && g->n <= g->limit; k++) {
        matcher m = {g, &rules[r], generic[r], rootv[k], 0};
        esubst s;
        for (int i = 0; i < RW_MAXSYM; i++) s.var[i] = -1, s.dim[i] = -2;
        s.shape.rank = -1;
        s.attr.n = -1;
        const ir_tnode *p = rules[r].lhs;
        ematch(&m, &p, &rootv[k], 1, &s);
        changed |= m.changed;
      }
    }
    ir_free(rootv);
    changed |= rw_egraph_rebuild(g);
    if (g->n > g->limit) return 1;
    if (!changed) return 0;
  }
  fold_all(g);
  if (goal_a >= 0 && rw_egraph_find(g, goal_a) == rw_egraph_find(g, goal_b)) return 0;
  return 1;
}

int rw_egraph_saturate(rw_egraph *g, const rw_rule *rules, int nr, int max_iters, int goal_a,
                       int goal_b) {
  rw_egraph_rebuild(g);
  unsigned char *generic = ir_malloc((size_t)nr + 1);
  for (int r = 0; r < nr; r++)
    generic[r] = (unsigned char)gram_rule_shape_generic(rules[r].lhs, rules[r].rhs);
  int rc = saturate(g, rules, generic, nr, max_iters, goal_a, goal_b);
  ir_free(generic);
  return rc;
}

int rw_vars_within(const ir_tnode *a, const ir_tnode *b) {
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
    if (!rw_vars_within(a, b->ops[i])) return 0;
  return 1;
}


int rw_derivable(ir_tp_store *store, const rw_rule *rules, int nr, const ir_tnode *a,
                 const ir_tnode *b, const rw_folder *fold, int both) {
  if (a == b) return 1;
  /* left to right first: the rules applied both ways grow the e-graph
   * faster, so it may reach its node limit before the classes meet */
  if (both && rw_derivable(store, rules, nr, a, b, fold, 0)) return 1;
  /* every rule is an equality: with both, applied right to left too,
   * where its rhs is an op and binds every variable of its lhs */
  rw_rule *all = both ? ir_malloc(sizeof(rw_rule) * (size_t)(2 * nr + 1)) : NULL;
  int nb = 0;
  for (int i = 0; i < nr && both; i++) all[nb++] = rules[i];
  for (int i = 0; i < nr && both; i++)
    if (rules[i].rhs->kind == IR_TN_OP && rw_vars_within(rules[i].rhs, rules[i].lhs) &&
        (!ir_tp_has_attr_var(rules[i].lhs) || ir_tp_has_attr_var(rules[i].rhs))) {
      all[nb] = rules[i];
      all[nb].lhs = rules[i].rhs;
      all[nb++].rhs = rules[i].lhs;
    }
  rw_egraph *g = rw_egraph_new(store, RW_EGRAPH_NODES);
  rw_egraph_set_folder(g, fold);
  int ca = rw_egraph_add(g, a), cb = rw_egraph_add(g, b);
  rw_egraph_saturate(g, both ? all : rules, both ? nb : nr, RW_EGRAPH_ITERS, ca, cb);
  int same = rw_egraph_find(g, ca) == rw_egraph_find(g, cb);
  rw_egraph_free(g);
  ir_free(all);
  return same;
}
