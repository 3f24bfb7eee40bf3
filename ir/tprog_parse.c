/*
 * tprog_parse.c - read the term text ir_tp_print writes back into a
 * hash-consed node, so that a saved report (uplift raise --json) can be
 * re-checked (uplift verify) and tests can round-trip programs.
 *
 * A recursive-descent parser over the text, one function per rule:
 *
 *   term   := op | leaf
 *   op     := NAME [ '[' attr { ',' attr } ']' ] '(' [ term { ',' term } ] ')' [ ':' type ]
 *   attr   := NAME '=' ( '(' [ INT { ',' INT } ] ')' | NAME )
 *   leaf   := NUMBER [ ':' type ] | 'mask' '[' con { ',' con } ']' [ ':' type ] | NAME
 *   con    := lin ( '>=' | '==' ) '0'
 *   lin    := [sign] lterm { sign lterm }
 *   lterm  := INT [ '*' ( 'i'N | SYM ) ] | 'i'N | SYM
 *   type   := ELEM '[' [ dim { ',' dim } ] ']'       (dim: 1, SYM or dN)
 *
 * ir/ knows no dialect: op names, enum attribute values and result types
 * come from the caller's ir_tp_syntax callbacks (grammar/ provides them).
 * Every node is made with the store's constructors, so an equal term gives
 * the same pointer.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/tprog.h"

/* Limits on what program text may say: integers and mask coefficients
 * (ints, multiplied by sizes when a mask is evaluated), and dN symbols
 * when no kernel names the sizes. */
#define TP_INT_LIMIT (1L << 30)
#define TP_MAX_DSYM 4096

typedef struct parser {
  const char *text, *p;
  ir_tp_store *s;
  const ir_kernel *k;
  const ir_tnode *const *leaves;
  int nleaves;
  const ir_tp_syntax *syn;
  ir_error *err;
  int failed;
  int depth;
} parser;

