/*
 * parse.c - the dialect file parser (format: docs/dialects.md).
 *
 * The format is line-oriented: each line is one directive, `#` starts a
 * comment, and an op is the block between `op NAME` and `end`.  Each line is
 * split into tokens with their columns; template lines (`emit`, `constant`)
 * keep the rest of the line verbatim and are checked for known
 * placeholders.  Every mistake is reported with ir_diag_error at the
 * offending token and makes gram_parse return NULL (after the first error).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grammar/grammar.h"
#include "grammar/kernels.h"

/* ----------------------------------------------------------------- lexer */

#define MAX_TOK 96

typedef struct tok {
  const char *s; /* points into the line */
  int len;
  int col;       /* 1-based */
} tok;

typedef struct parser {
  ir_source src;
  ir_arena *arena;
  gram_dialect *d;
  gram_op *op;          /* the op being read, or NULL */
  int line;
  const char *text;     /* current line */
  int len;
  tok t[MAX_TOK];
  int nt;
  int failed;
  /* growable template lines of the current op */
  gram_line emit[64], emit_b[64], emit_d[64], emit_u[64], splat[64];
  gram_op *ops[256];
} parser;

static void error_at(parser *p, int col, const char *supported, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));
static void error_at(parser *p, int col, const char *supported, const char *fmt,
                     ...) {
  if (p->failed) return;
  p->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  ir_pos pos = {p->src.name, p->line, col};
  ir_diag_verror(&p->src, pos, supported, fmt, ap);
  va_end(ap);
}