static void fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(parser *ps, const char *fmt, ...) {
  if (ps->failed) return;
  ps->failed = 1;
  char what[sizeof ps->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  ir_pos nowhere = {0};
  ir_error_set(ps->err, nowhere, IR_ERR_INPUT, "column %d: %s", (int)(ps->p - ps->text) + 1, what);
}

static void skip_ws(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static int accept(parser *ps, char c) {
  skip_ws(ps);
  if (*ps->p != c) return 0;
  ps->p++;
  return 1;
}

static int expect(parser *ps, char c) {
  if (accept(ps, c)) return 0;
  fail(ps, "expected '%c'", c);
  return -1;
}

static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

/* NAME: [A-Za-z_][A-Za-z0-9_.]*, copied into buf; 0 or -1. */
static int ident(parser *ps, char *buf, size_t n) {
  skip_ws(ps);
  const char *b = ps->p;
  if (!isalpha((unsigned char)*b) && *b != '_') {
    fail(ps, "expected a name");
    return -1;
  }
  while (is_ident(*ps->p)) ps->p++;
  size_t len = (size_t)(ps->p - b);
  if (len >= n) {
    fail(ps, "name too long");
    return -1;
  }
  memcpy(buf, b, len);
  buf[len] = 0;
  return 0;
}

/* INT with an optional sign (spaces allowed after the sign). */
static int integer(parser *ps, long *v) {
  skip_ws(ps);
  int neg = 0;
  if (*ps->p == '+' || *ps->p == '-') {
    neg = *ps->p == '-';
    ps->p++;
    skip_ws(ps);
  }
  if (!isdigit((unsigned char)*ps->p)) {
    fail(ps, "expected an integer");
    return -1;
  }
  char *end;
  errno = 0;
  long x = strtol(ps->p, &end, 10);
  if (errno == ERANGE || x > TP_INT_LIMIT) {
    fail(ps, "integer out of range (limit %ld)", (long)TP_INT_LIMIT);
    return -1;
  }
  ps->p = end;
  *v = neg ? -x : x;
  return 0;
}

/* *acc += v, kept within +-TP_INT_LIMIT (the mask's coefficients are ints
 * and evaluation multiplies them by sizes); 0 or -1 with an error. */
static int add_checked(parser *ps, int *acc, long v) {
  long r = (long)*acc + v;
  if (r > TP_INT_LIMIT || r < -TP_INT_LIMIT) {
    fail(ps, "coefficient out of range (limit %ld)", (long)TP_INT_LIMIT);
    return -1;
  }
  *acc = (int)r;
  return 0;
}

/* A size symbol: a size parameter of the kernel, or dN: with a kernel,
 * variable N must be one of its size parameters (the form ir_tp_print
 * writes for a size without a name); without one, N < TP_MAX_DSYM. */
static int size_symbol(parser *ps, const char *name) {
  if (ps->k) {
    int v = ir_kernel_find_var(ps->k, name);
    if (v >= 0 && ps->k->vars[v]->kind == IR_VAR_SIZE) return v;
  }
  if (name[0] == 'd' && isdigit((unsigned char)name[1])) {
    char *end;
    errno = 0;
    long v = strtol(name + 1, &end, 10);
    if (*end || errno == ERANGE || v < 0) return -1;
    if (ps->k) return v < ps->k->nvars && ps->k->vars[v]->kind == IR_VAR_SIZE ? (int)v : -1;
    return v < TP_MAX_DSYM ? (int)v : -1;
  }
  return -1;
}

/* type := ELEM '[' [dim {',' dim}] ']' */
static int parse_type(parser *ps, ir_type *t) {
  char name[64];
  const char *at = ps->p;
  if (ident(ps, name, sizeof name)) return -1;
  memset(t, 0, sizeof *t);
  int found = 0;
  for (int e = 0; e < IR_ELEM_COUNT; e++)
    if (!strcmp(name, ir_elem_mlir_name((ir_elem)e))) t->elem = (ir_elem)e, found = 1;
  if (!found) {
    ps->p = at;
    fail(ps, "expected an element type (f64, f32, i64, i32, i16, i8, i1, ui64, ui32, ui16, ui8), not '%s'",
         name);
    return -1;
  }
  if (expect(ps, '[')) return -1;
  if (accept(ps, ']')) return 0;
  do {
    if (t->rank == IR_MAX_RANK) {
      fail(ps, "more than %d dims", IR_MAX_RANK);
      return -1;
    }
    skip_ws(ps);
    if (*ps->p == '1' && !is_ident(ps->p[1])) {
      ps->p++;
      t->dims[t->rank++] = IR_DIM_ONE;
      continue;
    }
    at = ps->p;
    if (ident(ps, name, sizeof name)) return -1;
    int sym = size_symbol(ps, name);
    if (sym < 0) {
      ps->p = at;
      fail(ps, "'%s' is not a size parameter of the kernel", name);
      return -1;
    }
    t->dims[t->rank++] = sym;
  } while (accept(ps, ','));
  return expect(ps, ']');
}

/* An optional ':' type suffix; returns 1 if present (t filled), 0 if not,
 * -1 on error. */
static int type_suffix(parser *ps, ir_type *t) {
  if (!accept(ps, ':')) return 0;
  return parse_type(ps, t) ? -1 : 1;
}

/* con := lin ('>=' | '==') '0' */
static int parse_con(parser *ps, ir_mask_con *c) {
  memset(c, 0, sizeof *c);
  int nsym = 0, first = 1;
  for (;;) {
    skip_ws(ps);
    if (*ps->p == '>' || *ps->p == '=') break;
    long sign = 1;
    if (*ps->p == '+' || *ps->p == '-') {
      sign = *ps->p == '-' ? -1 : 1;
      ps->p++;
      skip_ws(ps);
    } else if (!first) {
      fail(ps, "expected '+', '-', '>=' or '=='");
      return -1;
    }
    first = 0;
    long coef = 1;
    if (isdigit((unsigned char)*ps->p)) {
      if (integer(ps, &coef)) return -1;
      if (!accept(ps, '*')) {
        if (add_checked(ps, &c->c, sign * coef)) return -1;
        continue;
      }
      skip_ws(ps);
    }
    char name[64];
    const char *at = ps->p;
    if (ident(ps, name, sizeof name)) return -1;
    coef *= sign;
    char *end;
    if (name[0] == 'i' && isdigit((unsigned char)name[1]) &&
        (strtol(name + 1, &end, 10), !*end)) {
      long d = strtol(name + 1, NULL, 10);
      if (d >= IR_MAX_RANK) {
        ps->p = at;
        fail(ps, "index i%ld beyond rank %d", d, IR_MAX_RANK);
        return -1;
      }
      if (add_checked(ps, &c->coef[d], coef)) return -1;
      continue;
    }
    int sym = size_symbol(ps, name);
    if (sym < 0) {
      ps->p = at;
      fail(ps, "'%s' is neither an index (i0, i1, ...) nor a size parameter", name);
      return -1;
    }
    int merged = 0;
    for (int q = 0; q < nsym && !merged; q++)
      if (c->sym[q] == sym) {
        if (add_checked(ps, &c->pcoef[q], coef)) return -1;
        merged = 1;
      }
    if (merged) continue;
    if (nsym == IR_MASK_MAX_SYMS) {
      ps->p = at;
      fail(ps, "more than %d size parameters in one constraint", IR_MASK_MAX_SYMS);
      return -1;
    }
    c->sym[nsym] = sym;
    c->pcoef[nsym] = 0;
    if (add_checked(ps, &c->pcoef[nsym++], coef)) return -1;
  }
  if (ps->p[0] == '>' && ps->p[1] == '=') c->eq = 0;
  else if (ps->p[0] == '=' && ps->p[1] == '=') c->eq = 1;
  else {
    fail(ps, "expected '>=' or '=='");
    return -1;
  }
  ps->p += 2;
  long zero;
  if (integer(ps, &zero)) return -1;
  if (zero != 0) {
    fail(ps, "a constraint ends in '>= 0' or '== 0'");
    return -1;
  }
  return 0;
}

static const ir_tnode *parse_term(parser *ps);

/* leaf: 'mask' '[' con {',' con} ']' [':' type] (the name is read) */
static const ir_tnode *parse_mask(parser *ps) {
  ir_mask m;
  memset(&m, 0, sizeof m);
  if (expect(ps, '[')) return NULL;
  do {
    if (m.ncons == IR_MASK_MAX_CONS) {
      fail(ps, "more than %d mask constraints", IR_MASK_MAX_CONS);
      return NULL;
    }
    if (parse_con(ps, &m.cons[m.ncons++])) return NULL;
  } while (accept(ps, ','));
  if (expect(ps, ']')) return NULL;
  ir_type t;
  int r = type_suffix(ps, &t);
  if (r < 0) return NULL;
  if (r == 0) {
    fail(ps, "a mask needs its type (mask[...]:i1[m,n])");
    return NULL;
  }
  if (t.elem != IR_I1) {
    fail(ps, "a mask is an i1 tensor");
    return NULL;
  }
  return ir_tp_mask(ps->s, &m, &t);
}

/* leaf: NUMBER [':' type] */
static const ir_tnode *parse_number(parser *ps) {
  skip_ws(ps);
  const char *at = ps->p;
  char *end;
  errno = 0;
  double v = strtod(ps->p, &end);
  if (end == ps->p) {
    fail(ps, "expected a number");
    return NULL;
  }
  /* "inf" is what ir_tp_print writes for an infinite constant (a max
   * reduction's init); a number beyond a double's range is not one. */
  if (isnan(v) || (errno == ERANGE && v != 0) || (isinf(v) && isdigit((unsigned char)end[-1]))) {
    ps->p = at;
    fail(ps, "a constant must be a number that a double holds, or inf");
    return NULL;
  }
  ps->p = end;
  ir_type t;
  int r = type_suffix(ps, &t);
  if (r < 0) return NULL;
  if (r == 0) {
    memset(&t, 0, sizeof t);
    t.elem = ps->k ? ps->k->data_type : IR_F64;
  }
  return ir_tp_const(ps->s, v, &t);
}

/* op (the name is read and resolved) */
static const ir_tnode *parse_op(parser *ps, const ir_tp_opdesc *op, const char *at) {
  ir_attr attrs[IR_TP_MAX_ATTRS];
  int seen[IR_TP_MAX_ATTRS] = {0};
  memset(attrs, 0, sizeof attrs);
  if (accept(ps, '[')) {
    do {
      char name[64];
      const char *aat = ps->p;
      if (ident(ps, name, sizeof name)) return NULL;
      int a = -1;
      for (int i = 0; i < op->nattrs; i++)
        if (!strcmp(op->attr_names[i], name)) a = i;
      if (a < 0 || seen[a]) {
        ps->p = aat;
        fail(ps, a < 0 ? "%s has no attribute '%s'" : "%s: attribute '%s' given twice",
             op->name, name);
        return NULL;
      }
      seen[a] = 1;
      if (expect(ps, '=')) return NULL;
      if (accept(ps, '(')) {
        if (!accept(ps, ')')) {
          do {
            long v;
            if (attrs[a].n == IR_TP_MAX_ATTR_LEN) {
              fail(ps, "attribute value longer than %d", IR_TP_MAX_ATTR_LEN);
              return NULL;
            }
            if (integer(ps, &v)) return NULL;
            if (v < -128 || v > 127) {
              fail(ps, "attribute value %ld out of range", v);
              return NULL;
            }
            attrs[a].v[attrs[a].n++] = (int8_t)v;
          } while (accept(ps, ','));
          if (expect(ps, ')')) return NULL;
        }
      } else {
        const char *vat = ps->p;
        char val[64];
        if (ident(ps, val, sizeof val)) return NULL;
        int e = ps->syn->enum_value ? ps->syn->enum_value(ps->syn->user, op, a, val) : -1;
        if (e < 0) {
          ps->p = vat;
          fail(ps, "'%s' is not a value of %s's attribute %s", val, op->name, name);
          return NULL;
        }
        attrs[a].n = 1;
        attrs[a].v[0] = (int8_t)e;
      }
    } while (accept(ps, ','));
    if (expect(ps, ']')) return NULL;
  }
  for (int a = 0; a < op->nattrs; a++)
    if (!seen[a]) {
      fail(ps, "%s needs its attribute %s", op->name, op->attr_names[a]);
      return NULL;
    }
  if (expect(ps, '(')) return NULL;
  const ir_tnode *ops[IR_TP_MAX_OPERANDS];
  int nops = 0;
  if (!accept(ps, ')')) {
    do {
      if (nops == IR_TP_MAX_OPERANDS) {
        fail(ps, "more than %d operands", IR_TP_MAX_OPERANDS);
        return NULL;
      }
      if (!(ops[nops++] = parse_term(ps))) return NULL;
    } while (accept(ps, ','));
    if (expect(ps, ')')) return NULL;
  }
  ir_type target, result;
  int r = type_suffix(ps, &target);
  if (r < 0) return NULL;
  ir_type tys[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < nops; i++) tys[i] = ops[i]->type;
  ir_attr canon[IR_TP_MAX_ATTRS];
  memcpy(canon, attrs, sizeof canon);
  ir_error why = {0};
  if (ps->syn->result_type(ps->syn->user, op, attrs, tys, nops, r ? &target : NULL, &result,
                           canon, &why)) {
    ps->p = at;
    fail(ps, "%s: %s", op->name, why.msg);
    return NULL;
  }
  if (r && !ir_type_equal(&result, &target)) {
    ps->p = at;
    fail(ps, "%s: the annotated type is not the op's result type", op->name);
    return NULL;
  }
  return ir_tp_op(ps->s, op, canon, ops, nops, &result);
}

/* term := op | leaf */
static const ir_tnode *parse_term(parser *ps) {
  if (++ps->depth > 200) {
    fail(ps, "term nested too deeply");
    return NULL;
  }
  skip_ws(ps);
  const ir_tnode *n = NULL;
  const char *at = ps->p;
  char c = *ps->p;
  if (isdigit((unsigned char)c) || c == '-' || c == '+' || c == '.') {
    n = parse_number(ps);
  } else if (isalpha((unsigned char)c) || c == '_') {
    char name[128];
    if (ident(ps, name, sizeof name)) return NULL;
    skip_ws(ps);
    const ir_tp_opdesc *op = (*ps->p == '(' || *ps->p == '[')
                                 ? ps->syn->find_op(ps->syn->user, name) : NULL;
    if (op) {
      n = parse_op(ps, op, at);
    } else if (!strcmp(name, "mask") && *ps->p == '[') {
      n = parse_mask(ps);
    } else if (*ps->p == '(' || *ps->p == '[') {
      ps->p = at;
      fail(ps, "unknown op '%s'", name);
    } else {
      for (int i = 0; i < ps->nleaves && !n; i++)
        if (ps->leaves[i]->kind == IR_TN_ARG && ps->leaves[i]->name &&
            !strcmp(ps->leaves[i]->name, name))
          n = ps->leaves[i];
      if (!n && (!strcmp(name, "inf") || !strcmp(name, "nan"))) {
        ps->p = at;
        n = parse_number(ps);
      } else if (!n) {
        ps->p = at;
        fail(ps, "'%s' is not an input of this program", name);
      }
    }
  } else {
    if (c) fail(ps, "unexpected '%c'", c);
    else fail(ps, "unexpected end of text");
  }
  ps->depth--;
  return ps->failed ? NULL : n;
}

const ir_tnode *ir_tp_parse(ir_tp_store *s, const char *text, const ir_kernel *k,
                            const ir_tnode *const *leaves, int nleaves,
                            const ir_tp_syntax *syn, ir_error *err) {
  parser ps = {text, text, s, k, leaves, nleaves, syn, err, 0, 0};
  ir_error_clear(err);
  const ir_tnode *n = parse_term(&ps);
  if (n) {
    skip_ws(&ps);
    if (*ps.p) {
      fail(&ps, "unexpected text after the term");
      n = NULL;
    }
  }
  return n;
}