static int is_word(int c) {
  return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/* Split the current line into tokens: words (letters, digits, _ . $),
 * numbers (with a leading '-' or decimal point), "->", and single
 * punctuation characters. */
static void lex(parser *p) {
  p->nt = 0;
  int i = 0;
  while (i < p->len) {
    char c = p->text[i];
    if (c == '#') break;
    if (isspace((unsigned char)c)) {
      i++;
      continue;
    }
    if (p->nt == MAX_TOK) {
      error_at(p, i + 1, NULL, "too many tokens on one line");
      return;
    }
    tok *t = &p->t[p->nt++];
    t->s = p->text + i;
    t->col = i + 1;
    int j = i;
    if (c == '-' && j + 1 < p->len && p->text[j + 1] == '>') j += 2;
    else if (is_word(c) || (c == '-' && j + 1 < p->len && isdigit((unsigned char)p->text[j + 1]))) {
      j++;
      while (j < p->len && is_word(p->text[j])) j++;
    } else j++;
    t->len = j - i;
    i = j;
  }
}

static int teq(const tok *t, const char *s) {
  return (int)strlen(s) == t->len && strncmp(t->s, s, (size_t)t->len) == 0;
}

static char *tstr(parser *p, const tok *t) {
  return ir_arena_strndup(p->arena, t->s, (size_t)t->len);
}

/* The verbatim text after token k (trimmed), or "" */
static const char *rest_after(parser *p, int k, int *col) {
  const char *s = p->t[k].s + p->t[k].len;
  const char *end = p->text + p->len;
  while (s < end && isspace((unsigned char)*s)) s++;
  const char *e = end;
  while (e > s && isspace((unsigned char)e[-1])) e--;
  *col = (int)(s - p->text) + 1;
  return ir_arena_strndup(p->arena, s, (size_t)(e - s));
}

static int parse_int(parser *p, const tok *t, long lo, long hi, long *out) {
  char buf[32];
  if (t->len >= (int)sizeof buf) goto bad;
  memcpy(buf, t->s, (size_t)t->len);
  buf[t->len] = 0;
  char *end;
  errno = 0;
  long v = strtol(buf, &end, 10);
  if (errno || *end || end == buf || v < lo || v > hi) goto bad;
  *out = v;
  return 0;
bad:
  error_at(p, t->col, NULL, "expected an integer in %ld..%ld, found '%.*s'", lo,
           hi, t->len, t->s);
  return -1;
}

static int parse_elem(const tok *t, ir_elem *e) {
  for (int i = 0; i < IR_ELEM_COUNT; i++)
    if (teq(t, ir_elem_mlir_name((ir_elem)i))) {
      *e = (ir_elem)i;
      return 0;
    }
  return -1;
}

#define ELEMS_SUPPORTED \
  "element types f64, f32, i32, i64, i8, ui8, i16, ui16, ui32, ui64, i1"

/* elem-list := ELEM { ELEM } */
static int parse_elems(parser *p, int k, unsigned *out) {
  unsigned m = 0;
  if (k >= p->nt) {
    error_at(p, p->len + 1, ELEMS_SUPPORTED, "expected element types");
    return -1;
  }
  for (; k < p->nt; k++) {
    ir_elem e;
    if (parse_elem(&p->t[k], &e)) {
      error_at(p, p->t[k].col, ELEMS_SUPPORTED, "unknown element type '%.*s'",
               p->t[k].len, p->t[k].s);
      return -1;
    }
    m |= 1u << e;
  }
  *out = m;
  return 0;
}

/* ------------------------------------------------------------- op parts */

static int find_operand(const gram_op *op, const tok *t) {
  for (int i = 0; i < op->nops; i++)
    if (teq(t, op->opnames[i])) return i;
  return -2;
}

int gram_op_operand(const gram_op *op, const char *name, int len) {
  for (int i = 0; i < op->nops; i++)
    if ((int)strlen(op->opnames[i]) == len && !strncmp(op->opnames[i], name, (size_t)len))
      return i;
  return -1;
}

int gram_op_attr(const gram_op *op, const char *name, int len) {
  for (int i = 0; i < op->nattrs; i++)
    if ((int)strlen(op->attrs[i].name) == len && !strncmp(op->attrs[i].name, name, (size_t)len))
      return i;
  return -1;
}

static int var_index(parser *p, gram_op *op, const tok *t, int is_list) {
  for (int i = 0; i < op->nvars; i++)
    if (teq(t, op->vars[i])) {
      if (op->var_is_list[i] != is_list) {
        error_at(p, t->col, NULL, "'%.*s' is used both as a dim and as a dim list",
                 t->len, t->s);
        return -1;
      }
      return i;
    }
  if (op->nvars == GRAM_MAX_VARS) {
    error_at(p, t->col, NULL, "too many dim variables (at most %d)", GRAM_MAX_VARS);
    return -1;
  }
  op->var_is_list[op->nvars] = is_list;
  op->vars[op->nvars] = tstr(p, t);
  return op->nvars++;
}

#define PATTERN_SUPPORTED \
  "type patterns [m,k], [1,n], [] (rank 0), [*s] (any rank, named), [*] " \
  "(any rank), optionally after an element type: i1[*s]"

/* pattern := [ELEM] '[' ( ']' | '*' [NAME] ']' | dim { ',' dim } ']' )
 * dim := NAME | 1.  `bind` says whether new variables may be introduced
 * (operands) or must exist already (results). */
static int parse_pattern(parser *p, gram_op *op, int *k, gram_pat *pat, int bind) {
  memset(pat, 0, sizeof *pat);
  pat->ell = -1;
  int i = *k;
  if (i < p->nt && !teq(&p->t[i], "[")) {
    if (parse_elem(&p->t[i], &pat->elem)) {
      error_at(p, p->t[i].col, PATTERN_SUPPORTED, "unknown type pattern '%.*s'",
               p->t[i].len, p->t[i].s);
      return -1;
    }
    pat->fixed_elem = 1;
    i++;
  }
  if (i >= p->nt || !teq(&p->t[i], "[")) {
    error_at(p, i < p->nt ? p->t[i].col : p->len + 1, PATTERN_SUPPORTED,
             "expected a type pattern '[...]'");
    return -1;
  }
  i++;
  if (i < p->nt && teq(&p->t[i], "*")) {
    i++;
    if (i < p->nt && !teq(&p->t[i], "]")) {
      const tok *v = &p->t[i];
      if (!isalpha((unsigned char)v->s[0])) goto bad;
      int vi = bind ? var_index(p, op, v, 1) : -1;
      if (!bind) {
        for (int j = 0; j < op->nvars; j++)
          if (teq(v, op->vars[j]) && op->var_is_list[j]) vi = j;
        if (vi < 0) {
          error_at(p, v->col, NULL, "dim list '%.*s' is not bound by an operand",
                   v->len, v->s);
          return -1;
        }
      }
      if (vi < 0) return -1;
      pat->ell = vi;
      i++;
    } else {
      pat->any = 1;
    }
    if (i >= p->nt || !teq(&p->t[i], "]")) goto bad;
    *k = i + 1;
    return 0;
  }
  while (i < p->nt && !teq(&p->t[i], "]")) {
    if (pat->rank && !teq(&p->t[i++], ",")) goto bad;
    if (i >= p->nt) goto bad;
    const tok *v = &p->t[i];
    if (pat->rank == IR_MAX_RANK) {
      error_at(p, v->col, NULL, "rank above %d", IR_MAX_RANK);
      return -1;
    }
    if (teq(v, "1")) {
      pat->dims[pat->rank++] = -1;
    } else if (isalpha((unsigned char)v->s[0]) && !memchr(v->s, '.', (size_t)v->len)) {
      int vi = -1;
      if (bind) vi = var_index(p, op, v, 0);
      else {
        for (int j = 0; j < op->nvars; j++)
          if (teq(v, op->vars[j]) && !op->var_is_list[j]) vi = j;
        if (vi < 0) {
          error_at(p, v->col, NULL, "dim '%.*s' is not bound by an operand", v->len,
                   v->s);
          return -1;
        }
      }
      if (vi < 0) return -1;
      pat->dims[pat->rank++] = vi;
    } else {
      goto bad;
    }
    i++;
  }
  if (i >= p->nt) goto bad;
  *k = i + 1;
  return 0;
bad:
  error_at(p, i < p->nt ? p->t[i].col : p->len + 1, PATTERN_SUPPORTED,
           "unknown type pattern");
  return -1;
}

/* operands := NAME ':' pattern { NAME ':' pattern } */
static void parse_operands(parser *p, gram_op *op) {
  int k = 1;
  if (op->nops) {
    error_at(p, p->t[0].col, NULL, "operands given twice");
    return;
  }
  while (k < p->nt) {
    const tok *n = &p->t[k];
    if (!isalpha((unsigned char)n->s[0])) {
      error_at(p, n->col, NULL, "expected an operand name");
      return;
    }
    if (op->nops == IR_TP_MAX_OPERANDS) {
      error_at(p, n->col, NULL, "too many operands (at most %d)", IR_TP_MAX_OPERANDS);
      return;
    }
    if (find_operand(op, n) >= 0 || teq(n, "result")) {
      error_at(p, n->col, NULL, "duplicate operand '%.*s'", n->len, n->s);
      return;
    }
    if (k + 1 >= p->nt || !teq(&p->t[k + 1], ":")) {
      error_at(p, k + 1 < p->nt ? p->t[k + 1].col : p->len + 1, NULL,
               "expected ':' and a type pattern after operand '%.*s'", n->len, n->s);
      return;
    }
    op->opnames[op->nops] = tstr(p, n);
    k += 2;
    if (parse_pattern(p, op, &k, &op->pats[op->nops], 1)) return;
    op->nops++;
  }
}

/* An operand reference in a domain or a result rule: NAME or `result`. */
static int operand_ref(parser *p, gram_op *op, const tok *t, int allow_result) {
  if (allow_result && teq(t, "result")) return -1;
  int i = find_operand(op, t);
  if (i < 0)
    error_at(p, t->col, NULL, "'%.*s' is not an operand of '%s'%s", t->len, t->s,
             op->name, allow_result ? " (or 'result')" : "");
  return i;
}

#define DOMAINS_SUPPORTED \
  "perm(x) [noid], subset(x), dim(x|result), pairs(l, r) [empty], " \
  "bcast(x, result) [exact], window(x), shift(x), enum(A, B=spelling, ...), " \
  "region(add|mul|max|min|upd_gt|upd_ge|upd_lt|upd_le[=spelling], ...); " \
  "a spelling FLOAT|INT " \
  "(INT '-': no integer form; FLOAT '-': no float form)"

/* value := NAME [ '=' SPELLING [ '|' INT_SPELLING ] ]: the enum or region
 * value x of attribute a, with the spelling (up to the next ',' or ')')
 * when given, and apart from it the spelling for integer element types
 * (`-`: none); *k: the token after x, moved past the spelling.  Returns 0,
 * or -1 (reported). */
static int attr_enum_value(parser *p, gram_attr *a, const tok *x, int *k) {
  if (a->nvals == GRAM_MAX_ENUM) {
    error_at(p, x->col, NULL, "too many values (at most %d)", GRAM_MAX_ENUM);
    return -1;
  }
  if (!isalpha((unsigned char)x->s[0])) {
    error_at(p, x->col, DOMAINS_SUPPORTED, "bad attribute domain value '%.*s'",
             x->len, x->s);
    return -1;
  }
  for (int v = 0; v < a->nvals; v++)
    if (teq(x, a->vals[v])) {
      error_at(p, x->col, NULL, "duplicate value '%.*s' in the domain", x->len,
               x->s);
      return -1;
    }
  if (a->dom == GRAM_DOM_REGION && !gram_region_known(x->s, x->len)) {
    error_at(p, x->col,
             "reduction bodies add, mul, max, min, upd_gt, upd_ge, upd_lt, upd_le",
             "bad attribute domain: unknown reduction body '%.*s'", x->len, x->s);
    return -1;
  }
  a->vals[a->nvals] = tstr(p, x);
  a->spell[a->nvals] = a->vals[a->nvals];
  a->ispell[a->nvals] = a->vals[a->nvals];
  a->uspell[a->nvals] = a->vals[a->nvals];
  if (*k < p->nt && teq(&p->t[*k], "=")) {
    if (*k + 1 >= p->nt || teq(&p->t[*k + 1], ",") || teq(&p->t[*k + 1], ")")) {
      error_at(p, p->t[*k].col, NULL, "expected a spelling after '='");
      return -1;
    }
    /* the spelling runs up to the next ',' or ')' */
    int e = *k + 1;
    while (e < p->nt && !teq(&p->t[e], ",") && !teq(&p->t[e], ")")) e++;
    const char *s = p->t[*k + 1].s;
    const char *end = p->t[e - 1].s + p->t[e - 1].len;
    const char *bar = memchr(s, '|', (size_t)(end - s));
    const char *fend = bar ? bar : end;
    while (fend > s && fend[-1] == ' ') fend--;
    a->spell[a->nvals] = ir_arena_strndup(p->arena, s, (size_t)(fend - s));
    a->ispell[a->nvals] = a->spell[a->nvals];
    a->uspell[a->nvals] = a->spell[a->nvals];
    if (bar && fend - s == 1 && *s == '-') a->spell[a->nvals] = NULL; /* no float form */
    if (bar) {
      const char *is = bar + 1;
      while (is < end && *is == ' ') is++;
      size_t left = is < end ? (size_t)(end - is) : 0;
      const char *bar2 = left ? memchr(is, '|', left) : NULL;
      const char *iend = bar2 ? bar2 : end;
      while (iend > is && iend[-1] == ' ') iend--;
      const char *us = bar2 ? bar2 + 1 : NULL;
      while (us && us < end && *us == ' ') us++;
      size_t uleft = us && us < end ? (size_t)(end - us) : 0;
      if (is == iend || (us && (!uleft || memchr(us, '|', uleft)))) {
        error_at(p, p->t[*k + 1].col, NULL,
                 "expected an integer spelling after '|' and at most one unsigned one after "
                 "a second '|' (or '-' for none)");
        return -1;
      }
      a->ispell[a->nvals] = iend - is == 1 && *is == '-'
                                ? NULL
                                : ir_arena_strndup(p->arena, is, (size_t)(iend - is));
      a->uspell[a->nvals] = a->ispell[a->nvals];
      if (us)
        a->uspell[a->nvals] = end - us == 1 && *us == '-'
                                  ? NULL
                                  : ir_arena_strndup(p->arena, us, (size_t)(end - us));
    }
    *k = e;
  }
  a->nvals++;
  return 0;
}

/* Operand number nargs (token x) of attribute a's domain dname, which
 * takes dnargs operands.  Returns 0, or -1 (reported). */
static int attr_operand(parser *p, gram_op *op, gram_attr *a, const char *dname, int dnargs,
                        int nargs, const tok *x) {
  if (nargs == dnargs) {
    error_at(p, x->col, DOMAINS_SUPPORTED, "bad attribute domain: '%s' takes %d operand%s",
             dname, dnargs, dnargs > 1 ? "s" : "");
    return -1;
  }
  int allow_result = a->dom == GRAM_DOM_DIM || (a->dom == GRAM_DOM_BCAST && nargs == 1);
  int r = operand_ref(p, op, x, allow_result);
  if (r == -2) return -1;
  if (a->dom == GRAM_DOM_BCAST && nargs == 1 && r != -1) {
    error_at(p, x->col, DOMAINS_SUPPORTED,
             "bad attribute domain: bcast maps into 'result'");
    return -1;
  }
  a->arg[nargs] = r;
  return 0;
}

/* The flags of attribute a from token k on.  Returns 0, or -1 (reported). */
static int attr_flags(parser *p, gram_attr *a, int k) {
  for (; k < p->nt; k++) {
    const tok *f = &p->t[k];
    if (teq(f, "noid") && a->dom == GRAM_DOM_PERM) a->noid = 1;
    else if (teq(f, "empty") && a->dom == GRAM_DOM_PAIRS) a->empty = 1;
    else if (teq(f, "exact") && a->dom == GRAM_DOM_BCAST) a->exact = 1;
    else {
      error_at(p, f->col, "flags noid (perm), empty (pairs), exact (bcast)",
               "bad attribute domain flag '%.*s'", f->len, f->s);
      return -1;
    }
  }
  return 0;
}

/* attr := NAME ':' DOMAIN '(' args ')' { FLAG } */
static void parse_attr(parser *p, gram_op *op) {
  if (p->nt < 5 || !teq(&p->t[2], ":")) {
    error_at(p, p->nt > 2 ? p->t[2].col : p->len + 1, DOMAINS_SUPPORTED,
             "expected 'attr NAME : DOMAIN(...)'");
    return;
  }
  const tok *n = &p->t[1];
  if (gram_op_attr(op, n->s, n->len) >= 0) {
    error_at(p, n->col, NULL, "duplicate attribute '%.*s'", n->len, n->s);
    return;
  }
  if (op->nattrs == IR_TP_MAX_ATTRS) {
    error_at(p, n->col, NULL, "too many attributes (at most %d)", IR_TP_MAX_ATTRS);
    return;
  }
  gram_attr *a = &op->attrs[op->nattrs];
  memset(a, 0, sizeof *a);
  a->name = tstr(p, n);
  a->pos = (ir_pos){p->src.name, p->line, n->col};
  a->arg[0] = a->arg[1] = -1;
  const tok *dom = &p->t[3];
  static const struct { const char *name; gram_dom dom; int nargs; } doms[] = {
      {"perm", GRAM_DOM_PERM, 1},   {"subset", GRAM_DOM_SUBSET, 1},
      {"dim", GRAM_DOM_DIM, 1},     {"pairs", GRAM_DOM_PAIRS, 2},
      {"bcast", GRAM_DOM_BCAST, 2}, {"window", GRAM_DOM_WINDOW, 1},
      {"shift", GRAM_DOM_SHIFT, 1}, /* issue 14's pad */
      {"enum", GRAM_DOM_ENUM, -1},
      {"region", GRAM_DOM_REGION, -1}};
  int di = -1;
  for (int i = 0; i < (int)(sizeof doms / sizeof doms[0]); i++)
    if (teq(dom, doms[i].name)) di = i;
  if (di < 0) {
    error_at(p, dom->col, DOMAINS_SUPPORTED, "bad attribute domain '%.*s'", dom->len,
             dom->s);
    return;
  }
  a->dom = doms[di].dom;
  int k = 4;
  if (!teq(&p->t[k], "(")) {
    error_at(p, p->t[k].col, DOMAINS_SUPPORTED, "expected '(' after '%s'",
             doms[di].name);
    return;
  }
  k++;
  int nargs = 0;
  while (k < p->nt && !teq(&p->t[k], ")")) {
    if (nargs && !teq(&p->t[k++], ",")) {
      error_at(p, p->t[k - 1].col, DOMAINS_SUPPORTED, "expected ',' or ')'");
      return;
    }
    if (k >= p->nt) break;
    const tok *x = &p->t[k++];
    if (doms[di].nargs < 0) { /* enum / region values */
      if (attr_enum_value(p, a, x, &k)) return;
    } else {
      if (attr_operand(p, op, a, doms[di].name, doms[di].nargs, nargs, x)) return;
    }
    nargs++;
  }
  if (k >= p->nt) {
    error_at(p, p->len + 1, DOMAINS_SUPPORTED, "expected ')'");
    return;
  }
  if (doms[di].nargs > 0 && nargs != doms[di].nargs) {
    error_at(p, p->t[k].col, DOMAINS_SUPPORTED,
             "bad attribute domain: '%s' takes %d operand%s", doms[di].name,
             doms[di].nargs, doms[di].nargs > 1 ? "s" : "");
    return;
  }
  if (doms[di].nargs < 0 && a->nvals == 0) {
    error_at(p, p->t[k].col, DOMAINS_SUPPORTED, "bad attribute domain: no values");
    return;
  }
  if (attr_flags(p, a, k + 1)) return;
  op->desc.attr_names[op->nattrs] = a->name;
  if (a->dom == GRAM_DOM_ENUM || a->dom == GRAM_DOM_REGION)
    op->desc.attr_enum[op->nattrs] = a->vals;
  op->nattrs++;
  op->desc.nattrs = op->nattrs;
}

#define RESULTS_SUPPORTED \
  "[ELEM] followed by a pattern [m,n] / [*s], broadcast(a, b, ...), " \
  "broadcast_eq(a, b, ...), permute(x, ATTR), reduce(x, ATTR), " \
  "reduce1(x, ATTR), dot(l, r, BATCH, CONTRACT), target, reshape(x), convert(x), sext(x), zext(x)"

/* result := [ELEM] ( pattern | RULE '(' args ')' | target ) */
static void parse_result(parser *p, gram_op *op) {
  int k = 1;
  memset(&op->res_pat, 0, sizeof op->res_pat);
  op->res_pat.ell = -1;
  if (k < p->nt && parse_elem(&p->t[k], &op->res_pat.elem) == 0) {
    op->res_pat.fixed_elem = 1;
    k++;
  }
  if (k >= p->nt) {
    error_at(p, p->len + 1, RESULTS_SUPPORTED, "expected a result rule");
    return;
  }
  const tok *r = &p->t[k];
  if (teq(r, "[")) {
    gram_pat pat;
    if (parse_pattern(p, op, &k, &pat, 0)) return;
    pat.fixed_elem = op->res_pat.fixed_elem;
    pat.elem = op->res_pat.elem;
    op->res_pat = pat;
    op->res = GRAM_RES_PATTERN;
    if (pat.any) error_at(p, r->col, RESULTS_SUPPORTED, "a result pattern cannot be [*]");
  } else if (teq(r, "target")) {
    op->res = GRAM_RES_TARGET;
    k++;
  } else {
    static const struct { const char *name; gram_res res; int nops, nattrs; } rules[] = {
        {"broadcast", GRAM_RES_BCAST, -1, 0}, {"broadcast_eq", GRAM_RES_BCAST_EQ, -1, 0},
        {"permute", GRAM_RES_PERMUTE, 1, 1},  {"reduce", GRAM_RES_REDUCE, 1, 1},
        {"reduce1", GRAM_RES_REDUCE1, 1, 1},  {"dot", GRAM_RES_DOT, 2, 2},
        {"reshape", GRAM_RES_RESHAPE, 1, 0}, {"convert", GRAM_RES_CONVERT, 1, 0},
        {"sext", GRAM_RES_SEXT, 1, 0},       {"zext", GRAM_RES_ZEXT, 1, 0}};
    int ri = -1;
    for (int i = 0; i < (int)(sizeof rules / sizeof rules[0]); i++)
      if (teq(r, rules[i].name)) ri = i;
    if (ri < 0) {
      error_at(p, r->col, RESULTS_SUPPORTED, "unknown result rule '%.*s'", r->len, r->s);
      return;
    }
    op->res = rules[ri].res;
    k++;
    if (k >= p->nt || !teq(&p->t[k], "(")) {
      error_at(p, k < p->nt ? p->t[k].col : p->len + 1, RESULTS_SUPPORTED, "expected '('");
      return;
    }
    k++;
    int n = 0;
    while (k < p->nt && !teq(&p->t[k], ")")) {
      if (n && !teq(&p->t[k++], ",")) {
        error_at(p, p->t[k - 1].col, RESULTS_SUPPORTED, "expected ',' or ')'");
        return;
      }
      if (k >= p->nt) break;
      const tok *x = &p->t[k++];
      if (n >= 4) {
        error_at(p, x->col, RESULTS_SUPPORTED, "too many arguments");
        return;
      }
      int nops = rules[ri].nops < 0 ? 99 : rules[ri].nops;
      if (n < nops) {
        int o = operand_ref(p, op, x, 0);
        if (o < 0) return;
        op->res_args[n] = o;
      } else {
        int a = gram_op_attr(op, x->s, x->len);
        if (a < 0) {
          error_at(p, x->col, NULL, "'%.*s' is not an attribute of '%s' (declare attrs before the result)",
                   x->len, x->s, op->name);
          return;
        }
        op->res_args[n] = a;
      }
      n++;
    }
    if (k >= p->nt) {
      error_at(p, p->len + 1, RESULTS_SUPPORTED, "expected ')'");
      return;
    }
    int want = rules[ri].nops < 0 ? -1 : rules[ri].nops + rules[ri].nattrs;
    if ((want >= 0 && n != want) || (want < 0 && n < 2)) {
      error_at(p, p->t[k].col, RESULTS_SUPPORTED, "wrong number of arguments to '%s'",
               rules[ri].name);
      return;
    }
    op->nres_args = n;
    k++;
  }
  if (k < p->nt)
    error_at(p, p->t[k].col, RESULTS_SUPPORTED, "unexpected '%.*s' after the result",
             p->t[k].len, p->t[k].s);
}

#define KERNEL_SUPPORTED \
  "kernel NAME [(operand|NUMBER, ...)] {key=[1,0] | key=NUMBER | key=NAME | " \
  "key=@attr[.lhs|.rhs]}, or kernel @attr (an enum of kernel names)"

/* NAME | '@' ATTR: the kernel, or the enum attribute whose values name
 * it, from token *k on (*k moved past it).  Returns 0, or -1 (reported). */
static int kernel_name(parser *p, gram_op *op, int *k) {
  if (teq(&p->t[*k], "@")) {
    if (*k + 1 >= p->nt) {
      error_at(p, p->len + 1, KERNEL_SUPPORTED, "expected an attribute after '@'");
      return -1;
    }
    const tok *x = &p->t[*k + 1];
    int a = gram_op_attr(op, x->s, x->len);
    if (a < 0 || op->attrs[a].dom != GRAM_DOM_ENUM) {
      error_at(p, x->col, KERNEL_SUPPORTED, "'%.*s' is not an enum attribute of '%s'",
               x->len, x->s, op->name);
      return -1;
    }
    for (int v = 0; v < op->attrs[a].nvals; v++)
      if (!gram_kernel_known(op->attrs[a].vals[v])) {
        error_at(p, x->col, gram_kernel_list(), "unknown kernel '%s' (a value of '%s')",
                 op->attrs[a].vals[v], op->attrs[a].name);
        return -1;
      }
    op->kernel_attr = a;
    *k += 2;
  } else {
    const tok *x = &p->t[*k];
    char *name = tstr(p, x);
    if (!gram_kernel_known(name)) {
      error_at(p, x->col, gram_kernel_list(), "unknown kernel '%s'", name);
      return -1;
    }
    op->kernel = name;
    (*k)++;
  }
  return 0;
}

/* [ '(' karg { ',' karg } ')' ]: the kernel's operands (operand names or
 * numbers: rank-0 constants) from token *k on.  Returns 0, or -1
 * (reported). */
static int kernel_args(parser *p, gram_op *op, int *k) {
  if (*k < p->nt && teq(&p->t[*k], "(")) {
    (*k)++;
    op->nkargs = 0;
    while (*k < p->nt && !teq(&p->t[*k], ")")) {
      if (op->nkargs && !teq(&p->t[(*k)++], ",")) {
        error_at(p, p->t[*k - 1].col, KERNEL_SUPPORTED, "expected ',' or ')'");
        return -1;
      }
      if (*k >= p->nt) break;
      const tok *x = &p->t[(*k)++];
      if (op->nkargs == IR_TP_MAX_OPERANDS) {
        error_at(p, x->col, NULL, "too many kernel operands");
        return -1;
      }
      if (isdigit((unsigned char)x->s[0]) || x->s[0] == '-') {
        char buf[40];
        snprintf(buf, sizeof buf, "%.*s", x->len < 39 ? x->len : 39, x->s);
        char *end;
        double v = strtod(buf, &end);
        if (*end) {
          error_at(p, x->col, KERNEL_SUPPORTED, "bad number '%s'", buf);
          return -1;
        }
        op->kargs[op->nkargs] = -1;
        op->kconst[op->nkargs++] = v;
      } else {
        int o = operand_ref(p, op, x, 0);
        if (o < 0) return -1;
        op->kargs[op->nkargs++] = o;
      }
    }
    if (*k >= p->nt) {
      error_at(p, p->len + 1, KERNEL_SUPPORTED, "expected ')'");
      return -1;
    }
    (*k)++;
  }
  return 0;
}

/* kval := '@' ATTR ['.lhs' | '.rhs'] | '[' INT {',' INT} ']' | INT | NAME:
 * the value of kernel attribute ka from token *k on (*k moved past it).
 * Returns 0, or -1 (reported). */
static int kernel_value(parser *p, gram_op *op, gram_kattr *ka, int *k) {
  const tok *v = &p->t[*k];
  if (teq(v, "@")) {
    if (*k + 1 >= p->nt) {
      error_at(p, p->len + 1, KERNEL_SUPPORTED, "expected an attribute after '@'");
      return -1;
    }
    const tok *x = &p->t[*k + 1];
    const char *dot = memchr(x->s, '.', (size_t)x->len);
    int len = dot ? (int)(dot - x->s) : x->len;
    int a = gram_op_attr(op, x->s, len);
    if (a < 0) {
      error_at(p, x->col, KERNEL_SUPPORTED, "'%.*s' is not an attribute of '%s'", len,
               x->s, op->name);
      return -1;
    }
    ka->kind = GRAM_KV_ATTR;
    ka->attr = a;
    if (dot) {
      int rl = x->len - len - 1;
      if (rl == 3 && !strncmp(dot + 1, "lhs", 3)) ka->part = 1;
      else if (rl == 3 && !strncmp(dot + 1, "rhs", 3)) ka->part = 2;
      else {
        error_at(p, x->col + len + 1, KERNEL_SUPPORTED, "unknown attribute part '%.*s'",
                 rl, dot + 1);
        return -1;
      }
      if (op->attrs[a].dom != GRAM_DOM_PAIRS && op->attrs[a].dom != GRAM_DOM_WINDOW &&
          op->attrs[a].dom != GRAM_DOM_SHIFT) {
        error_at(p, x->col + len + 1, KERNEL_SUPPORTED,
                 ".lhs/.rhs select a half of a pairs, window or shift attribute");
        return -1;
      }
    }
    *k += 2;
  } else if (teq(v, "[")) {
    ka->kind = GRAM_KV_LIST;
    (*k)++;
    while (*k < p->nt && !teq(&p->t[*k], "]")) {
      if (ka->n && !teq(&p->t[(*k)++], ",")) {
        error_at(p, p->t[*k - 1].col, KERNEL_SUPPORTED, "expected ',' or ']'");
        return -1;
      }
      if (*k >= p->nt) break;
      long x;
      if (ka->n == IR_TP_MAX_ATTR_LEN) {
        error_at(p, p->t[*k].col, NULL, "list too long");
        return -1;
      }
      if (parse_int(p, &p->t[(*k)++], 0, IR_MAX_RANK - 1, &x)) return -1;
      ka->list[ka->n++] = (int)x;
    }
    if (*k >= p->nt) {
      error_at(p, p->len + 1, KERNEL_SUPPORTED, "expected ']'");
      return -1;
    }
    (*k)++;
  } else if (isdigit((unsigned char)v->s[0]) || v->s[0] == '-') {
    long x;
    if (parse_int(p, v, -1000000, 1000000, &x)) return -1;
    ka->kind = GRAM_KV_LIST;
    ka->n = 1;
    ka->list[0] = (int)x;
    (*k)++;
  } else {
    ka->kind = GRAM_KV_NAME;
    ka->name = tstr(p, v);
    (*k)++;
  }
  return 0;
}

/* kernel := (NAME | '@' ATTR) [ '(' karg { ',' karg } ')' ] { KEY '=' kval } */
static void parse_kernel(parser *p, gram_op *op) {
  int k = 1;
  if (op->kernel || op->kernel_attr >= 0) {
    error_at(p, p->t[0].col, NULL, "kernel given twice");
    return;
  }
  if (k >= p->nt) {
    error_at(p, p->len + 1, KERNEL_SUPPORTED, "expected a kernel name");
    return;
  }
  if (kernel_name(p, op, &k) || kernel_args(p, op, &k)) return;
  while (k < p->nt) {
    const tok *key = &p->t[k];
    if (!isalpha((unsigned char)key->s[0]) || k + 2 >= p->nt + 0 || !teq(&p->t[k + 1], "=")) {
      error_at(p, key->col, KERNEL_SUPPORTED, "expected 'key=value'");
      return;
    }
    if (op->nkattrs == GRAM_MAX_KATTRS) {
      error_at(p, key->col, NULL, "too many kernel attributes");
      return;
    }
    gram_kattr *ka = &op->kattrs[op->nkattrs];
    memset(ka, 0, sizeof *ka);
    ka->key = tstr(p, key);
    k += 2;
    if (kernel_value(p, op, ka, &k)) return;
    op->nkattrs++;
  }
}

/* Template placeholders: $NAME or ${NAME}, where NAME is res, an operand,
 * X.type|elem|shape|rank, an attribute, ATTR.n|lhs|rhs|added|init|name, %FRESH,
 * or value (constant templates); "$$" is a literal '$'.  Shared with emit/
 * through gram_template_next. */
int gram_template_next(const char *s, const char **name, int *len, int *skip) {
  if (s[0] != '$') return 0;
  if (s[1] == '$') {
    *name = s;
    *len = 1;
    *skip = 2;
    return 2;
  }
  if (s[1] == '{') {
    const char *e = strchr(s + 2, '}');
    if (!e) return -1;
    *name = s + 2;
    *len = (int)(e - s - 2);
    *skip = *len + 3;
    return 1;
  }
  int n = 0;
  if (s[1] == '%') n = 1;
  while (isalnum((unsigned char)s[1 + n]) || s[1 + n] == '_' ||
         (s[1 + n] == '.' && isalpha((unsigned char)s[2 + n])))
    n++;
  if (n == 0 || (n == 1 && s[1] == '%')) return -1;
  *name = s + 1;
  *len = n;
  *skip = n + 1;
  return 1;
}

#define PLACEHOLDERS_SUPPORTED \
  "$res, $OPERAND, $OPERAND.type|elem|shape|shape_attr|rank|dyn|dims|axes|core_type|" \
  "core_reassoc|collapse|expand|into|units|full_type|zero|conv, $ATTR, " \
  "$ATTR.n|lhs|rhs|added|init|name (a window attribute: $ATTR.n|offsets|sizes|limits|" \
  "low|high|strides|block_args|padding|collapse|into|slice_type|pad_type|reassoc; a shift " \
  "attribute: those and lhs|rhs), " \
  "$%FRESH, ${...} around any of them, $$"

static void check_template(parser *p, gram_op *op, const char *t, int col) {
  for (const char *s = t; *s; s++) {
    const char *name;
    int len, skip;
    int r = gram_template_next(s, &name, &len, &skip);
    if (r == 0) continue;
    if (r < 0) {
      error_at(p, col + (int)(s - t), PLACEHOLDERS_SUPPORTED, "bad placeholder in template");
      return;
    }
    if (r == 2) {
      s += skip - 1;
      continue;
    }
    const char *dot = memchr(name, '.', (size_t)len);
    int base = dot ? (int)(dot - name) : len;
    const char *suffix = dot ? dot + 1 : "";
    int slen = dot ? len - base - 1 : 0;
    int ok = 0, ai;
    if (len > 1 && name[0] == '%') ok = 1;
    else if (!op) {
      ok = (base == 3 && !strncmp(name, "res", 3)) || (len == 5 && !strncmp(name, "value", 5));
      if (ok && dot) {
        static const char *sfx[] = {"type", "elem", "shape", "rank", "dyn", "dims"};
        ok = 0;
        for (int i = 0; i < 6 && !ok; i++)
          ok = slen == (int)strlen(sfx[i]) && !strncmp(suffix, sfx[i], (size_t)slen);
      }
    } else {
      int is_val = (base == 3 && !strncmp(name, "res", 3)) || gram_op_operand(op, name, base) >= 0;
      if (is_val) {
        static const char *sfx[] = {"type",     "elem",         "shape",    "rank",
                                    "dyn",      "dims",         "core_type", "core_reassoc",
                                    "collapse", "expand",       "into",      "axes",
                                    "units",    "full_type",    "shape_attr",
                                    "zero",     "conv",         "ones",
                                    /* a linalg.generic over the value (reverse) */
                                    "idmap",    "parallel",     "index_defs",
                                    "indices",  "indices_flip"};
        ok = !dot;
        for (size_t i = 0; i < sizeof sfx / sizeof sfx[0] && !ok; i++)
          ok = slen == (int)strlen(sfx[i]) && !strncmp(suffix, sfx[i], (size_t)slen);
      } else if ((ai = gram_op_attr(op, name, base)) >= 0) {
        static const char *sfx[] = {"n", "lhs", "rhs", "added", "init", "name"};
        /* a window attribute's (emit/mlir.c, put_window) */
        static const char *wsfx[] = {"n", "offsets", "sizes", "limits", "low", "high",
                                     "strides", "block_args", "padding", "collapse", "into",
                                     "slice_type", "pad_type", "reassoc",
                                     "lhs", "rhs"}; /* the last two: a shift's */
        int win = op->attrs[ai].dom == GRAM_DOM_WINDOW || op->attrs[ai].dom == GRAM_DOM_SHIFT;
        const char *const *list = win ? wsfx : sfx;
        int nl = win ? (int)(sizeof wsfx / sizeof wsfx[0]) -
                           (op->attrs[ai].dom == GRAM_DOM_WINDOW ? 2 : 0)
                     : (int)(sizeof sfx / sizeof sfx[0]);
        ok = !dot;
        for (int i = 0; i < nl && !ok; i++)
          ok = slen == (int)strlen(list[i]) && !strncmp(suffix, list[i], (size_t)slen);
      }
    }
    if (!ok) {
      error_at(p, col + (int)(s - t), PLACEHOLDERS_SUPPORTED,
               "unknown placeholder '$%.*s' in template", len, name);
      return;
    }
    s += skip - 1;
  }
}

/* ------------------------------------------------------------- directives */

static void finish_op(parser *p, int col) {
  gram_op *op = p->op;
  if (!op->nops && op->res != GRAM_RES_TARGET) {
    /* nullary ops must have their shape proposed */
  }
  if (!op->kernel && op->kernel_attr < 0)
    error_at(p, col, NULL, "op '%s' has no 'kernel' line", op->name);
  else if ((int)op->res < 0)
    error_at(p, col, NULL, "op '%s' has no 'result' line", op->name);
  else if (!op->nemit)
    error_at(p, col, NULL, "op '%s' has no 'emit' line", op->name);
  else if (op->nemit_u && (!op->kernel || strcmp(op->kernel, "reduce")))
    error_at(p, col, NULL, "op '%s' has 'emit.unit' lines, which serve ops of kernel reduce",
             op->name);
  if (p->failed) return;
  op->emit = IR_NEW_N(p->arena, gram_line, op->nemit);
  memcpy(op->emit, p->emit, sizeof(gram_line) * (size_t)op->nemit);
  if (op->nemit_b) {
    op->emit_b = IR_NEW_N(p->arena, gram_line, op->nemit_b);
    memcpy(op->emit_b, p->emit_b, sizeof(gram_line) * (size_t)op->nemit_b);
  }
  if (op->nemit_u) {
    op->emit_u = IR_NEW_N(p->arena, gram_line, op->nemit_u);
    memcpy(op->emit_u, p->emit_u, sizeof(gram_line) * (size_t)op->nemit_u);
  }
  if (op->nemit_d) {
    op->emit_d = IR_NEW_N(p->arena, gram_line, op->nemit_d);
    memcpy(op->emit_d, p->emit_d, sizeof(gram_line) * (size_t)op->nemit_d);
  }
  if (!op->elems) op->elems = p->d->elems;
  if (!op->maxrank) op->maxrank = p->d->maxrank;
  if (op->desc.nattrs == 0) op->desc.nattrs = op->nattrs;
  op->desc.typed_result = gram_op_needs_target(op);
  p->ops[p->d->nops++] = op;
  p->op = NULL;
}

/* TEMPLATE, the rest of a directive line: into lines[(*n)++] (at most 64
 * `what` lines), or into lines[0] when n is NULL; its placeholders checked
 * against op (NULL: a dialect line). */
static void template_line(parser *p, gram_op *op, gram_line *lines, int *n, const char *what) {
  int col;
  if (p->nt < 2) {
    error_at(p, p->len + 1, NULL, "expected a template");
    return;
  }
  if (n && *n == 64) {
    error_at(p, p->t[0].col, NULL, "too many %s lines", what);
    return;
  }
  gram_line *l = n ? &lines[(*n)++] : lines;
  l->text = rest_after(p, 0, &col);
  l->pos = (ir_pos){p->src.name, p->line, col};
  /* the blanks after the directive beyond the one that separates it */
  const char *after = p->t[0].s + p->t[0].len;
  l->indent = (int)((p->text + col - 1) - after) - 1;
  if (l->indent < 0) l->indent = 0;
  check_template(p, op, l->text, col);
}

/* 'op' NAME: a new op, the current one until 'end'. */
static void begin_op(parser *p) {
  gram_dialect *d = p->d;
  if (p->nt != 2 || !isalpha((unsigned char)p->t[1].s[0])) {
    error_at(p, p->nt > 1 ? p->t[1].col : p->len + 1, NULL, "expected 'op NAME'");
    return;
  }
  for (int i = 0; i < d->nops; i++)
    if (teq(&p->t[1], p->ops[i]->name)) {
      error_at(p, p->t[1].col, NULL, "duplicate op '%.*s' (first defined at line %d)",
               p->t[1].len, p->t[1].s, p->ops[i]->pos.line);
      return;
    }
  if (d->nops == (int)(sizeof p->ops / sizeof p->ops[0])) {
    error_at(p, p->t[0].col, NULL, "too many ops");
    return;
  }
  gram_op *op = IR_NEW(p->arena, gram_op);
  op->dialect = d;
  op->name = tstr(p, &p->t[1]);
  op->mlir = op->name;
  op->desc.name = op->name;
  op->desc.owner = op;
  op->pos = (ir_pos){p->src.name, p->line, p->t[1].col};
  op->kernel_attr = -1;
  op->nkargs = -1;
  op->res = (gram_res)-1;
  p->op = op;
}

/* dialect-line (docs/dialects.md), outside an op block. */
static void dialect_directive(parser *p) {
  const tok *t = &p->t[0];
  gram_dialect *d = p->d;
  int col;
  if (teq(t, "dialect") && p->nt == 2) {
    d->name = tstr(p, &p->t[1]);
  } else if (teq(t, "signless") && p->nt == 1) {
    d->signless = 1;
  } else if (teq(t, "upstream") && p->nt == 1) {
    d->upstream = 1;
  } else if (teq(t, "summary")) {
    d->summary = p->nt > 1 ? rest_after(p, 0, &col) : "";
  } else if (teq(t, "form") && p->nt == 2 && (teq(&p->t[1], "generic") || teq(&p->t[1], "custom"))) {
    d->generic = teq(&p->t[1], "generic");
  } else if (teq(t, "loop") && p->nt == 2 && (teq(&p->t[1], "while") || teq(&p->t[1], "for"))) {
    d->loop_while = teq(&p->t[1], "while");
  } else if (teq(t, "maxrank") && p->nt == 2) {
    long v;
    if (parse_int(p, &p->t[1], 0, IR_MAX_RANK, &v) == 0) d->maxrank = (int)v;
  } else if (teq(t, "elem")) {
    parse_elems(p, 1, &d->elems);
  } else if (teq(t, "constant")) {
    template_line(p, NULL, &d->constant, NULL, "constant");
  } else if (teq(t, "splat")) {
    template_line(p, NULL, p->splat, &d->nsplat, "splat");
  } else if (teq(t, "mask.dynamic") && p->nt == 2 &&
             (teq(&p->t[1], "generic") || teq(&p->t[1], "iota"))) {
    d->dynmask = teq(&p->t[1], "generic") ? GRAM_DYNMASK_GENERIC : GRAM_DYNMASK_IOTA;
  } else if (teq(t, "op")) {
    begin_op(p);
  } else {
    error_at(p, t->col,
             "dialect NAME, summary TEXT, form generic|custom, loop while|for, maxrank N, "
             "elem TYPES, constant TEMPLATE, splat TEMPLATE, "
             "mask.dynamic generic|iota, op NAME ... end",
             "unknown directive '%.*s'", t->len, t->s);
  }
}

/* 'rank' MIN '..' MAX (lexed as one word "MIN..MAX"). */
static void parse_rank(parser *p, gram_op *op) {
  long lo, hi;
  if (p->nt != 2) {
    error_at(p, p->nt > 1 ? p->t[1].col : p->len + 1, NULL, "expected 'rank MIN..MAX'");
    return;
  }
  const tok *r = &p->t[1];
  const char *dots = NULL;
  for (int i = 0; i + 1 < r->len; i++)
    if (r->s[i] == '.' && r->s[i + 1] == '.') dots = r->s + i;
  if (!dots) {
    error_at(p, r->col, NULL, "expected 'rank MIN..MAX'");
    return;
  }
  tok a = {r->s, (int)(dots - r->s), r->col};
  tok b = {dots + 2, r->len - a.len - 2, r->col + a.len + 2};
  if (parse_int(p, &a, 0, IR_MAX_RANK, &lo) || parse_int(p, &b, lo, IR_MAX_RANK, &hi))
    return;
  op->minrank = (int)lo;
  op->maxrank = (int)hi;
}

/* op-line (docs/dialects.md), inside the block of op p->op. */
static void op_directive(parser *p) {
  const tok *t = &p->t[0];
  gram_op *op = p->op;
  if (teq(t, "end") && p->nt == 1) {
    finish_op(p, t->col);
  } else if (teq(t, "mlir") && p->nt == 2) {
    op->mlir = tstr(p, &p->t[1]);
  } else if (teq(t, "operands")) {
    parse_operands(p, op);
  } else if (teq(t, "result")) {
    if ((int)op->res >= 0) error_at(p, t->col, NULL, "result given twice");
    else parse_result(p, op);
  } else if (teq(t, "elem")) {
    parse_elems(p, 1, &op->elems);
  } else if (teq(t, "rank")) {
    parse_rank(p, op);
  } else if (teq(t, "attr")) {
    parse_attr(p, op);
  } else if (teq(t, "kernel")) {
    parse_kernel(p, op);
  } else if (teq(t, "emit")) {
    template_line(p, op, p->emit, &op->nemit, "emit");
  } else if (teq(t, "emit.broadcast")) {
    template_line(p, op, p->emit_b, &op->nemit_b, "emit");
  } else if (teq(t, "emit.dynamic")) {
    template_line(p, op, p->emit_d, &op->nemit_d, "emit");
  } else if (teq(t, "emit.unit")) {
    template_line(p, op, p->emit_u, &op->nemit_u, "emit");
  } else {
    error_at(p, t->col,
             "mlir NAME, operands ..., result ..., elem TYPES, rank MIN..MAX, "
             "attr ..., kernel ..., emit TEMPLATE, emit.broadcast TEMPLATE, "
             "emit.dynamic TEMPLATE, emit.unit TEMPLATE, end",
             "unknown directive '%.*s' in op '%s'", t->len, t->s, op->name);
  }
}

static void directive(parser *p) {
  if (p->op) op_directive(p);
  else dialect_directive(p);
}

gram_dialect *gram_parse(const char *file, const char *text, ir_arena *arena) {
  parser *p = ir_calloc(1, sizeof *p);
  p->src.name = file;
  p->src.text = text;
  p->src.len = strlen(text);
  p->arena = arena;
  gram_dialect *d = IR_NEW(arena, gram_dialect);
  d->path = ir_arena_strdup(arena, file);
  d->summary = "";
  d->maxrank = IR_MAX_RANK;
  d->elems = (1u << IR_F64) | (1u << IR_F32);
  p->d = d;
  const char *s = text;
  while (*s && !p->failed) {
    const char *e = strchr(s, '\n');
    if (!e) e = s + strlen(s);
    p->line++;
    p->text = s;
    p->len = (int)(e - s);
    if (memchr(s, '\t', (size_t)p->len)) {
      /* tabs are fine as whitespace; columns count bytes */
    }
    lex(p);
    if (!p->failed && p->nt) directive(p);
    s = *e ? e + 1 : e;
  }
  if (!p->failed && p->op) {
    p->line = p->op->pos.line;
    p->text = text;
    for (int l = 1; l < p->line; l++) p->text = strchr(p->text, '\n') + 1;
    error_at(p, p->op->pos.col, NULL, "op '%s' is not closed by 'end'", p->op->name);
  }
  if (!p->failed && !d->name) {
    p->line = 1;
    p->text = text;
    p->len = (int)(strchr(text, '\n') ? strchr(text, '\n') - text : (long)strlen(text));
    error_at(p, 1, NULL, "missing 'dialect NAME' line");
  }
  if (!p->failed && !d->constant.text) {
    p->line = 1;
    p->text = text;
    p->len = (int)(strchr(text, '\n') ? strchr(text, '\n') - text : (long)strlen(text));
    error_at(p, 1, NULL, "missing 'constant TEMPLATE' line (how constants are written)");
  }
  gram_dialect *out = NULL;
  if (!p->failed) {
    d->ops = IR_NEW_N(arena, gram_op *, d->nops);
    memcpy(d->ops, p->ops, sizeof(gram_op *) * (size_t)d->nops);
    if (d->nsplat) {
      d->splat = IR_NEW_N(arena, gram_line, d->nsplat);
      memcpy(d->splat, p->splat, sizeof(gram_line) * (size_t)d->nsplat);
    }
    out = d;
  }
  ir_free(p);
  return out;
}

/* ------------------------------------------------------------- loading */

#ifndef UPLIFT_SRC_DIR
#define UPLIFT_SRC_DIR "."
#endif

static char dialect_dir[PATH_MAX + 16];

const char *gram_dialect_dir(void) {
  if (dialect_dir[0]) return dialect_dir;
  /* 1. $UPLIFT_DIALECTS; 2. next to the executable (../dialects when it
   * lives in build/); 3. the compile-time source tree. */
  const char *env = getenv("UPLIFT_DIALECTS");
  if (env && *env) {
    snprintf(dialect_dir, sizeof dialect_dir, "%s", env);
    return dialect_dir;
  }
  if (!ir_tree_dir("dialects/hlo", "dialects", dialect_dir, sizeof dialect_dir))
    return dialect_dir;
  snprintf(dialect_dir, sizeof dialect_dir, "%s/dialects", UPLIFT_SRC_DIR);
  return dialect_dir;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int gram_dialect_list(char ***names, ir_error *err) {
  *names = NULL;
  const char *dir = gram_dialect_dir();
  DIR *dp = opendir(dir);
  if (!dp) {
    const ir_pos nowhere = {0};
    return ir_error_set(err, nowhere, IR_ERR_SYSTEM, "cannot open %s", dir);
  }
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(dp))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      *names = ir_realloc(*names, sizeof **names * (size_t)cap);
    }
    (*names)[n++] = ir_strdup(e->d_name);
  }
  closedir(dp);
  if (n) qsort(*names, (size_t)n, sizeof **names, cmp_name);
  return n;
}

void gram_dialect_list_free(char **names, int n) {
  for (int i = 0; i < n; i++) ir_free(names[i]);
  ir_free(names);
}

/* A bare name that is neither a file nor a shipped dialect: name the
 * shipped ones. */
static void unknown_dialect(const char *name) {
  char **names;
  ir_error err;
  int n = gram_dialect_list(&names, &err);
  fprintf(stderr, "uplift: error: unknown dialect '%s'; ", name);
  if (n < 0)
    fprintf(stderr, "the shipped dialects cannot be listed: %s\n", err.msg);
  else {
    fprintf(stderr, "the dialects are");
    for (int i = 0; i < n; i++) fprintf(stderr, "%s %s", i ? "," : "", names[i]);
    fprintf(stderr, "%s (or give a dialect file's path)\n", n ? "" : " none");
    gram_dialect_list_free(names, n);
  }
}

gram_dialect *gram_load(const char *name_or_path, ir_arena *arena) {
  char path[PATH_MAX + 64];
  if (strchr(name_or_path, '/') || access(name_or_path, R_OK) == 0)
    snprintf(path, sizeof path, "%s", name_or_path);
  else
    snprintf(path, sizeof path, "%s/%s", gram_dialect_dir(), name_or_path);
  ir_source src;
  const char *name = strchr(name_or_path, '/') ? name_or_path : path;
  if (ir_source_read(&src, path) != 0) {
    int e = errno;
    if (e == ENOENT && !strchr(name_or_path, '/')) {
      unknown_dialect(name_or_path);
      return NULL;
    }
    fprintf(stderr, "%s: error: cannot read dialect: %s\n", name, ir_read_error(e));
    return NULL;
  }
  const char *fname = ir_arena_strdup(arena, name);
  gram_dialect *d = gram_parse(fname, src.text, arena);
  ir_source_free(&src);
  return d;
}

const gram_op *gram_find_op(const gram_dialect *d, const char *name) {
  for (int i = 0; i < d->nops; i++)
    if (!strcmp(d->ops[i]->name, name)) return d->ops[i];
  return NULL;
}
