/*
 * parse.c - fe_parse_file: from a C file to the loop program (ir_kernel).
 *
 * Steps: read the file and reject empty or binary input; preprocess (pp.c);
 * tokenize with positions in the original file (pp.c); find the kernel's
 * definition among the top-level functions of the user's file (brace
 * matching, so headers and other functions are skipped without being
 * parsed; the kernel_* function, --function, or the only one with loops);
 * collect the translation unit's typedefs (typedef float real_t; <stdint.h>)
 * and file-scope variable names; parse the kernel with a recursive-descent
 * parser, one function per grammar rule with its production above it; give
 * pointer parameters their shapes (delinearize); check that parameter
 * arrays' subscripts stay in their extents for all sizes (check_extents).
 *
 * Pointer parameters (float *x) are parsed with one flat index per access;
 * once the body is parsed, each pointer's accesses decide its shape: affine
 * indices give a 1-D array, indices s*Q + R with a size parameter s give
 * [M][s] with accesses [Q][R].  Shapes that would need a relation between
 * sizes (k <= lda) are refused, naming it.  Counted while loops become for
 * loops, and pointer walks (*y++ = *x++) become offsets in the flat index,
 * fixed at the end of the walking loop when its increments are known.  An
 * int local initialized with an index expression (int row = i*n;) stands
 * for that expression wherever it is used.
 *
 * Every expression is typed as it is built (usual arithmetic conversions:
 * int < float < double; integer constants in a floating context take the
 * floating type, other integers get an IR_EX_CAST).  Subscripts, array sizes
 * and loop bounds are checked to be affine and rebuilt in a canonical form
 * (sum of coefficient * variable in variable order, then the constant), so
 * `A[ni + 0]` becomes `A[ni]` and `i < n` gives the inclusive bound `n - 1`.
 *
 * The first error stops the parse: it fills the parser's ir_error (position,
 * message, what is supported instead) and the parser longjmps back to
 * fe_parse_preprocessed, which prints it with the user's original file
 * (ir_error_print), frees its scratch memory and returns NULL.  The checks
 * before the parse (file text, which kernel) report the same way.  All kernel data live in the
 * caller's arena; tokens and the preprocessed text in a scratch arena.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/fe_private.h"

#define SUP_STMT                                                             \
  "for loops, counted while loops, if/else, { } blocks, declarations of "    \
  "double/float locals, int loop iterators and int index locals, "          \
  "assignments (=, +=, -=, *=, /=, chained a = b = e) to array elements, "  \
  "*p++ and local scalars, and a final `return;` (`return EXPR;` in a "    \
  "kernel returning double or float)"
#define SUP_TYPE                                                          \
  "integer types (size parameters, loop iterators, index locals), double " \
  "and float (scalars, arrays, pointers), typedef names of these, int arrays"
#define SUP_EXPR                                                             \
  "+ - * on numbers, / on floating values, unary -, comparisons, && || !, " \
  "?:, casts (double) and (float), calls to sqrt exp pow fabs fmax fmin "    \
  "and their f variants"
#define SUP_AFFINE                                                       \
  "expressions affine in loop iterators and size parameters: integer +, " \
  "-, and multiplication by a constant"
#define SUP_FOR                                                              \
  "for (i = lo; i < hi; i++) with conditions <, <=, >, >= on the iterator " \
  "(several joined by &&) and steps i++, ++i, i += 1, i = i + 1, i--, "     \
  "--i, i -= 1"
#define SUP_PARAM                                                          \
  "integer size parameters, double/float scalars, arrays with a size in "   \
  "every dimension such as double A[n][m], and pointers such as const "     \
  "float *restrict x (const and restrict allowed)"

/* A name in scope: a variable, or an `int k;` not yet used as an iterator. */
typedef struct sym {
  const char *name;
  int var;     /* index in vars, or -1 while pending */
  int pending; /* an int local that is not (yet) an iterator */
  int prev;    /* the sym this one shadows (same name), or -1 */
  struct ir_expr *alias; /* int idx = i*n;: the initializer, used in its place */
} sym;

/* Names to ints, open addressing (keys live in the kernel's arena), so
 * that looking a name up does not walk every declaration: a block of
 * 100,000 locals parsed in quadratic time before. */
typedef struct name_map {
  const char **keys;
  int *vals;
  size_t cap, n;
} name_map;

/* A C type as the front end sees it: the IR element type plus, for
 * integers, the width and signedness the C code asked for (sizes and
 * iterators of any integer type are IR_I32; integer element data other
 * than int is refused, see elem_type). */
typedef struct ctype {
  ir_elem elem;    /* IR_F64, IR_F32, IR_I32 (every integer), IR_I1 (void) */
  int bits;        /* integers: 8, 16, 32 or 64 */
  int is_unsigned; /* integers */
  const char *name; /* the spelling for messages ("uint8_t", "int") */
  const char *bad;  /* typedefs only: why the type is unsupported, or NULL */
} ctype;

/* The file's typedefs (typedef float real_t; glibc's uint32_t, size_t):
 * names to ctypes, collected from the whole translation unit. */
typedef struct typedefs {
  name_map map; /* name -> index in types */
  ctype *types;
  int n;
} typedefs;

typedef struct parser {
  const ir_source *src;
  ir_arena *a;      /* the kernel's arena */
  const fe_tok *t;  /* tokens of the kernel function, EOF-terminated */
  int n, i;         /* number of tokens (without EOF), cursor */
  jmp_buf fail;
  ir_error err;     /* the error that stopped the parse */
  ir_kernel *k;
  ir_var **vars;
  int nvars, capvars;
  unsigned char *active; /* per var: an iterator bound by an enclosing loop */
  unsigned char *ptr;    /* per var: a pointer parameter (shape from its uses) */
  sym *syms;
  int nsyms, capsyms, scope_start;
  name_map scope;   /* name -> its innermost sym, or -1 */
  name_map names;   /* the names of vars (value unused) */
  int *params;
  int nparams;
  int nglobals;        /* file-scope arrays among the params (global_operands) */
  const fe_tok *all;   /* the whole translation unit's tokens (t: the kernel's) */
  int nall;
  int nassign;
  const char *ctx; /* "subscript", "loop bound", "array size" or NULL */
  int nest;        /* expression nesting so far (see enter) */
  int snest;       /* statement nesting so far */
  typedefs td;     /* the translation unit's typedef names */
  name_map globals; /* names of the user file's file-scope variables */
  int *dims_at;    /* per parameter: its first '[' token, or -1 (heap) */
  struct ptr_access *acs, *mine; /* delinearize's accesses (heap, see there) */
  struct poly *pf;                /* shape_pointer's index forms (heap) */
  int nacs;
  int all_arrays;  /* collect_accesses: every array, not only pointers */
  /* Pointer walks (*p++): per pointer parameter, the offset reached so far
   * (wbase) and the increments so far in the current iteration of the
   * walking loop (wcount); the accesses inside that loop wait in wpend
   * (with the increments before them in wpend_j) until its end.  All heap,
   * indexed by var id (parameters only). */
  struct aff *wbase;
  long *wcount;
  ir_expr **wpend;
  long *wpend_j;
  int nwpend, capwpend;
  ir_elem ret_elem;      /* the kernel's return type, if ret_tok */
  const fe_tok *ret_tok; /* the return type's token; NULL for void */
  int loop_depth;  /* loops around the statement being parsed */
  int cond_depth;  /* ifs around it */
  int shortc;      /* operands of && || ?: around it that may be skipped */
  int wloop;       /* a loop at depth 1 is open: walks are allowed */
  int counter;     /* sym of a while loop's counter, or -1 */
  int counter_step, counter_seen, counter_depth;
  unsigned char *dead; /* per var: a size used up as a while loop counter */
} parser;

/* ------------------------------------------------------------- errors */

static ir_pos tpos(parser *p, const fe_tok *t) {
  ir_pos pos = t->pos;
  if (!t->in_main && pos.file) pos.file = ir_arena_strdup(p->a, pos.file);
  return pos;
}

/* Fill err (ir_error convention: a user error at pos, with what is
 * supported instead, static text or NULL); returns -1. */
static int __attribute__((format(printf, 4, 5)))
fe_error(ir_error *err, ir_pos pos, const char *supported, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(err, pos, IR_ERR_INPUT, fmt, ap);
  va_end(ap);
  if (err) err->supported = supported;
  return -1;
}

static void __attribute__((noreturn, format(printf, 4, 5)))
error_pos(parser *p, ir_pos pos, const char *supported, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(&p->err, pos, IR_ERR_INPUT, fmt, ap);
  va_end(ap);
  p->err.supported = supported;
  longjmp(p->fail, 1);
}

#define error_tok(p, tk, sup, ...) error_pos((p), (tk)->pos, (sup), __VA_ARGS__)

/* Nesting limits.  Every later pass walks expressions and statements
 * recursively, so the front end bounds their depth: an expression may nest
 * FE_MAX_NEST levels (each parenthesis, unary operator, cast, '?:' and
 * each further operand of a chain such as a + b + c counts one), statements
 * FE_MAX_STMT_NEST levels of braces, loops and ifs. */
#define FE_MAX_NEST 1000
#define FE_MAX_STMT_NEST 256

/* One more level of expression nesting at token t (the caller saves and
 * restores p->nest around its own levels). */
static void enter(parser *p, const fe_tok *t) {
  if (++p->nest > FE_MAX_NEST)
    error_tok(p, t, NULL, "expression nested too deeply (limit %d)", FE_MAX_NEST);
}

/* ------------------------------------------------------------- tokens */

static const fe_tok *tok(parser *p) { return &p->t[p->i]; }
static const fe_tok *peek(parser *p, int k) {
  int j = p->i + k;
  return &p->t[j < p->n ? j : p->n];
}
static int tok_is(const fe_tok *t, const char *s) {
  return t->kind != FE_TK_EOF && t->kind != FE_TK_STR &&
         t->kind != FE_TK_CHAR && !strcmp(t->text, s);
}
static int is(parser *p, const char *s) { return tok_is(tok(p), s); }
static const fe_tok *next(parser *p) {
  const fe_tok *t = tok(p);
  if (p->i < p->n) p->i++;
  return t;
}
static int accept(parser *p, const char *s) {
  if (!is(p, s)) return 0;
  next(p);
  return 1;
}

static const char *describe(const fe_tok *t) {
  return t->kind == FE_TK_EOF ? "end of file" : t->text;
}

static void expect(parser *p, const char *s) {
  if (accept(p, s)) return;
  const fe_tok *t = tok(p);
  /* A missing ';' or ')' at the end of a line is reported after the
   * previous token, where it belongs. */
  if (p->i > 0 && p->t[p->i - 1].in_main &&
      (t->kind == FE_TK_EOF || p->t[p->i - 1].pos.line != t->pos.line)) {
    const fe_tok *prev = &p->t[p->i - 1];
    ir_pos pos = prev->pos;
    pos.col += prev->len;
    if (t->kind == FE_TK_EOF)
      error_pos(p, pos, NULL, "expected '%s' at end of file", s);
    error_pos(p, pos, NULL, "expected '%s' after '%s'", s, prev->text);
  }
  error_tok(p, t, NULL, "expected '%s' before '%s'", s, describe(t));
}

static const char *const keywords[] = {
    "for", "if", "else", "while", "do", "goto", "switch", "case", "default",
    "break", "continue", "return", "sizeof", "typedef", "struct", "union",
    "enum", "int", "double", "float", "char", "long", "short", "unsigned",
    "signed", "void", "const", "restrict", "volatile", "static", "extern",
    "register", "inline", "_Bool", "_Complex", "__complex__", "__restrict",
    "__restrict__", "auto", "_Alignas", "_Atomic", "_Thread_local",
    "__inline", "__inline__", "__extension__", "__attribute__", "asm",
    "__asm__"};

static int is_keyword(const fe_tok *t) {
  if (t->kind != FE_TK_IDENT) return 0;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (!strcmp(t->text, keywords[i])) return 1;
  return 0;
}

static const fe_tok *expect_ident(parser *p, const char *what) {
  const fe_tok *t = tok(p);
  if (t->kind != FE_TK_IDENT || is_keyword(t))
    error_tok(p, t, NULL, "expected %s before '%s'", what, describe(t));
  return next(p);
}

/* -------------------------------------------------------- variables */

static size_t name_hash(const char *s) {
  size_t h = 1469598103934665603u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

/* The value slot of key in m, or NULL if absent and !add (then added with
 * value -1). */
static int *map_slot(name_map *m, const char *key, int add) {
  if (add && 2 * (m->n + 1) > m->cap) {
    name_map old = *m;
    m->cap = old.cap ? 2 * old.cap : 64;
    m->keys = ir_calloc(m->cap, sizeof *m->keys);
    m->vals = ir_calloc(m->cap, sizeof *m->vals);
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i]) *map_slot(m, old.keys[i], 1) = old.vals[i];
    ir_free(old.keys);
    ir_free(old.vals);
  }
  if (!m->cap) return NULL;
  for (size_t i = name_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->keys[i]) {
      if (!add) return NULL;
      m->keys[i] = key;
      m->vals[i] = -1;
      m->n++;
      return &m->vals[i];
    }
    if (!strcmp(m->keys[i], key)) return &m->vals[i];
  }
}

static void map_free(name_map *m) {
  ir_free(m->keys);
  ir_free(m->vals);
}

static int lookup(parser *p, const char *name) {
  int *v = map_slot(&p->scope, name, 0);
  return v ? *v : -1;
}

static void declare(parser *p, const fe_tok *t, int var) {
  int shadowed = lookup(p, t->text);
  if (shadowed >= p->scope_start)
    error_tok(p, t, NULL, "redeclaration of '%s'", t->text);
  if (p->nsyms == p->capsyms) {
    p->capsyms = p->capsyms ? 2 * p->capsyms : 32;
    p->syms = ir_realloc(p->syms, sizeof *p->syms * (size_t)p->capsyms);
  }
  const char *name = ir_arena_strdup(p->a, t->text);
  p->syms[p->nsyms] = (sym){name, var, var < 0, shadowed, NULL};
  *map_slot(&p->scope, name, 1) = p->nsyms++;
}

/* Leave a scope: forget the syms from index n on. */
static void pop_syms(parser *p, int n) {
  while (p->nsyms > n) {
    sym *s = &p->syms[--p->nsyms];
    *map_slot(&p->scope, s->name, 0) = s->prev;
  }
}

/* ---------------------------------------------------------- C types */

static int typedef_find(typedefs *td, const char *name) {
  int *v = map_slot(&td->map, name, 0);
  return v ? *v : -1;
}

static int word_is(const fe_tok *t, const char *const *w, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(t->text, w[i])) return 1;
  return 0;
}

/* Scan the type specifiers and qualifiers at t[0..n-1] into *ct and return
 * how many tokens they take.  A typedef name counts when no other
 * specifier came before it and (p not NULL) no variable in scope shadows
 * it.  On an unsupported type sets *err (a message) and *errtok. */
static int scan_type(const fe_tok *t, int n, typedefs *td, parser *p, ir_arena *a,
                     ctype *ct, const fe_tok **errtok, const char **err) {
  static const char *const quals[] = {"const", "__const", "restrict", "__restrict",
                                      "__restrict__", "volatile", "register",
                                      "__extension__"};
  int nlong = 0, nshort = 0, nchar = 0, nint = 0, nsigned = 0, nunsigned = 0;
  int ndouble = 0, nfloat = 0, nvoid = 0, nbool = 0, i = 0;
  const ctype *named = NULL;
  const fe_tok *first = t, *lng = NULL;
  memset(ct, 0, sizeof *ct);
  *err = NULL;
  for (; i < n && t[i].kind == FE_TK_IDENT; i++) {
    const fe_tok *w = &t[i];
    const char *s = w->text;
    *errtok = w;
    if (word_is(w, quals, sizeof quals / sizeof quals[0])) continue;
    if (!strcmp(s, "struct") || !strcmp(s, "union") || !strcmp(s, "enum")) {
      *err = !strcmp(s, "struct") ? "struct types are not supported"
             : !strcmp(s, "union") ? "union types are not supported"
                                   : "enum types are not supported";
      return i;
    }
    if (!strcmp(s, "_Complex") || !strcmp(s, "__complex__")) {
      *err = "complex types are not supported";
      return i;
    }
    if (!strcmp(s, "static") || !strcmp(s, "extern") || !strcmp(s, "auto") ||
        !strcmp(s, "_Atomic")) {
      *err = ir_arena_printf(a, "'%s' is not supported", s);
      return i;
    }
    if (!strcmp(s, "long")) { nlong++; lng = w; }
    else if (!strcmp(s, "short")) nshort++;
    else if (!strcmp(s, "char")) nchar++;
    else if (!strcmp(s, "int")) nint++;
    else if (!strcmp(s, "signed") || !strcmp(s, "__signed__")) nsigned++;
    else if (!strcmp(s, "unsigned")) nunsigned++;
    else if (!strcmp(s, "double")) ndouble++;
    else if (!strcmp(s, "float")) nfloat++;
    else if (!strcmp(s, "void")) nvoid++;
    else if (!strcmp(s, "_Bool")) nbool++;
    else {
      int k = typedef_find(td, s);
      int any = nlong + nshort + nchar + nint + nsigned + nunsigned + ndouble + nfloat +
                nvoid + nbool;
      if (k < 0 || any || named || (p && lookup(p, s) >= 0)) break;
      named = &td->types[k];
      if (named->bad) {
        *err = named->bad;
        return i;
      }
    }
  }
  *errtok = first;
  if (named) {
    *ct = *named;
    return i;
  }
  int nint_words = nlong + nshort + nchar + nint + nsigned + nunsigned + nbool;
  if (ndouble + nfloat + nvoid > 1 || (nint_words && ndouble + nfloat + nvoid > 0 &&
                                       !(ndouble && nlong == 1 && nint_words == 1))) {
    *err = "invalid combination of type specifiers";
    return i;
  }
  if (ndouble && nlong) {
    *errtok = lng;
    *err = "long double is not supported";
    return i;
  }
  if (ndouble) { ct->elem = IR_F64; ct->name = "double"; return i; }
  if (nfloat) { ct->elem = IR_F32; ct->name = "float"; return i; }
  if (nvoid) { ct->elem = IR_I1; ct->name = "void"; return i; }
  if (!nint_words) {
    if (i < n && t[i].kind == FE_TK_IDENT && i + 1 < n && t[i + 1].kind == FE_TK_IDENT) {
      *errtok = &t[i];
      *err = ir_arena_printf(a, "unsupported type '%s'", t[i].text);
    } else {
      *err = ir_arena_printf(a, "expected a type before '%s'",
                             t[0].kind == FE_TK_EOF ? "end of file" : t[0].text);
    }
    return i;
  }
  ct->elem = IR_I32;
  ct->is_unsigned = nunsigned > 0 || nbool > 0;
  ct->bits = nbool ? 8 : nchar ? 8 : nshort ? 16 : nlong ? 64 : 32;
  static const char *const names[2][4] = {{"signed char", "short", "int", "long"},
                                          {"unsigned char", "unsigned short",
                                           "unsigned int", "unsigned long"}};
  int w = ct->bits == 8 ? 0 : ct->bits == 16 ? 1 : ct->bits == 32 ? 2 : 3;
  ct->name = nbool ? "_Bool" : names[ct->is_unsigned][w];
  return i;
}

/* Collect the typedefs at file scope of the whole translation unit (headers
 * included) into td: `typedef SPECIFIERS NAME;` gets the specifiers' type,
 * any other typedef (struct, array, pointer, function) a type that is
 * refused with a reason when the kernel uses it.  Names are arena copies. */
static void typedefs_collect(typedefs *td, const fe_tok *t, int n, ir_arena *a) {
  int depth = 0, cap = 0;
  for (int i = 0; i < n; i++) {
    if (tok_is(&t[i], "{")) depth++;
    if (tok_is(&t[i], "}") && depth > 0) depth--;
    if (depth || !tok_is(&t[i], "typedef")) continue;
    int end = i + 1, d = 0;
    while (end < n && !(d == 0 && tok_is(&t[end], ";"))) {
      if (tok_is(&t[end], "{") || tok_is(&t[end], "(") || tok_is(&t[end], "[")) d++;
      if (tok_is(&t[end], "}") || tok_is(&t[end], ")") || tok_is(&t[end], "]")) d--;
      end++;
    }
    if (end >= n || end - 1 <= i || t[end - 1].kind != FE_TK_IDENT) continue;
    const fe_tok *name = &t[end - 1];
    ctype ct;
    const fe_tok *errtok;
    const char *err;
    int used = scan_type(t + i + 1, end - 1 - (i + 1), td, NULL, a, &ct, &errtok, &err);
    if (err || i + 1 + used != end - 1 || ct.elem == IR_I1) {
      memset(&ct, 0, sizeof ct);
      ct.bad = ir_arena_printf(a, "the type '%s' is not supported (it is not a "
                                  "floating or integer type)", name->text);
    }
    if (ct.elem == IR_I32 || ct.bad) ct.name = ir_arena_strdup(a, name->text);
    if (td->n == cap) {
      cap = cap ? 2 * cap : 64;
      td->types = ir_realloc(td->types, sizeof *td->types * (size_t)cap);
    }
    td->types[td->n] = ct;
    *map_slot(&td->map, ir_arena_strdup(a, name->text), 1) = td->n++;
    i = end;
  }
}

static int name_used(parser *p, const char *name) {
  return map_slot(&p->names, name, 0) != NULL;
}

/* A new variable; its name is made unique among the kernel's variables
 * (a shadowing declaration `double s` in a second scope becomes s_2). */
static int new_var(parser *p, ir_var_kind kind, const fe_tok *t, ir_elem elem) {
  if (p->nvars == p->capvars) {
    p->capvars = p->capvars ? 2 * p->capvars : 32;
    p->vars = ir_realloc(p->vars, sizeof *p->vars * (size_t)p->capvars);
    p->active = ir_realloc(p->active, (size_t)p->capvars);
    p->ptr = ir_realloc(p->ptr, (size_t)p->capvars);
    p->dead = ir_realloc(p->dead, (size_t)p->capvars);
  }
  ir_var *v = IR_NEW(p->a, ir_var);
  v->kind = kind;
  v->id = p->nvars;
  v->name = ir_arena_strdup(p->a, t->text);
  for (int n = 2; name_used(p, v->name); n++)
    v->name = ir_arena_printf(p->a, "%s_%d", t->text, n);
  map_slot(&p->names, v->name, 1);
  v->elem = elem;
  v->param_index = -1;
  v->pos = tpos(p, t);
  p->active[p->nvars] = 0;
  p->ptr[p->nvars] = 0;
  p->dead[p->nvars] = 0;
  p->vars[p->nvars++] = v;
  p->k->vars = p->vars;
  p->k->nvars = p->nvars;
  return v->id;
}

/* ---------------------------------------------------------- expressions */

static ir_expr *mk(parser *p, ir_expr_kind kind, ir_elem type, ir_pos pos,
                   int nargs, ir_expr *a0, ir_expr *a1, ir_expr *a2) {
  ir_expr *e = IR_NEW(p->a, ir_expr);
  e->kind = kind;
  e->type = type;
  e->pos = pos;
  e->nargs = nargs;
  if (nargs) {
    e->args = IR_NEW_N(p->a, ir_expr *, nargs);
    ir_expr *v[3] = {a0, a1, a2};
    for (int i = 0; i < nargs && i < 3; i++) e->args[i] = v[i];
  }
  return e;
}

static ir_expr *mk_const(parser *p, double value, int is_int, ir_elem type,
                         ir_pos pos) {
  ir_expr *e = mk(p, IR_EX_CONST, type, pos, 0, NULL, NULL, NULL);
  e->value = value;
  e->is_int = is_int;
  return e;
}

static ir_expr *mk_var(parser *p, int var, ir_pos pos) {
  ir_expr *e = mk(p, IR_EX_VAR, p->vars[var]->elem, pos, 0, NULL, NULL, NULL);
  e->var = var;
  return e;
}

/* An order of element types for the kernel's data type (widest): floating
 * above integers, wider integers above narrower, unsigned above signed. */
static int elem_rank(ir_elem e) {
  if (e == IR_F64) return 200;
  if (e == IR_F32) return 199;
  if (e == IR_I1) return 0;
  return 2 * ir_elem_bits(e) + !ir_elem_is_signed(e);
}

/* e converted to type t: constants are retyped, anything else is cast.
 * A floating value converted to integer data is C's truncation toward
 * zero, undefined where the value is out of the type's range (C11
 * 6.3.1.4); the interpreter, the verifier and the emitters take the cast
 * so (docs/verify.md, "Integer data"). */
static ir_expr *convert(parser *p, ir_expr *e, ir_elem t) {
  if (e->type == t) return e;
  if (e->kind == IR_EX_CONST && (ir_elem_is_float(t) || e->is_int)) {
    /* an integer constant converted as C converts it (modulo 2^N) */
    ir_expr *c = mk_const(p, ir_elem_is_int(t) ? ir_elem_wrap(t, e->value) : e->value,
                          e->is_int, t, e->pos);
    return c;
  }
  return mk(p, IR_EX_CAST, t, e->pos, 1, e, NULL, NULL);
}

/* e as a condition: comparisons stay, anything else becomes e != 0. */
static ir_expr *to_bool(parser *p, ir_expr *e) {
  if (e->type == IR_I1) return e;
  return mk(p, IR_EX_NE, IR_I1, e->pos, 2, e,
            mk_const(p, 0, 1, e->type, e->pos), NULL);
}

/* The type of a binary operation on a and b: C's usual arithmetic
 * conversions, after the integer promotions (u8 + u8 is an int add). */
static ir_elem arith_type(ir_expr *a, ir_expr *b) {
  return ir_elem_common(a->type, b->type);
}

static ir_expr *binary(parser *p, ir_expr_kind kind, const fe_tok *op,
                       ir_expr *a, ir_expr *b) {
  ir_elem t = arith_type(a, b);
  if (kind == IR_EX_DIV && !ir_elem_is_float(t)) {
    if (p->ctx)
      error_tok(p, op, SUP_AFFINE,
                "non-affine %s: integer division is not supported", p->ctx);
    error_tok(p, op, "'/' on floating-point values",
              "integer division is not supported");
  }
  a = convert(p, a, t);
  b = convert(p, b, t);
  int cmp = kind >= IR_EX_LT && kind <= IR_EX_NE;
  return mk(p, kind, cmp ? IR_I1 : t, tpos(p, op), 2, a, b, NULL);
}

/* Print an expression into the arena (for messages). */
static const char *expr_str(parser *p, const ir_expr *e) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  if (!f) return "expression";
  ir_expr_print(p->k, e, f);
  fclose(f);
  const char *r = ir_arena_strdup(p->a, s ? s : "");
  free(s);
  return r;
}

/* ----------------------------------------------------------- affine forms */

#define AFF_MAX 16
typedef struct aff {
  long c;
  int n;
  int var[AFF_MAX];
  long coef[AFF_MAX];
} aff;

static void aff_term(aff *f, int var, long coef) {
  for (int i = 0; i < f->n; i++)
    if (f->var[i] == var) {
      f->coef[i] += coef;
      return;
    }
  if (f->n < AFF_MAX) {
    f->var[f->n] = var;
    f->coef[f->n++] = coef;
  }
}

static void aff_addf(aff *f, const aff *g, long s) {
  f->c += s * g->c;
  for (int i = 0; i < g->n; i++) aff_term(f, g->var[i], s * g->coef[i]);
}

static long aff_coef(const aff *f, int var) {
  for (int i = 0; i < f->n; i++)
    if (f->var[i] == var) return f->coef[i];
  return 0;
}

static int aff_is_const(const aff *f) {
  for (int i = 0; i < f->n; i++)
    if (f->coef[i]) return 0;
  return 1;
}

/* The affine form of e over size parameters and iterators (and only size
 * parameters when sizes_only); on failure returns the offending node. */
static const ir_expr *aff_of(parser *p, const ir_expr *e, int sizes_only,
                             aff *out) {
  memset(out, 0, sizeof *out);
  if (e->type != IR_I32) return e;
  aff a, b;
  const ir_expr *bad;
  switch (e->kind) {
  case IR_EX_CONST:
    out->c = (long)e->value;
    return NULL;
  case IR_EX_VAR: {
    ir_var_kind k = p->vars[e->var]->kind;
    if (k != IR_VAR_SIZE && (sizes_only || k != IR_VAR_ITER)) return e;
    aff_term(out, e->var, 1);
    return NULL;
  }
  case IR_EX_NEG:
    if ((bad = aff_of(p, e->args[0], sizes_only, &a))) return bad;
    aff_addf(out, &a, -1);
    return NULL;
  case IR_EX_ADD:
  case IR_EX_SUB:
    if ((bad = aff_of(p, e->args[0], sizes_only, &a))) return bad;
    if ((bad = aff_of(p, e->args[1], sizes_only, &b))) return bad;
    aff_addf(out, &a, 1);
    aff_addf(out, &b, e->kind == IR_EX_ADD ? 1 : -1);
    return NULL;
  case IR_EX_MUL:
    if ((bad = aff_of(p, e->args[0], sizes_only, &a))) return bad;
    if ((bad = aff_of(p, e->args[1], sizes_only, &b))) return bad;
    if (aff_is_const(&a)) {
      aff_addf(out, &b, a.c);
    } else if (aff_is_const(&b)) {
      aff_addf(out, &a, b.c);
    } else {
      return e;
    }
    return NULL;
  default:
    return e;
  }
}

static int cmp_int(const void *x, const void *y) {
  return *(const int *)x - *(const int *)y;
}

/* The canonical expression of an affine form: terms in variable order,
 * then the constant (`n - i - 1`). */
static ir_expr *aff_build(parser *p, const aff *f, ir_pos pos) {
  int order[AFF_MAX], n = 0;
  for (int i = 0; i < f->n; i++)
    if (f->coef[i]) order[n++] = f->var[i];
  qsort(order, (size_t)n, sizeof *order, cmp_int);
  ir_expr *acc = NULL;
  for (int i = 0; i < n; i++) {
    long c = aff_coef(f, order[i]);
    long m = c < 0 ? -c : c;
    ir_expr *term = mk_var(p, order[i], pos);
    if (m != 1)
      term = mk(p, IR_EX_MUL, IR_I32, pos, 2, mk_const(p, (double)m, 1, IR_I32, pos),
                term, NULL);
    if (!acc)
      acc = c < 0 ? mk(p, IR_EX_NEG, IR_I32, pos, 1, term, NULL, NULL) : term;
    else
      acc = mk(p, c < 0 ? IR_EX_SUB : IR_EX_ADD, IR_I32, pos, 2, acc, term, NULL);
  }
  if (!acc) return mk_const(p, (double)f->c, 1, IR_I32, pos);
  if (f->c)
    acc = mk(p, f->c < 0 ? IR_EX_SUB : IR_EX_ADD, IR_I32, pos, 2, acc,
             mk_const(p, (double)(f->c < 0 ? -f->c : f->c), 1, IR_I32, pos), NULL);
  return acc;
}

/* Check that e is affine (what: "subscript", "loop bound", "array size")
 * and return its affine form in *f. */
static void need_affine(parser *p, const ir_expr *e, int sizes_only,
                        const char *what, aff *f) {
  if (e->type != IR_I32) {
    if (e->kind == IR_EX_ELEM)
      error_pos(p, e->pos, SUP_AFFINE,
                "non-affine %s: indexing through the array element '%s' is "
                "not supported", what, expr_str(p, e));
    error_pos(p, e->pos, SUP_AFFINE,
              "non-affine %s: '%s' is not an integer expression", what,
              expr_str(p, e));
  }
  const ir_expr *bad = aff_of(p, e, sizes_only, f);
  if (!bad) return;
  if (bad->kind == IR_EX_VAR && sizes_only &&
      p->vars[bad->var]->kind == IR_VAR_ITER)
    error_pos(p, bad->pos, "array sizes affine in size parameters",
              "non-affine %s: '%s' is a loop iterator", what,
              p->vars[bad->var]->name);
  error_pos(p, bad->pos, SUP_AFFINE,
            "non-affine %s: '%s' is not affine in %s", what, expr_str(p, bad),
            sizes_only ? "size parameters" : "loop iterators and size parameters");
}

static ir_expr *parse_expr(parser *p);
static ir_expr *parse_cond(parser *p);
static ir_expr *parse_cast(parser *p);

/* The pointer access e (its args[0] the index as written) moved by the
 * pointer's walk so far: outside a walking loop the offset is added now;
 * inside one the access waits for the loop's end (walk_end), when the
 * increments per iteration are known. */
static ir_expr *walk_access(parser *p, ir_expr *e) {
  int var = e->var;
  if (p->wloop) {
    if (p->nwpend == p->capwpend) {
      p->capwpend = p->capwpend ? 2 * p->capwpend : 16;
      p->wpend = ir_realloc(p->wpend, sizeof *p->wpend * (size_t)p->capwpend);
      p->wpend_j = ir_realloc(p->wpend_j, sizeof *p->wpend_j * (size_t)p->capwpend);
    }
    p->wpend[p->nwpend] = e;
    p->wpend_j[p->nwpend++] = p->wcount[var];
    return e;
  }
  const aff *b = &p->wbase[var];
  if (!aff_is_const(b) || b->c)
    e->args[0] = mk(p, IR_EX_ADD, IR_I32, e->pos, 2, e->args[0], aff_build(p, b, e->pos), NULL);
  return e;
}

/* The pointer parameter named by t moves by d elements (p++, *p++, p += 2). */
static void walk_step(parser *p, const fe_tok *t, int var, long d) {
  if (p->cond_depth || p->shortc || p->loop_depth > 1 || (p->loop_depth == 1 && !p->wloop))
    error_tok(p, t, "pointer increments in a loop that is not nested in another "
              "and not under an if (while (n--) *y++ = *x++;)",
              "the pointer '%s' is incremented %s", p->vars[var]->name,
              p->cond_depth ? "under an if"
              : p->shortc   ? "in an operand of &&, || or ?: that may not be evaluated"
              : p->loop_depth > 1 ? "in a nested loop"
                                  : "in a downward loop");
  if (p->loop_depth) p->wcount[var] += d;
  else p->wbase[var].c += d;
}

/* deref: '*' ident ('++')?  |  '*' '(' ident '+' expr ')'  : an element of a
 * pointer parameter (*p is p[0]; *p++ also moves p on by one). */
static ir_expr *parse_deref(parser *p) {
  const fe_tok *star = next(p);
  int paren = accept(p, "(");
  const fe_tok *t = tok(p);
  int s = t->kind == FE_TK_IDENT ? lookup(p, t->text) : -1;
  if (s < 0 || p->syms[s].var < 0 || !p->ptr[p->syms[s].var])
    error_tok(p, star, "*p, *p++ and *(p + i) on pointer parameters",
              "pointer dereference is supported only on pointer parameters");
  int var = p->syms[s].var;
  next(p);
  ir_expr *idx = mk_const(p, 0, 1, IR_I32, tpos(p, t));
  if (paren) {
    if (accept(p, "+")) {
      const char *old = p->ctx;
      p->ctx = "subscript";
      idx = parse_expr(p);
      p->ctx = old;
      if (idx->type != IR_I32) need_affine(p, idx, 0, "subscript", &(aff){0});
    }
    expect(p, ")");
  }
  ir_expr *e = mk(p, IR_EX_ELEM, p->vars[var]->elem, tpos(p, t), 1, idx, NULL, NULL);
  e->var = var;
  e = walk_access(p, e);
  if (!paren && is(p, "++")) {
    walk_step(p, tok(p), var, 1);
    next(p);
  }
  return e;
}

/* At the end of the walking loop l (at depth 1, iterator from lo upward):
 * every access waiting in it gets offset wbase + K * (iter - lo) + j, K the
 * pointer's increments per iteration; then wbase moves on by K * trips. */
static void walk_end(parser *p, const ir_stmt *l) {
  aff lo, hi;
  int any = 0;
  for (int v = 0; v < p->nparams; v++) any |= p->wcount[p->params[v]] != 0;
  if (p->nwpend == 0 && !any) return;
  const ir_expr *bad = aff_of(p, l->lo, 1, &lo);
  if (!bad) bad = aff_of(p, l->hi, 1, &hi);
  if (bad && any)
    error_pos(p, l->pos, "pointer walks in loops whose bounds are affine in sizes",
              "cannot count the iterations of a loop that walks a pointer");
  for (int k = 0; k < p->nwpend; k++) {
    ir_expr *e = p->wpend[k];
    aff off = p->wbase[e->var];
    long K = p->wcount[e->var];
    off.c += p->wpend_j[k];
    if (K) {
      aff_term(&off, l->iter, K);
      aff_addf(&off, &lo, -K);
    }
    if (!aff_is_const(&off) || off.c)
      e->args[0] = mk(p, IR_EX_ADD, IR_I32, e->pos, 2, e->args[0], aff_build(p, &off, e->pos),
                      NULL);
  }
  p->nwpend = 0;
  for (int v = 0; v < p->nparams; v++) {
    int var = p->params[v];
    long K = p->wcount[var];
    if (!K) continue;
    aff_addf(&p->wbase[var], &hi, K);
    aff_addf(&p->wbase[var], &lo, -K);
    p->wbase[var].c += K;
    p->wcount[var] = 0;
  }
}

/* pointer-subscript: '[' expr ']'  (one flat integer index, kept as written
 * until delinearize() gives the pointer its shape) */
static ir_expr *parse_flat_subscript(parser *p, int var, const fe_tok *name) {
  ir_var *v = p->vars[var];
  ir_expr *e = mk(p, IR_EX_ELEM, v->elem, tpos(p, name), 1, NULL, NULL, NULL);
  e->var = var;
  if (!is(p, "["))
    error_tok(p, tok(p), "pointer elements such as x[i] or a[i*n + j]",
              "the pointer '%s' is used without a subscript", v->name);
  next(p);
  const char *old = p->ctx;
  p->ctx = "subscript";
  ir_expr *s = parse_expr(p);
  p->ctx = old;
  if (s->type != IR_I32)
    need_affine(p, s, 0, "subscript", &(aff){0});
  e->args[0] = s;
  expect(p, "]");
  if (is(p, "["))
    error_tok(p, tok(p), "one subscript on a pointer (a[i*n + j])",
              "too many subscripts: '%s' is a pointer", v->name);
  return walk_access(p, e);
}

/* subscripts: ('[' expr ']')^rank, each affine */
static ir_expr *parse_subscripts(parser *p, int var, const fe_tok *name) {
  ir_var *v = p->vars[var];
  if (p->ptr[var]) return parse_flat_subscript(p, var, name);
  ir_expr *e = mk(p, IR_EX_ELEM, v->elem, tpos(p, name), v->rank, NULL, NULL, NULL);
  e->var = var;
  for (int d = 0; d < v->rank; d++) {
    if (!is(p, "["))
      error_tok(p, tok(p), "array elements with one subscript per dimension",
                "array '%s' has %d dimension%s but %d subscript%s given",
                v->name, v->rank, v->rank > 1 ? "s" : "", d, d == 1 ? " is" : "s are");
    next(p);
    const char *old = p->ctx;
    p->ctx = "subscript";
    ir_expr *s = parse_expr(p);
    p->ctx = old;
    aff f;
    need_affine(p, s, 0, "subscript", &f);
    e->args[d] = aff_build(p, &f, s->pos);
    expect(p, "]");
  }
  if (is(p, "["))
    error_tok(p, tok(p), NULL, "too many subscripts: array '%s' has %d dimension%s",
              v->name, v->rank, v->rank > 1 ? "s" : "");
  return e;
}

static const struct {
  const char *name;
  ir_fn fn;
  ir_elem type;
  int nargs;
} math_fns[] = {
    {"sqrt", IR_FN_SQRT, IR_F64, 1}, {"sqrtf", IR_FN_SQRT, IR_F32, 1},
    {"exp", IR_FN_EXP, IR_F64, 1},   {"expf", IR_FN_EXP, IR_F32, 1},
    {"pow", IR_FN_POW, IR_F64, 2},   {"powf", IR_FN_POW, IR_F32, 2},
    {"fabs", IR_FN_FABS, IR_F64, 1}, {"fabsf", IR_FN_FABS, IR_F32, 1},
    {"fmax", IR_FN_FMAX, IR_F64, 2}, {"fmaxf", IR_FN_FMAX, IR_F32, 2},
    {"fmin", IR_FN_FMIN, IR_F64, 2}, {"fminf", IR_FN_FMIN, IR_F32, 2},
};

/* The builtins glibc's <math.h> expands INFINITY, HUGE_VALF and HUGE_VAL
 * to: an infinity of their type. */
static const struct {
  const char *name;
  ir_elem type;
} inf_builtins[] = {
    {"__builtin_inff", IR_F32},
    {"__builtin_huge_valf", IR_F32},
    {"__builtin_inf", IR_F64},
    {"__builtin_huge_val", IR_F64},
};

/* call: math-function '(' cond (',' cond)* ')'
 *     | inf-builtin '(' ')' */
static ir_expr *parse_call(parser *p, const fe_tok *name) {
  for (size_t i = 0; i < sizeof inf_builtins / sizeof inf_builtins[0]; i++)
    if (!strcmp(name->text, inf_builtins[i].name)) {
      next(p); /* ( */
      expect(p, ")");
      return mk_const(p, INFINITY, 0, inf_builtins[i].type, tpos(p, name));
    }
  int f = -1;
  for (size_t i = 0; i < sizeof math_fns / sizeof math_fns[0]; i++)
    if (!strcmp(name->text, math_fns[i].name)) f = (int)i;
  if (f < 0) error_tok(p, name, SUP_EXPR, "call to '%s' is not supported", name->text);
  next(p); /* ( */
  ir_expr *e = mk(p, IR_EX_CALL, math_fns[f].type, tpos(p, name), math_fns[f].nargs,
                  NULL, NULL, NULL);
  e->fn = math_fns[f].fn;
  int n = 0;
  if (!is(p, ")")) {
    do {
      ir_expr *a = parse_cond(p);
      if (n < math_fns[f].nargs) {
        if (a->type == IR_I1) a = convert(p, a, IR_I32);
        e->args[n] = convert(p, a, math_fns[f].type);
      }
      n++;
    } while (accept(p, ","));
  }
  if (n != math_fns[f].nargs)
    error_tok(p, name, NULL, "'%s' takes %d argument%s, not %d", name->text,
              math_fns[f].nargs, math_fns[f].nargs > 1 ? "s" : "", n);
  expect(p, ")");
  return e;
}

static ir_expr *parse_number(parser *p) {
  const fe_tok *t = next(p);
  const char *s = t->text;
  ir_pos pos = tpos(p, t);
  int is_float = 0;
  if (!(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
    is_float = strpbrk(s, ".eE") != NULL;
  else
    is_float = strpbrk(s, ".pP") != NULL;
  char *end;
  errno = 0;
  if (is_float) {
    double v = strtod(s, &end);
    ir_elem type = IR_F64;
    if (*end == 'f' || *end == 'F') {
      type = IR_F32;
      end++;
    } else if (*end == 'l' || *end == 'L') {
      error_tok(p, t, "double and float constants", "long double constants are not supported");
    }
    if (*end) error_tok(p, t, NULL, "invalid number '%s'", s);
    return mk_const(p, v, 0, type, pos);
  }
  unsigned long long v = strtoull(s, &end, 0);
  int nu = 0, nl = 0;
  for (; *end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'; end++)
    *end == 'u' || *end == 'U' ? nu++ : nl++;
  if (*end || nu > 1 || nl > 2) error_tok(p, t, NULL, "invalid number '%s'", s);
  /* the type C gives it: int, or unsigned with a 'u' suffix, long past
   * their range or with an 'l' (a decimal literal without 'u' never
   * becomes unsigned) */
  ir_elem ty = nu ? (nl || v > UINT_MAX ? IR_U64 : IR_U32) : (nl || v > INT_MAX ? IR_I64 : IR_I32);
  if (errno == ERANGE || (!nu && v > LONG_MAX) || v > (1ull << 53))
    error_tok(p, t, "integer constants up to 2^53", "integer constant '%s' is too large", s);
  return mk_const(p, (double)v, 1, ty, pos);
}

/* Report an unknown identifier at t (a file-scope variable gets its own
 * message). */
static void __attribute__((noreturn)) unknown_ident(parser *p, const fe_tok *t) {
  if (map_slot(&p->globals, t->text, 0))
    error_tok(p, t, "arrays and scalars passed as parameters",
              "the file-scope variable '%s' is used by the kernel: file-scope "
              "scalars, const arrays and arrays without a size are not supported as "
              "operands (pass it as a parameter)",
              t->text);
  error_tok(p, t, NULL, "unknown identifier '%s'", t->text);
}

/* primary: number | ident | ident subscripts | call | '(' expr ')' */
static ir_expr *parse_primary(parser *p) {
  const fe_tok *t = tok(p);
  if (t->kind == FE_TK_NUM) return parse_number(p);
  if (accept(p, "(")) {
    ir_expr *e = parse_expr(p);
    expect(p, ")");
    return e;
  }
  if (t->kind == FE_TK_STR || t->kind == FE_TK_CHAR)
    error_tok(p, t, SUP_EXPR, "%s literals are not supported",
              t->kind == FE_TK_STR ? "string" : "character");
  if (t->kind != FE_TK_IDENT || is_keyword(t))
    error_tok(p, t, NULL, "expected an expression before '%s'", describe(t));
  if (tok_is(peek(p, 1), "(")) {
    if (lookup(p, t->text) >= 0)
      error_tok(p, t, SUP_EXPR, "'%s' is not a function", t->text);
    next(p);
    return parse_call(p, t);
  }
  next(p);
  int s = lookup(p, t->text);
  if (s < 0) unknown_ident(p, t);
  if (p->syms[s].alias) return p->syms[s].alias;
  if (p->syms[s].pending)
    error_tok(p, t, "int locals as loop iterators, used inside their loop, and int "
              "locals initialized once with an index expression (int idx = i*n;)",
              "the int local '%s' is not the iterator of an enclosing loop", t->text);

  int var = p->syms[s].var;
  ir_var *v = p->vars[var];
  if (p->dead[var])
    error_tok(p, t, "sizes used as while loop counters only before the loop",
              "the size '%s' was counted down by a while loop above: its value "
              "here is not kept", t->text);
  if (v->kind == IR_VAR_ITER && !p->active[var])
    error_tok(p, t, "loop iterators used inside their loop",
              "loop iterator '%s' is used outside a loop over it", t->text);
  if (v->rank > 0 || p->ptr[var]) return parse_subscripts(p, var, t);
  if (is(p, "["))
    error_tok(p, tok(p), NULL, "'%s' is not an array", t->text);
  return mk_var(p, var, tpos(p, t));
}

/* postfix: primary ('.' | '->' | '++' | '--' are rejected) */
static ir_expr *parse_postfix(parser *p) {
  ir_expr *e = parse_primary(p);
  if (is(p, ".") || is(p, "->"))
    error_tok(p, tok(p), SUP_TYPE, "struct member access is not supported");
  if (is(p, "++") || is(p, "--"))
    error_tok(p, tok(p), SUP_STMT, "'%s' inside an expression is not supported",
              tok(p)->text);
  if (is(p, "("))
    error_tok(p, tok(p), SUP_EXPR, "calling an expression is not supported");
  return e;
}

/* unary: ('-' | '+' | '!') cast | postfix */
static ir_expr *parse_unary(parser *p) {
  const fe_tok *t = tok(p);
  if (accept(p, "-")) {
    ir_expr *a = parse_cast(p);
    a = convert(p, a, ir_elem_promote(a->type)); /* -u8 is an int negation */
    if (a->kind == IR_EX_CONST) {
      ir_expr *c = mk_const(p, -a->value, a->is_int, a->type, tpos(p, t));
      return c;
    }
    return mk(p, IR_EX_NEG, a->type, tpos(p, t), 1, a, NULL, NULL);
  }
  if (accept(p, "+")) return parse_cast(p);
  if (accept(p, "!")) {
    ir_expr *a = to_bool(p, parse_cast(p));
    return mk(p, IR_EX_NOT, IR_I1, tpos(p, t), 1, a, NULL, NULL);
  }
  if (is(p, "&"))
    error_tok(p, t, SUP_EXPR, "taking an address with '&' is not supported");
  if (is(p, "*")) return parse_deref(p);
  if (is(p, "~"))
    error_tok(p, t, SUP_EXPR, "bitwise operators are not supported");
  if (is(p, "++") || is(p, "--"))
    error_tok(p, t, SUP_STMT, "'%s' inside an expression is not supported", t->text);
  if (is(p, "sizeof"))
    error_tok(p, t, SUP_EXPR, "sizeof is not supported");
  return parse_postfix(p);
}

static int is_type_start(parser *p, const fe_tok *t);
static ir_elem parse_type(parser *p, int allow_void);
static void parse_ctype(parser *p, int allow_void, ctype *ct);

static ir_expr *parse_cast_at(parser *p);
/* the binary chains; their wrappers undo the chain's nesting levels */
static ir_expr *parse_mul_chain(parser *p);
static ir_expr *parse_add_chain(parser *p);
static ir_expr *parse_shift_chain(parser *p);
static ir_expr *parse_rel_chain(parser *p);
static ir_expr *parse_eq_chain(parser *p);
static ir_expr *parse_land_chain(parser *p);
static ir_expr *parse_lor_chain(parser *p);

/* Is e made of integer constants, size parameters and iterators only? */
static int index_only(parser *p, const ir_expr *e) {
  if (e->kind == IR_EX_ELEM) return 0;
  if (e->kind == IR_EX_VAR && p->vars[e->var]->kind != IR_VAR_SIZE &&
      p->vars[e->var]->kind != IR_VAR_ITER)
    return 0;
  if (e->kind == IR_EX_CONST && !e->is_int) return 0;
  for (int i = 0; i < e->nargs; i++)
    if (!index_only(p, e->args[i])) return 0;
  return 1;
}

/* cast: '(' type ')' cast | unary */
static ir_expr *parse_cast(parser *p) {
  int save = p->nest;
  enter(p, tok(p));
  ir_expr *e = parse_cast_at(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_cast_at(parser *p) {
  if (is(p, "(") && is_type_start(p, peek(p, 1))) {
    const fe_tok *t = next(p);
    const fe_tok *ty = tok(p);
    ctype ct;
    parse_ctype(p, 0, &ct);
    ir_elem e = ct.elem;
    if (is(p, "*"))
      error_tok(p, tok(p), SUP_EXPR, "pointer casts are not supported");
    expect(p, ")");
    if (!ir_elem_is_float(e)) {
      if (ct.bits == 8 && ct.is_unsigned && !strcmp(ct.name, "_Bool"))
        error_tok(p, ty, SUP_EXPR, "casts to '%s' are not supported", ct.name);
      e = ir_elem_int(ct.bits, !ct.is_unsigned);
      ir_expr *a = parse_cast(p);
      if (a->type == IR_I1) a = convert(p, a, IR_I32);
      if (ir_elem_is_float(a->type) && a->kind != IR_EX_CONST)
        error_tok(p, ty, "casts of integer values, and (double), (float)",
                  "casting a floating value to '%s' is not supported (write the "
                  "conversion as a store into integer data)", ct.name);
      /* an index expression (sizes, iterators) cast to a wide integer type
       * ((size_t)i * n) keeps its value: it stays an index expression */
      if (a->type == IR_I32 && ir_elem_bits(e) >= 32 && index_only(p, a)) return a;
      return convert(p, a, e);
    }
    const fe_tok *num = tok(p);
    if (num->kind == FE_TK_NUM && num->len > 1 && strchr("lL", num->text[num->len - 1]) &&
        strpbrk(num->text, ".eEpP")) {
      /* (double)1.797...e+308L, as <float.h> writes DBL_MAX: the long
       * double constant rounded once to the cast's type */
      next(p);
      long double v = strtold(num->text, NULL);
      return mk_const(p, e == IR_F32 ? (double)(float)v : (double)v, 0, e, tpos(p, num));
    }
    ir_expr *a = parse_cast(p);
    if (a->type == e) return a;
    if (a->type == IR_I1) a = convert(p, a, IR_I32);
    return mk(p, IR_EX_CAST, e, tpos(p, t), 1, a, NULL, NULL);
  }
  return parse_unary(p);
}

/* mul: cast (('*' | '/') cast)*  ('%' is rejected) */
static ir_expr *parse_mul(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_mul_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_mul_chain(parser *p) {
  ir_expr *e = parse_cast(p);
  for (;;) {
    const fe_tok *t = tok(p);
    enter(p, t);
    if (accept(p, "*"))
      e = binary(p, IR_EX_MUL, t, e, parse_cast(p));
    else if (accept(p, "/"))
      e = binary(p, IR_EX_DIV, t, e, parse_cast(p));
    else if (is(p, "%")) {
      if (p->ctx)
        error_tok(p, t, SUP_AFFINE, "non-affine %s: the '%%' operator is not supported",
                  p->ctx);
      error_tok(p, t, SUP_EXPR, "the '%%' operator is not supported");
    } else
      return e;
  }
}

/* add: mul (('+' | '-') mul)* */
static ir_expr *parse_add(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_add_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_add_chain(parser *p) {
  ir_expr *e = parse_mul(p);
  for (;;) {
    const fe_tok *t = tok(p);
    enter(p, t);
    if (accept(p, "+"))
      e = binary(p, IR_EX_ADD, t, e, parse_mul(p));
    else if (accept(p, "-"))
      e = binary(p, IR_EX_SUB, t, e, parse_mul(p));
    else
      return e;
  }
}

/* shift: add (('<<' | '>>') add)*  (integer operands; the result has the
 * promoted type of the left one) */
static ir_expr *parse_shift(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_shift_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_shift_chain(parser *p) {
  ir_expr *e = parse_add(p);
  for (;;) {
    const fe_tok *t = tok(p);
    enter(p, t);
    ir_expr_kind k;
    if (accept(p, "<<")) k = IR_EX_SHL;
    else if (accept(p, ">>")) k = IR_EX_SHR;
    else return e;
    if (p->ctx)
      error_tok(p, t, SUP_AFFINE, "non-affine %s: shift operators are not supported", p->ctx);
    ir_expr *b = parse_add(p);
    if (!ir_elem_is_int(ir_elem_promote(e->type)) || !ir_elem_is_int(ir_elem_promote(b->type)))
      error_tok(p, t, "'<<' and '>>' on integer values",
                "'%s' needs integer operands", t->text);
    ir_elem ty = ir_elem_promote(e->type);
    e = mk(p, k, ty, tpos(p, t), 2, convert(p, e, ty), convert(p, b, ty), NULL);
  }
}

/* rel: shift (('<' | '<=' | '>' | '>=') shift)* */
static ir_expr *parse_rel(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_rel_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_rel_chain(parser *p) {
  ir_expr *e = parse_shift(p);
  for (;;) {
    const fe_tok *t = tok(p);
    enter(p, t);
    ir_expr_kind k;
    if (accept(p, "<")) k = IR_EX_LT;
    else if (accept(p, "<=")) k = IR_EX_LE;
    else if (accept(p, ">")) k = IR_EX_GT;
    else if (accept(p, ">=")) k = IR_EX_GE;
    else return e;
    e = binary(p, k, t, e, parse_shift(p));
  }
}

/* eq: rel (('==' | '!=') rel)*  (bitwise & | ^ are rejected) */
static ir_expr *parse_eq(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_eq_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_eq_chain(parser *p) {
  ir_expr *e = parse_rel(p);
  for (;;) {
    const fe_tok *t = tok(p);
    enter(p, t);
    ir_expr_kind k;
    if (accept(p, "==")) k = IR_EX_EQ;
    else if (accept(p, "!=")) k = IR_EX_NE;
    else if (is(p, "&") || is(p, "|") || is(p, "^"))
      error_tok(p, t, SUP_EXPR, "bitwise operators are not supported");
    else return e;
    e = binary(p, k, t, e, parse_rel(p));
  }
}

/* land: eq ('&&' eq)* */
static ir_expr *parse_land(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_land_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_land_chain(parser *p) {
  ir_expr *e = parse_eq(p);
  while (is(p, "&&")) {
    const fe_tok *t = next(p);
    enter(p, t);
    p->shortc++;
    ir_expr *b = parse_eq(p);
    p->shortc--;
    e = mk(p, IR_EX_AND, IR_I1, tpos(p, t), 2, to_bool(p, e), to_bool(p, b), NULL);
  }
  return e;
}

/* lor: land ('||' land)* */
static ir_expr *parse_lor(parser *p) {
  int save = p->nest;
  ir_expr *e = parse_lor_chain(p);
  p->nest = save;
  return e;
}

static ir_expr *parse_lor_chain(parser *p) {
  ir_expr *e = parse_land(p);
  while (is(p, "||")) {
    const fe_tok *t = next(p);
    enter(p, t);
    p->shortc++;
    ir_expr *b = parse_land(p);
    p->shortc--;
    e = mk(p, IR_EX_OR, IR_I1, tpos(p, t), 2, to_bool(p, e), to_bool(p, b), NULL);
  }
  return e;
}

/* cond: lor ('?' expr ':' cond)? */
static ir_expr *parse_cond(parser *p) {
  int save = p->nest;
  enter(p, tok(p));
  ir_expr *c = parse_lor(p);
  if (!is(p, "?")) {
    p->nest = save;
    return c;
  }
  const fe_tok *t = next(p);
  p->shortc++;
  ir_expr *a = parse_expr(p);
  expect(p, ":");
  ir_expr *b = parse_cond(p);
  p->shortc--;
  p->nest = save;
  ir_elem ty = a->type == IR_I1 && b->type == IR_I1 ? IR_I1 : arith_type(a, b);
  return mk(p, IR_EX_SELECT, ty, tpos(p, t), 3, to_bool(p, c), convert(p, a, ty),
            convert(p, b, ty));
}

static int is_assign_op(const fe_tok *t) {
  static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=",
                                    "<<=", ">>=", "&=", "|=", "^="};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (tok_is(t, ops[i])) return 1;
  return 0;
}

/* What may not follow an expression: the comma operator, an assignment. */
static void parse_expr_tail(parser *p) {
  if (is(p, ","))
    error_tok(p, tok(p), SUP_EXPR, "the comma operator is not supported");
  if (is_assign_op(tok(p)))
    error_tok(p, tok(p), SUP_STMT, "assignments inside expressions are not supported");
}

/* expr: cond  (the comma operator and nested assignments are rejected) */
static ir_expr *parse_expr(parser *p) {
  ir_expr *e = parse_cond(p);
  parse_expr_tail(p);
  return e;
}

/* ----------------------------------------------------------------- types */

/* Is t the start of a type: a type keyword or a typedef name that no
 * variable in scope shadows. */
static int is_type_start(parser *p, const fe_tok *t) {
  static const char *const w[] = {
      "int", "double", "float", "char", "long", "short", "unsigned", "signed",
      "void", "const", "restrict", "volatile", "struct", "union", "enum",
      "_Bool", "_Complex", "__complex__", "__restrict", "__restrict__",
      "register", "static", "extern", "auto", "__const", "_Atomic"};
  if (t->kind != FE_TK_IDENT) return 0;
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    if (!strcmp(t->text, w[i])) return 1;
  return typedef_find(&p->td, t->text) >= 0 && lookup(p, t->text) < 0;
}

/* type: qualifier* specifier+ qualifier*  (specifiers: void, the floating
 * and integer keywords, or one typedef name; qualifiers: const restrict
 * volatile register) into *ct; the tokens are consumed. */
static void parse_ctype(parser *p, int allow_void, ctype *ct) {
  const fe_tok *errtok = NULL;
  const char *err = NULL;
  int n = scan_type(p->t + p->i, p->n - p->i, &p->td, p, p->a, ct,
                    &errtok, &err);
  if (err) error_tok(p, errtok, SUP_TYPE, "%s", err);
  p->i += n;
  if (ct->elem == IR_I1 && !allow_void)
    error_tok(p, &p->t[p->i - 1], SUP_TYPE, "'void' is not supported here");
}

/* The element type of a type (any integer type is IR_I32; void is IR_I1,
 * with allow_void only). */
static ir_elem parse_type(parser *p, int allow_void) {
  ctype ct;
  parse_ctype(p, allow_void, &ct);
  return ct.elem;
}

/* dims: ('[' qualifier* expr ']')*  each affine in size parameters */
static int parse_dims(parser *p, int var, const fe_tok *name, int is_param) {
  ir_var *v = p->vars[var];
  int rank = 0;
  while (is(p, "[")) {
    const fe_tok *open = next(p);
    while (is(p, "restrict") || is(p, "const") || is(p, "static") ||
           is(p, "__restrict") || is(p, "__restrict__") || is(p, "volatile")) {
      const char *q = next(p)->text;
      if (is_param && rank == 0 && (!strcmp(q, "restrict") || !strncmp(q, "__restrict", 10)))
        v->restricted = 1;
    }
    if (is(p, "]") || is(p, "*"))
      error_tok(p, is(p, "]") ? open : tok(p), SUP_PARAM,
                "%s '%s' needs a size in every dimension",
                is_param ? "array parameter" : "local array", name->text);
    if (rank == IR_MAX_RANK)
      error_tok(p, open, NULL, "arrays of more than %d dimensions are not supported",
                IR_MAX_RANK);
    const char *old = p->ctx;
    p->ctx = "array size";
    ir_expr *d = parse_expr(p);
    p->ctx = old;
    aff f;
    need_affine(p, d, 1, "array size", &f);
    if (aff_is_const(&f) && f.c <= 0)
      error_pos(p, d->pos, NULL, "array size must be positive");
    v->dims[rank++] = aff_build(p, &f, d->pos);
    expect(p, "]");
  }
  v->rank = rank;
  return rank;
}

/* ------------------------------------------------------------ statements */

static ir_stmt *mk_assign(parser *p, ir_pos pos, ir_expr *lhs, ir_assign_op op,
                          ir_expr *rhs) {
  ir_stmt *s = IR_NEW(p->a, ir_stmt);
  s->kind = IR_ST_ASSIGN;
  s->pos = pos;
  s->id = p->nassign++;
  s->lhs = lhs;
  s->op = op;
  if (rhs->type == IR_I1) rhs = convert(p, rhs, IR_I32);
  s->rhs = convert(p, rhs, lhs->type);
  return s;
}

static ir_stmt *append(ir_stmt *list, ir_stmt *more) {
  if (!list) return more;
  ir_stmt *t = list;
  while (t->next) t = t->next;
  t->next = more;
  return list;
}

static ir_stmt *parse_stmt(parser *p);
static int counter_update(parser *p);
static ir_elem elem_type(parser *p, const ctype *ct, const fe_tok *t);

/* Is init, the initializer of an int local, an index expression: integer
 * constants, size parameters and iterators under + - *?  Anything else
 * makes the local integer data. */
static int is_index_expr(parser *p, const ir_expr *init) {
  switch (init->kind) {
  case IR_EX_CONST: return init->type == IR_I32;
  case IR_EX_VAR: {
    ir_var_kind k = p->vars[init->var]->kind;
    return k == IR_VAR_SIZE || k == IR_VAR_ITER;
  }
  case IR_EX_NEG:
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL:
    for (int i = 0; i < init->nargs; i++)
      if (!is_index_expr(p, init->args[i])) return 0;
    return init->type == IR_I32;
  default: return 0;
  }
}

/* Is the int local `name`, declared just before the cursor, assigned in the
 * rest of its block (name = e, name += e, name++, --name, ...), so that it
 * holds integer data, an accumulator or a count?  Not when it is a loop
 * counter: named in a while loop's condition or assigned by a for header
 * (`int i = 0; while (i < n) { ...; i++; }`, `for (i = 0; ...)`), which the
 * loop parser takes as an iterator. */
static int local_is_assigned(parser *p, const fe_tok *name) {
  int assigned = 0;
  for (int i = p->i, depth = 0; p->t[i].kind != FE_TK_EOF; i++) {
    const fe_tok *t = &p->t[i];
    if (tok_is(t, "{")) depth++;
    if (tok_is(t, "}") && --depth < 0) break;
    if (tok_is(t, "while") && tok_is(&p->t[i + 1], "(")) {
      for (int j = i + 2, d = 1; d > 0 && p->t[j].kind != FE_TK_EOF; j++) {
        d += tok_is(&p->t[j], "(") - tok_is(&p->t[j], ")");
        if (p->t[j].kind == FE_TK_IDENT && !strcmp(p->t[j].text, name->text)) return 0;
      }
    }
    if (t->kind != FE_TK_IDENT || strcmp(t->text, name->text)) continue;
    const fe_tok *before = i > 0 ? &p->t[i - 1] : NULL, *after = &p->t[i + 1];
    if (before && tok_is(before, "(") && i > 1 && tok_is(&p->t[i - 2], "for")) return 0;
    if (is_assign_op(after) || tok_is(after, "++") || tok_is(after, "--") ||
        (before && (tok_is(before, "++") || tok_is(before, "--"))))
      assigned = 1;
  }
  return assigned;
}

/* local-decl: type init-declarator (',' init-declarator)* ';'
 * init-declarator: ident dims ('=' expr)? */
static ir_stmt *parse_decl(parser *p) {
  ctype ct;
  const fe_tok *ty = tok(p);
  parse_ctype(p, 0, &ct);
  ir_elem elem = ct.elem;
  ir_stmt *out = NULL;
  do {
    if (is(p, "*"))
      error_tok(p, tok(p), SUP_TYPE, "pointer variables are not supported");
    const fe_tok *name = expect_ident(p, "a variable name");
    if (is(p, "(")) error_tok(p, tok(p), NULL, "function declarations are not supported");
    if (is(p, "[")) {
      int var = new_var(p, IR_VAR_LOCAL_ARRAY, name, elem_type(p, &ct, ty));
      parse_dims(p, var, name, 0);
      declare(p, name, var);
      if (is(p, "="))
        error_tok(p, tok(p), "local arrays without initializer",
                  "initializers of local arrays are not supported");
    } else if (elem == IR_I32 && !local_is_assigned(p, name)) {
      /* an index expression, used in its place (int row = i*n;), or
       * integer data when its initializer is not one (int c = A[i];) */
      ir_expr *init = NULL;
      const fe_tok *eq = NULL;
      if (is(p, "=")) {
        eq = next(p);
        init = parse_cond(p);
      }
      if (init && !is_index_expr(p, init)) {
        int var = new_var(p, IR_VAR_LOCAL, name, elem_type(p, &ct, ty));
        declare(p, name, var);
        out = append(out, mk_assign(p, tpos(p, eq), mk_var(p, var, tpos(p, name)),
                                    IR_ASSIGN, init));
      } else {
        declare(p, name, -1);
        p->syms[p->nsyms - 1].alias = init;
      }
    } else {
      /* a floating local, or an int local that is assigned again: integer
       * data (an accumulator, a count) */
      int var = new_var(p, IR_VAR_LOCAL, name, elem == IR_I32 ? elem_type(p, &ct, ty) : elem);
      declare(p, name, var);
      if (is(p, "=")) {
        const fe_tok *eq = next(p);
        ir_expr *rhs = parse_cond(p);
        if (is_assign_op(tok(p)))
          error_tok(p, tok(p), SUP_STMT, "assignments inside expressions are not supported");
        out = append(out, mk_assign(p, tpos(p, eq), mk_var(p, var, tpos(p, name)),
                                    IR_ASSIGN, rhs));
      }
    }
  } while (accept(p, ","));
  expect(p, ";");
  return out;
}

/* lvalue: ident subscripts? naming an array element or a local scalar */
static ir_expr *parse_lvalue(parser *p) {
  const fe_tok *t = tok(p);
  if (t->kind != FE_TK_IDENT || is_keyword(t))
    error_tok(p, t, SUP_STMT, "expected a statement before '%s'", describe(t));
  int s = lookup(p, t->text);
  if (s < 0) {
    if (tok_is(peek(p, 1), "(")) {
      for (size_t i = 0; i < sizeof math_fns / sizeof math_fns[0]; i++)
        if (!strcmp(t->text, math_fns[i].name))
          error_tok(p, t, SUP_STMT, "a call to '%s' is not a statement", t->text);
      error_tok(p, t, SUP_EXPR, "call to '%s' is not supported", t->text);
    }
    if (tok_is(peek(p, 1), ":"))
      error_tok(p, t, SUP_STMT, "labels are not supported");
    if (peek(p, 1)->kind == FE_TK_IDENT || tok_is(peek(p, 1), "*"))
      error_tok(p, t, SUP_TYPE, "unsupported type '%s'", t->text);
    unknown_ident(p, t);
  }
  if (p->syms[s].alias)
    error_tok(p, t, "a while loop's counter updated as the last statement of its body",
              "assignment to the int local '%s', a loop counter (it is named in a "
              "while loop's condition or a for header), other than its update as "
              "the loop body's last statement", t->text);
  if (p->syms[s].pending)
    error_tok(p, t, "int locals only as loop iterators (for (i = ...))",
              "assignment to the integer local '%s': integer locals that are "
              "not loop iterators are not supported", t->text);
  int var = p->syms[s].var;
  ir_var *v = p->vars[var];
  switch (v->kind) {
  case IR_VAR_SIZE:
    error_tok(p, t, "assignments to array elements and local scalars",
              "cannot assign to the size parameter '%s'", t->text);
  case IR_VAR_SCALAR:
    error_tok(p, t, "assignments to array elements and local scalars",
              "cannot assign to the scalar parameter '%s' (scalar parameters "
              "are read-only)", t->text);
  case IR_VAR_ITER:
    error_tok(p, t, "loop iterators updated only by their for header",
              "cannot assign to the loop iterator '%s'", t->text);
  default:
    break;
  }
  next(p);
  if (v->rank > 0 || p->ptr[var]) {
    if (!is(p, "["))
      error_tok(p, t, "assignments to array elements",
                "cannot assign to the whole array '%s'", t->text);
    return parse_subscripts(p, var, t);
  }
  if (is(p, "[")) error_tok(p, tok(p), NULL, "'%s' is not an array", t->text);
  return mk_var(p, var, tpos(p, t));
}

/* chain: expr | lvalue '=' chain   (a = b = e: b = e comes first, then a
 * takes b).  Returns the value of the right-hand side; the inner
 * assignments, in execution order, go to *stmts. */
static ir_expr *parse_chain(parser *p, const fe_tok *start, ir_stmt **stmts) {
  const fe_tok *at = tok(p);
  ir_expr *e = parse_cond(p);
  if (!is(p, "=")) {
    if (is(p, ",") || is_assign_op(tok(p))) parse_expr_tail(p);
    return e;
  }
  int var_ok = e->kind == IR_EX_VAR && p->vars[e->var]->kind == IR_VAR_LOCAL;
  int elem_ok = e->kind == IR_EX_ELEM;
  if (!var_ok && !elem_ok)
    error_tok(p, at, SUP_STMT, "'%s' cannot be assigned in a chained assignment",
              expr_str(p, e));
  next(p);
  ir_expr *rhs = parse_chain(p, start, stmts);
  *stmts = append(*stmts, mk_assign(p, tpos(p, at), e, IR_ASSIGN, rhs));
  return e;
}

/* assign: lvalue ('=' | '+=' | '-=' | '*=' | '/=') expr ';'
 *       | lvalue ('++' | '--') ';' | ('++' | '--') lvalue ';' */
static ir_stmt *parse_assign(parser *p) {
  const fe_tok *start = tok(p);
  if (is(p, "++") || is(p, "--")) {
    const fe_tok *op = next(p);
    ir_expr *lhs = parse_lvalue(p);
    expect(p, ";");
    return mk_assign(p, tpos(p, start), lhs, op->text[0] == '+' ? IR_ASSIGN_ADD : IR_ASSIGN_SUB,
                     mk_const(p, 1, 1, IR_I32, tpos(p, op)));
  }
  if (counter_update(p)) return NULL;
  if (start->kind == FE_TK_IDENT && (tok_is(peek(p, 1), "++") || tok_is(peek(p, 1), "+="))) {
    int s = lookup(p, start->text);
    if (s >= 0 && p->syms[s].var >= 0 && p->ptr[p->syms[s].var]) {
      int var = p->syms[s].var;
      next(p);
      long d = 1;
      if (accept(p, "+=")) {
        ir_expr *e = parse_expr(p);
        if (e->kind != IR_EX_CONST || !e->is_int || e->value < 0)
          error_pos(p, e->pos, "p++ and p += constant on pointer parameters",
                    "a pointer may move on only by a constant");
        d = (long)e->value;
      } else {
        next(p);
      }
      walk_step(p, start, var, d);
      expect(p, ";");
      return NULL;
    }
  }
  ir_expr *lhs0 = is(p, "*") ? parse_deref(p) : NULL;
  if (is(p, "("))
    error_tok(p, start, SUP_STMT, "expected an assignment to an array element or a local scalar");
  ir_expr *lhs = lhs0 ? lhs0 : parse_lvalue(p);
  const fe_tok *op = tok(p);
  if (is(p, "++") || is(p, "--")) {
    next(p);
    expect(p, ";");
    return mk_assign(p, tpos(p, start), lhs, op->text[0] == '+' ? IR_ASSIGN_ADD : IR_ASSIGN_SUB,
                     mk_const(p, 1, 1, IR_I32, tpos(p, op)));
  }
  ir_assign_op aop;
  if (accept(p, "=")) aop = IR_ASSIGN;
  else if (accept(p, "+=")) aop = IR_ASSIGN_ADD;
  else if (accept(p, "-=")) aop = IR_ASSIGN_SUB;
  else if (accept(p, "*=")) aop = IR_ASSIGN_MUL;
  else if (accept(p, "/=")) aop = IR_ASSIGN_DIV;
  else if (is_assign_op(op))
    error_tok(p, op, "=, +=, -=, *=, /=", "the assignment operator '%s' is not supported",
              op->text);
  else
    error_tok(p, op, NULL, "expected an assignment operator before '%s'", describe(op));
  if (aop == IR_ASSIGN_DIV && !ir_elem_is_float(lhs->type))
    error_tok(p, op, "'/' on floating-point values", "integer division is not supported");
  ir_stmt *chain = NULL;
  ir_expr *rhs = aop == IR_ASSIGN ? parse_chain(p, start, &chain) : parse_expr(p);
  expect(p, ";");
  return append(chain, mk_assign(p, tpos(p, start), lhs, aop, rhs));
}

/* The iterator variable for the int name at symbol s (first use in a for
 * header): an inactive iterator of the same name is reused. */
static int iter_var(parser *p, int s, const fe_tok *t) {
  if (p->syms[s].alias)
    error_tok(p, t, SUP_FOR, "the int local '%s' has an initializer and cannot be "
              "a loop iterator", t->text);
  if (!p->syms[s].pending) {
    int var = p->syms[s].var;
    if (p->active[var])
      error_tok(p, t, SUP_FOR, "loop iterator '%s' is already the iterator of an enclosing loop",
                t->text);
    return var;
  }
  int var = -1;
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i]->kind == IR_VAR_ITER && !p->active[i] &&
        !strcmp(p->vars[i]->name, t->text))
      var = i;
  if (var < 0) var = new_var(p, IR_VAR_ITER, t, IR_I32);
  p->syms[s].var = var;
  p->syms[s].pending = 0;
  return var;
}

static ir_expr *bound_join(parser *p, ir_expr_kind kind, ir_expr *acc, ir_expr *b) {
  if (!acc) return b;
  return mk(p, kind, IR_I32, b->pos, 2, acc, b, NULL);
}

/* Parse the body of loop l (upward, iterator active) and close a pointer
 * walk that it makes at depth 1. */
static void loop_body(parser *p, ir_stmt *l) {
  int outer = ++p->loop_depth == 1;
  if (outer) p->wloop = l->step == 1;
  l->body = parse_stmt(p);
  if (outer) {
    p->wloop = 0;
    walk_end(p, l);
  }
  p->loop_depth--;
}

static ir_expr *bound_join(parser *p, ir_expr_kind kind, ir_expr *acc, ir_expr *b);

/* while: 'while' '(' counted ')' stmt, a counted loop in disguise, made a
 * for loop:
 *   while (c--) S;  while (c-- > 0) S;  while (c-- != 0) S;
 *   while (c > 0) { S; c--; }  while (c != 0) { S; c--; }
 * with c a size parameter or an int local standing for a size expression
 * (uint32_t cnt = n;): a loop over a fresh iterator from 0 to c - 1, after
 * which c is used up; and
 *   while (i < e) { S; i++; }   (also <=)
 * with i an int local initialized with an index expression: a loop over i
 * from its initializer.  The counter's update must be the last statement
 * of the body. */
static ir_stmt *parse_while(parser *p) {
  const fe_tok *kw = next(p);
  expect(p, "(");
  const fe_tok *x = tok(p);
  int s = x->kind == FE_TK_IDENT ? lookup(p, x->text) : -1;
  int var = s >= 0 ? p->syms[s].var : -1;
  int is_size = var >= 0 && p->vars[var]->kind == IR_VAR_SIZE && !p->dead[var];
  if (s < 0 || (!p->syms[s].alias && !is_size))
    error_tok(p, x, "counted while loops: while (n--), while (n > 0) { ...; n--; }, "
              "while (i < n) { ...; i++; } on a size or an int local",
              "unsupported while loop: its condition must test a size parameter or "
              "an initialized int local");
  next(p);
  const char *old = p->ctx;
  p->ctx = "loop bound";
  ir_expr *val = p->syms[s].alias ? p->syms[s].alias : mk_var(p, var, tpos(p, x));
  int up = 0, postdec = 0;
  ir_expr *limit = NULL;
  if (accept(p, "--")) {
    postdec = 1;
    if (accept(p, ">") || accept(p, "!=")) {
      ir_expr *z = parse_expr(p);
      if (z->kind != IR_EX_CONST || z->value != 0)
        error_pos(p, z->pos, NULL, "a while loop counting down must stop at 0");
    }
  } else if (is(p, ">") || is(p, "!=")) {
    next(p);
    ir_expr *z = parse_expr(p);
    if (z->kind != IR_EX_CONST || z->value != 0)
      error_pos(p, z->pos, NULL, "a while loop counting down must stop at 0");
  } else if (is(p, "<") || is(p, "<=")) {
    int le = is(p, "<=");
    next(p);
    up = 1;
    limit = parse_expr(p);
    if (le) limit = mk(p, IR_EX_ADD, IR_I32, limit->pos, 2, limit,
                       mk_const(p, 1, 1, IR_I32, limit->pos), NULL);
  } else {
    error_tok(p, tok(p), NULL, "unsupported while loop condition");
  }
  expect(p, ")");
  aff fv, fl;
  need_affine(p, val, 1, "loop bound", &fv);
  if (limit) need_affine(p, limit, up ? 0 : 1, "loop bound", &fl);
  p->ctx = old;

  ir_stmt *l = IR_NEW(p->a, ir_stmt);
  l->kind = IR_ST_FOR;
  l->pos = tpos(p, kw);
  l->step = 1;
  int it = new_var(p, IR_VAR_ITER, x, IR_I32);
  l->iter = it;
  if (up) {
    l->lo = aff_build(p, &fv, val->pos);
    fl.c -= 1;
    l->hi = aff_build(p, &fl, limit->pos);
  } else {
    l->lo = mk_const(p, 0, 1, IR_I32, tpos(p, x));
    fv.c -= 1;
    l->hi = aff_build(p, &fv, val->pos);
  }
  /* the counter: the iterator itself (counting up), else unusable */
  sym saved = p->syms[s];
  if (up) {
    p->syms[s].var = it;
    p->syms[s].pending = 0;
  } else {
    p->syms[s].var = -1;
    p->syms[s].pending = 1;
  }
  p->syms[s].alias = NULL;
  if (is_size) p->dead[var] = 1;
  p->active[it] = 1;
  int save_counter = p->counter, save_step = p->counter_step, save_seen = p->counter_seen;
  int save_cd = p->counter_depth;
  p->counter = postdec ? -1 : s;
  p->counter_step = up ? 1 : -1;
  p->counter_seen = 0;
  p->counter_depth = p->loop_depth + 1;
  loop_body(p, l);
  if (!postdec && !p->counter_seen)
    error_tok(p, x, "the counter's update (n--; or i++;) as the last statement of "
              "the loop body", "the while loop does not update its counter '%s' as "
              "its last statement", x->text);
  p->counter = save_counter;
  p->counter_step = save_step;
  p->counter_seen = save_seen;
  p->counter_depth = save_cd;
  p->active[it] = 0;
  /* after the loop the counter is used up (its value there is not kept) */
  p->syms[s] = saved;
  p->syms[s].alias = NULL;
  p->syms[s].pending = 1;
  if (!is_size && saved.var >= 0) p->syms[s].var = saved.var;
  if (is_size) {
    p->syms[s].pending = 0;
    p->syms[s].var = var;
  }
  return l;
}

/* The update of the enclosing while loop's counter, if the statement at the
 * cursor is one (c--; --c; c -= 1; i++; ++i; i += 1;) and the last of the
 * loop body: consumed, returns 1. */
static int counter_update(parser *p) {
  if (p->counter < 0 || p->loop_depth != p->counter_depth) return 0;
  int pre = is(p, "++") || is(p, "--");
  const fe_tok *x = peek(p, pre);
  if (x->kind != FE_TK_IDENT || lookup(p, x->text) != p->counter) return 0;
  const fe_tok *op = pre ? tok(p) : peek(p, 1);
  int d = 0, n = 2;
  if (tok_is(op, "++")) d = 1;
  else if (tok_is(op, "--")) d = -1;
  else if ((tok_is(op, "+=") || tok_is(op, "-=")) && tok_is(peek(p, 2), "1")) {
    d = op->text[0] == '+' ? 1 : -1;
    n = 3;
  }
  if (d != p->counter_step || !tok_is(peek(p, n), ";")) return 0;
  if (!tok_is(peek(p, n + 1), "}"))
    error_tok(p, x, "the counter's update as the last statement of the loop body",
              "the while loop's counter '%s' must be updated by the last statement "
              "of its body", x->text);
  p->i += n + 1;
  p->counter_seen = 1;
  return 1;
}

/* The iterator of a for loop: 'int'? ident, declared or an existing int
 * local; returns its variable, with its token in *it. */
static int for_iterator(parser *p, const fe_tok **it) {
  if (is_type_start(p, tok(p))) {
    const fe_tok *ty = tok(p);
    if (parse_type(p, 0) != IR_I32)
      error_tok(p, ty, SUP_FOR, "loop iterators must be declared int");
    *it = expect_ident(p, "a loop iterator");
    declare(p, *it, -1);
  } else {
    if (is(p, ";"))
      error_tok(p, tok(p), SUP_FOR, "a for loop needs an initialization 'i = lower bound'");
    *it = expect_ident(p, "a loop iterator");
  }
  int s = lookup(p, (*it)->text);
  if (s < 0) error_tok(p, *it, NULL, "unknown identifier '%s'", (*it)->text);
  if (!p->syms[s].pending) {
    ir_var *v = p->vars[p->syms[s].var];
    if (v->kind == IR_VAR_SIZE)
      error_tok(p, *it, SUP_FOR, "cannot use the size parameter '%s' as a loop iterator",
                (*it)->text);
    if (v->kind != IR_VAR_ITER)
      error_tok(p, *it, SUP_FOR, "the loop iterator '%s' must be an int local", (*it)->text);
  }
  return iter_var(p, s, *it);
}

/* One conjunct c of a loop condition: a comparison bounding the iterator
 * var from below (joined into *lowers) or above (*uppers). */
static void for_conjunct(parser *p, ir_expr *c, int var, const fe_tok *it, ir_expr **lowers,
                         ir_expr **uppers) {
  if (c->kind == IR_EX_AND) { /* depth is bounded by the expression nesting limit */
    for_conjunct(p, c->args[0], var, it, lowers, uppers);
    for_conjunct(p, c->args[1], var, it, lowers, uppers);
    return;
  }
  if (c->kind == IR_EX_OR || c->kind == IR_EX_EQ || c->kind == IR_EX_NE ||
      !(c->kind >= IR_EX_LT && c->kind <= IR_EX_GE))
    error_pos(p, c->pos, SUP_FOR,
              "unsupported loop condition: use comparisons <, <=, >, >= of "
              "the iterator joined by &&");
  aff l, r, f = {0};
  need_affine(p, c->args[0], 0, "loop bound", &l);
  need_affine(p, c->args[1], 0, "loop bound", &r);
  /* f >= 0 */
  switch (c->kind) {
  case IR_EX_LT: aff_addf(&f, &r, 1); aff_addf(&f, &l, -1); f.c -= 1; break;
  case IR_EX_LE: aff_addf(&f, &r, 1); aff_addf(&f, &l, -1); break;
  case IR_EX_GT: aff_addf(&f, &l, 1); aff_addf(&f, &r, -1); f.c -= 1; break;
  default: aff_addf(&f, &l, 1); aff_addf(&f, &r, -1); break;
  }
  long ci = aff_coef(&f, var);
  if (ci != 1 && ci != -1)
    error_pos(p, c->pos, SUP_FOR,
              ci == 0 ? "loop condition does not bound the iterator '%s'"
                      : "loop condition must bound the iterator '%s' with coefficient 1",
              it->text);
  aff g = {0};
  aff_addf(&g, &f, 1);
  aff_term(&g, var, -ci); /* f = ci * i + g */
  if (ci == 1) { /* i >= -g */
    aff lb = {0};
    aff_addf(&lb, &g, -1);
    *lowers = bound_join(p, IR_EX_IMAX, *lowers, aff_build(p, &lb, c->pos));
  } else { /* i <= g */
    *uppers = bound_join(p, IR_EX_IMIN, *uppers, aff_build(p, &g, c->pos));
  }
}

/* The step of a for loop over var (token it): ++i, --i, i++, i--, i += 1,
 * i -= 1, i = i + 1 ...; returns +1 or -1. */
static int for_step(parser *p, int var, const fe_tok *it) {
  const fe_tok *st = tok(p);
  if (is(p, "++") || is(p, "--")) {
    int step = is(p, "++") ? 1 : -1;
    next(p);
    if (!tok_is(tok(p), it->text))
      error_tok(p, tok(p), SUP_FOR, "the loop step must update the iterator '%s'", it->text);
    next(p);
    return step;
  }
  if (!tok_is(tok(p), it->text))
    error_tok(p, tok(p), SUP_FOR, "the loop step must update the iterator '%s'", it->text);
  next(p);
  if (accept(p, "++")) return 1;
  if (accept(p, "--")) return -1;
  if (!(is(p, "+=") || is(p, "-=") || is(p, "=")))
    error_tok(p, tok(p), SUP_FOR, "unsupported loop step");
  const fe_tok *op = next(p);
  ir_expr *e = parse_expr(p);
  aff f;
  need_affine(p, e, 0, "loop step", &f);
  long d;
  if (op->text[0] == '=') {
    aff_term(&f, var, -1);
    d = f.c;
  } else {
    d = op->text[0] == '+' ? f.c : -f.c;
  }
  if (!aff_is_const(&f) || (d != 1 && d != -1))
    error_tok(p, st, SUP_FOR, "the loop step must be +1 or -1");
  return (int)d;
}

/* for: 'for' '(' ('int')? ident '=' expr ';' bound ('&&' bound)* ';' step ')' stmt */
static ir_stmt *parse_for(parser *p) {
  const fe_tok *kw = next(p);
  expect(p, "(");
  int save_scope = p->scope_start;
  p->scope_start = p->nsyms;
  const fe_tok *it;
  int var = for_iterator(p, &it);
  expect(p, "=");
  const char *old = p->ctx;
  p->ctx = "loop bound";
  ir_expr *init = parse_expr(p);
  aff finit;
  need_affine(p, init, 0, "loop bound", &finit);
  expect(p, ";");
  p->active[var] = 1;

  /* condition: each conjunct bounds the iterator from above or below */
  if (is(p, ";"))
    error_tok(p, tok(p), SUP_FOR, "a for loop needs a condition bounding '%s'", it->text);
  const fe_tok *ctok = tok(p);
  ir_expr *lowers = NULL, *uppers = NULL;
  for_conjunct(p, parse_expr(p), var, it, &lowers, &uppers);
  expect(p, ";");
  int step = for_step(p, var, it);
  p->ctx = old;
  expect(p, ")");

  ir_expr *start = aff_build(p, &finit, init->pos);
  ir_stmt *s_for = IR_NEW(p->a, ir_stmt);
  s_for->kind = IR_ST_FOR;
  s_for->pos = tpos(p, kw);
  s_for->iter = var;
  s_for->step = step;
  if (step == 1) {
    if (!uppers)
      error_tok(p, ctok, SUP_FOR,
                "upward loop over '%s' needs an upper bound (%s < e or %s <= e)",
                it->text, it->text, it->text);
    s_for->lo = lowers ? mk(p, IR_EX_IMAX, IR_I32, start->pos, 2, start, lowers, NULL) : start;
    s_for->hi = uppers;
  } else {
    if (!lowers)
      error_tok(p, ctok, SUP_FOR,
                "downward loop over '%s' needs a lower bound (%s > e or %s >= e)",
                it->text, it->text, it->text);
    s_for->hi = uppers ? mk(p, IR_EX_IMIN, IR_I32, start->pos, 2, start, uppers, NULL) : start;
    s_for->lo = lowers;
  }
  int save2 = p->scope_start;
  p->scope_start = p->nsyms;
  loop_body(p, s_for);
  pop_syms(p, p->scope_start);
  p->scope_start = save2;
  p->active[var] = 0;
  pop_syms(p, p->scope_start);
  p->scope_start = save_scope;
  return s_for;
}

/* A sub-statement in its own scope. */
static ir_stmt *parse_scoped(parser *p) {
  int save = p->scope_start;
  p->scope_start = p->nsyms;
  ir_stmt *s = parse_stmt(p);
  pop_syms(p, p->scope_start);
  p->scope_start = save;
  return s;
}

/* if: 'if' '(' expr ')' stmt ('else' stmt)? */
/* Does c contain the expression x? */
static int expr_reads(const ir_expr *c, const ir_expr *x) {
  if (ir_expr_equal(c, x)) return 1;
  for (int i = 0; i < c->nargs; i++)
    if (expr_reads(c->args[i], x)) return 1;
  return 0;
}

/* Does c read data: an array element, a local or a scalar parameter? */
static int reads_data(parser *p, const ir_expr *c) {
  if (c->kind == IR_EX_ELEM) return 1;
  if (c->kind == IR_EX_VAR &&
      (p->vars[c->var]->kind == IR_VAR_LOCAL || p->vars[c->var]->kind == IR_VAR_SCALAR))
    return 1;
  for (int i = 0; i < c->nargs; i++)
    if (reads_data(p, c->args[i])) return 1;
  return 0;
}

/* Does every array element that e reads appear in c? */
static int reads_within(const ir_expr *e, const ir_expr *c) {
  if (e->kind == IR_EX_ELEM && !expr_reads(c, e)) return 0;
  for (int i = 0; i < e->nargs; i++)
    if (!reads_within(e->args[i], c)) return 0;
  return 1;
}

/* If-conversion of s, `if (c) v = e;` with v a local scalar, no else,
 * c reading data (elements, locals or scalar parameters, not only
 * iterators and sizes, whose ifs the analysis keeps) and e reading no element that
 * c does not read: `v = c ? e : v;` (the same statement, so the same
 * S<id>), which is the same computation (e is evaluated when c is false,
 * reading only what c read).  The same for an array element v that c
 * itself reads (`if (x[i][j] > mx[i]) mx[i] = x[i][j];`).  A running maximum written as a conditional
 * update, `if (x[i] > m) m = x[i];`, becomes the select that the analysis
 * takes for a max reduction; the verifier decides whether the raised
 * program agrees (IEEE maximum and C's comparison differ on NaN and signed
 * zeros).  Other ifs are kept. */
static int plain_assign(const ir_stmt *a) {
  return a && !a->next && a->kind == IR_ST_ASSIGN && a->op == IR_ASSIGN;
}

/* An if whose branches both assign the same place, `if (c) L = e1; else
 * L = e2;` with c reading data: `L = c ? e1 : e2;` (the then branch's
 * statement).  Both branches' reads are then made whatever c; c reads
 * data, so either branch runs for some input and its reads must be in
 * range for the kernel to be defined on every input. */
static ir_stmt *if_else_convert(parser *p, ir_stmt *s) {
  ir_stmt *a = s->then_body, *b = s->else_body;
  if (!plain_assign(a) || !plain_assign(b) || !ir_expr_equal(a->lhs, b->lhs) ||
      !reads_data(p, s->cond) || b->id != p->nassign - 1)
    return s;
  a->rhs = mk(p, IR_EX_SELECT, a->lhs->type, s->pos, 3, s->cond, a->rhs, b->rhs);
  p->nassign--; /* b's statement number is free again */
  return a;
}

static ir_stmt *if_convert(parser *p, ir_stmt *s) {
  ir_stmt *a = s->then_body;
  if (s->else_body) return if_else_convert(p, s);
  if (!plain_assign(a) || !reads_data(p, s->cond) || !reads_within(a->rhs, s->cond))
    return s;
  int local = a->lhs->kind == IR_EX_VAR && p->vars[a->lhs->var]->kind == IR_VAR_LOCAL;
  /* an array element (or pointed-to scalar) updated from a condition on its
   * own value, `if (x[i][j] > mx[i]) mx[i] = x[i][j];`: writing its old
   * value back when c is false reads nothing c does not read */
  int self = a->lhs->kind == IR_EX_ELEM && expr_reads(s->cond, a->lhs);
  if (!local && !self) return s;
  a->rhs = mk(p, IR_EX_SELECT, a->lhs->type, s->pos, 3, s->cond, a->rhs,
              local ? mk_var(p, a->lhs->var, a->lhs->pos) : a->lhs);
  return a;
}

static ir_stmt *parse_if(parser *p) {
  const fe_tok *kw = next(p);
  expect(p, "(");
  ir_expr *c = to_bool(p, parse_expr(p));
  expect(p, ")");
  ir_stmt *s = IR_NEW(p->a, ir_stmt);
  s->kind = IR_ST_IF;
  s->pos = tpos(p, kw);
  s->cond = c;
  p->cond_depth++;
  s->then_body = parse_scoped(p);
  if (accept(p, "else")) s->else_body = parse_scoped(p);
  p->cond_depth--;
  return if_convert(p, s);
}

/* block-items: (local-decl | stmt)* up to '}' */
static ir_stmt *parse_items(parser *p) {
  ir_stmt *list = NULL, *tail = NULL; /* the tail: linear in the items */
  while (!is(p, "}")) {
    if (tok(p)->kind == FE_TK_EOF) expect(p, "}");
    ir_stmt *more = is_type_start(p, tok(p)) ? parse_decl(p) : parse_stmt(p);
    tail = append(tail, more);
    if (!list) list = tail;
    while (tail && tail->next) tail = tail->next;
  }
  return list;
}

static ir_stmt *parse_stmt_at(parser *p);

/* stmt: '{' block-items '}' | ';' | for | if | assign | 'return' ';' (last) */
/* return: 'return' ';' | 'return' expr ';'  -- only as the kernel's last
 * statement, outside loops and ifs.  A value (in a kernel returning double
 * or float) is stored into a new one-element output array `ret` (ret_2, ...
 * if the name is taken), the kernel's last parameter (k->returns): the
 * later stages treat it as any output, the native run and the emitted C
 * return it. */
static ir_stmt *parse_return(parser *p) {
  const fe_tok *t = next(p);
  ir_stmt *s = NULL;
  if (!is(p, ";")) {
    if (!p->ret_tok)
      error_tok(p, t, SUP_STMT, "return with a value in a kernel that returns void");
    ir_expr *e = parse_expr(p);
    fe_tok rt = *t;
    rt.text = "ret";
    int var = new_var(p, IR_VAR_ARRAY, &rt, p->ret_elem);
    ir_var *v = p->vars[var];
    v->rank = 1;
    v->dims[0] = mk_const(p, 1, 1, IR_I32, tpos(p, t));
    v->param_index = p->nparams;
    p->params = ir_realloc(p->params, sizeof *p->params * (size_t)(p->nparams + 1));
    p->params[p->nparams++] = var;
    p->k->returns = 1;
    ir_expr *lhs = mk(p, IR_EX_ELEM, v->elem, tpos(p, t), 1,
                      mk_const(p, 0, 1, IR_I32, tpos(p, t)), NULL, NULL);
    lhs->var = var;
    s = mk_assign(p, tpos(p, t), lhs, IR_ASSIGN, e);
  } else if (p->ret_tok) {
    error_tok(p, t, SUP_STMT, "'return;' without a value in a kernel that returns %s",
              ir_elem_c_name(p->ret_elem));
  }
  expect(p, ";");
  if (p->i != p->n - 1 || p->loop_depth || p->cond_depth)
    error_tok(p, t, SUP_STMT, "'return' is supported only as the last statement of the kernel");
  return s;
}

static ir_stmt *parse_stmt(parser *p) {
  if (++p->snest > FE_MAX_STMT_NEST)
    error_tok(p, tok(p), NULL, "statements nested too deeply (limit %d)", FE_MAX_STMT_NEST);
  ir_stmt *s = parse_stmt_at(p);
  p->snest--;
  return s;
}

static ir_stmt *parse_stmt_at(parser *p) {
  const fe_tok *t = tok(p);
  if (accept(p, "{")) {
    int save = p->scope_start;
    p->scope_start = p->nsyms;
    ir_stmt *s = parse_items(p);
    expect(p, "}");
    pop_syms(p, p->scope_start);
    p->scope_start = save;
    return s;
  }
  if (accept(p, ";")) return NULL;
  if (is(p, "for")) return parse_for(p);
  if (is(p, "while")) return parse_while(p);
  if (is(p, "if")) return parse_if(p);
  static const char *const unsupported[] = {"do", "goto", "switch", "case",
                                            "default", "break", "continue"};
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
    if (is(p, unsupported[i]))
      error_tok(p, t, SUP_STMT, "'%s' is not supported", t->text);
  if (is(p, "else")) error_tok(p, t, NULL, "'else' without a previous 'if'");
  if (is(p, "return")) return parse_return(p);
  if (is_type_start(p, t))
    error_tok(p, t, SUP_STMT, "a declaration is not allowed here; put it inside { }");
  return parse_assign(p);
}

/* ---------------------------------------------------------- the kernel */

static int match_bracket(const fe_tok *t, int n, int i, const char *open,
                         const char *close, int dir);

/* The element type of an array or pointer of C type ct declared at t:
 * the integer type of its width and signedness (int IR_I32, uint8_t
 * IR_U8, ...); _Bool data is refused. */
static ir_elem elem_type(parser *p, const ctype *ct, const fe_tok *t) {
  if (ct->elem != IR_I32) return ct->elem;
  if (!strcmp(ct->name, "_Bool"))
    error_tok(p, t, "double and float element data, integer arrays of 8 to 64 bits",
              "element data of type '%s' is not yet supported", ct->name);
  return ir_elem_int(ct->bits, !ct->is_unsigned);
}

/* param: type ('*' qualifier*)? ident dims
 * The dims are skipped here (dims_at is set to their first token, or -1)
 * and parsed once every parameter is declared, so that sizes may follow
 * the arrays they size. */
static void parse_param(parser *p, int *dims_at) {
  ctype ct;
  const fe_tok *ty = tok(p);
  parse_ctype(p, 1, &ct);
  if (ct.elem == IR_I1)
    error_tok(p, &p->t[p->i - 1], SUP_PARAM, "'void' parameters are not supported");
  int nstar = 0, restricted = 0;
  while (is(p, "*")) {
    if (++nstar > 1)
      error_tok(p, tok(p), SUP_PARAM, "pointers to pointers are not supported");
    next(p);
    while (is(p, "const") || is(p, "restrict") || is(p, "__restrict") ||
           is(p, "__restrict__") || is(p, "volatile")) {
      const char *q = next(p)->text;
      restricted |= !strcmp(q, "restrict") || !strncmp(q, "__restrict", 10);
    }
  }
  const fe_tok *name = expect_ident(p, "a parameter name");
  if (is(p, "("))
    error_tok(p, tok(p), SUP_PARAM, "function parameters are not supported");
  int var = new_var(p, IR_VAR_SCALAR, name, ct.elem);
  ir_var *v = p->vars[var];
  *dims_at = -1;
  if (is(p, "[")) {
    if (nstar)
      error_tok(p, tok(p), SUP_PARAM, "arrays of pointers are not supported");
    *dims_at = p->i;
    while (is(p, "[")) {
      int close = match_bracket(p->t, p->n, p->i, "[", "]", 1);
      if (close < 0) expect(p, "]");
      p->i = close + 1;
    }
  }
  if (nstar || *dims_at >= 0) {
    v->kind = IR_VAR_ARRAY;
    v->elem = elem_type(p, &ct, ty);
    v->restricted = restricted;
    p->ptr[var] = nstar > 0;
  } else {
    v->kind = ct.elem == IR_I32 ? IR_VAR_SIZE : IR_VAR_SCALAR;
  }
  v->param_index = p->nparams;
  declare(p, name, var);
  p->params = ir_realloc(p->params, sizeof *p->params * (size_t)(p->nparams + 1));
  p->params[p->nparams++] = var;
}

/* The file-scope arrays of the user's file that the kernel body (from
 * p->i to its closing brace) subscripts, and that no parameter hides,
 * become operands of the kernel: array variables marked global, in the
 * parameters after the C ones (float a[LEN], b[LEN]; a loop over
 * a[i] += b[i]).  Each is declared with its own declaration's element
 * type and extents; a const array (a table, not an operand), one without a
 * size in every dimension, or a file-scope scalar is left undeclared, so
 * its use is refused (unknown_ident). */
static void global_operands(parser *p) {
  int close = match_bracket(p->t, p->n, p->i - 1, "{", "}", 1);
  if (close < 0) return;
  int save = p->i, n = p->n;
  const fe_tok *kt = p->t, *all = p->all;
  for (int j = save; j < close; j++) {
    const fe_tok *u = &kt[j];
    if (u->kind != FE_TK_IDENT || !tok_is(&kt[j + 1], "[") || lookup(p, u->text) >= 0)
      continue;
    int *slot = map_slot(&p->globals, u->text, 0);
    if (!slot || *slot < 0 || *slot + 1 >= p->nall || !tok_is(&all[*slot + 1], "[")) continue;
    int at = *slot, start = at, bad = 0;
    while (start > 0 && !tok_is(&all[start - 1], ";") && !tok_is(&all[start - 1], "}") &&
           !tok_is(&all[start - 1], "{"))
      start--;
    for (int q = start; q < at; q++)
      bad |= tok_is(&all[q], "const") || tok_is(&all[q], "(") || tok_is(&all[q], "*");
    for (int q = at + 1; !bad && q < p->nall && tok_is(&all[q], "[");) {
      int c = match_bracket(all, p->nall, q, "[", "]", 1);
      bad = c < 0 || c == q + 1;
      q = c + 1;
    }
    if (bad) continue;
    p->t = all; /* parse the declaration where it stands */
    p->n = p->nall;
    p->i = start;
    while (is(p, "static") || is(p, "extern") || is(p, "_Thread_local") || is(p, "__thread"))
      next(p);
    const fe_tok *ty = tok(p);
    ctype ct;
    parse_ctype(p, 0, &ct);
    int var = new_var(p, IR_VAR_ARRAY, &all[at], ct.elem);
    ir_var *v = p->vars[var];
    v->elem = elem_type(p, &ct, ty);
    v->global = 1;
    p->i = at + 1;
    parse_dims(p, var, &all[at], 1);
    p->t = kt;
    p->n = n;
    v->param_index = p->nparams;
    declare(p, &all[at], var);
    p->params = ir_realloc(p->params, sizeof *p->params * (size_t)(p->nparams + 1));
    p->params[p->nparams++] = var;
    p->nglobals++;
  }
  p->i = save;
}

/* ------------------------------------------------- pointer shapes */

/* A polynomial of degree at most 2 over size parameters and iterators: the
 * flat index of a pointer access (a[i*n + j]). */
typedef struct poly {
  aff lin;            /* constant and degree-1 terms */
  int n2;             /* degree-2 terms coef2[k] * va[k] * vb[k] */
  int va[AFF_MAX], vb[AFF_MAX];
  long coef2[AFF_MAX];
} poly;

static void poly_term2(poly *f, int a, int b, long c) {
  if (a > b) { int t = a; a = b; b = t; }
  for (int i = 0; i < f->n2; i++)
    if (f->va[i] == a && f->vb[i] == b) {
      f->coef2[i] += c;
      return;
    }
  if (f->n2 < AFF_MAX) {
    f->va[f->n2] = a;
    f->vb[f->n2] = b;
    f->coef2[f->n2++] = c;
  }
}

static void poly_addf(poly *f, const poly *g, long s) {
  aff_addf(&f->lin, &g->lin, s);
  for (int i = 0; i < g->n2; i++) poly_term2(f, g->va[i], g->vb[i], s * g->coef2[i]);
}

static int poly_is_const(const poly *f) {
  for (int i = 0; i < f->n2; i++)
    if (f->coef2[i]) return 0;
  return aff_is_const(&f->lin);
}

/* The polynomial of integer expression e; on failure (degree above 2, a
 * variable that is neither a size nor an iterator, division) returns the
 * offending node. */
static const ir_expr *poly_of(parser *p, const ir_expr *e, poly *out) {
  memset(out, 0, sizeof *out);
  poly a, b;
  const ir_expr *bad;
  switch (e->kind) {
  case IR_EX_NEG:
    if ((bad = poly_of(p, e->args[0], &a))) return bad;
    poly_addf(out, &a, -1);
    return NULL;
  case IR_EX_ADD:
  case IR_EX_SUB:
    if ((bad = poly_of(p, e->args[0], &a)) || (bad = poly_of(p, e->args[1], &b)))
      return bad;
    poly_addf(out, &a, 1);
    poly_addf(out, &b, e->kind == IR_EX_ADD ? 1 : -1);
    return NULL;
  case IR_EX_MUL:
    if ((bad = poly_of(p, e->args[0], &a)) || (bad = poly_of(p, e->args[1], &b)))
      return bad;
    if (poly_is_const(&a) || poly_is_const(&b)) {
      const poly *c = poly_is_const(&a) ? &a : &b, *o = c == &a ? &b : &a;
      poly_addf(out, o, c->lin.c);
      return NULL;
    }
    if (a.n2 || b.n2) return e;
    out->lin.c = a.lin.c * b.lin.c;
    for (int i = 0; i < a.lin.n; i++) aff_term(&out->lin, a.lin.var[i], a.lin.coef[i] * b.lin.c);
    for (int j = 0; j < b.lin.n; j++) aff_term(&out->lin, b.lin.var[j], b.lin.coef[j] * a.lin.c);
    for (int i = 0; i < a.lin.n; i++)
      for (int j = 0; j < b.lin.n; j++)
        poly_term2(out, a.lin.var[i], b.lin.var[j], a.lin.coef[i] * b.lin.coef[j]);
    return NULL;
  default:
    if ((bad = aff_of(p, e, 0, &out->lin))) return bad;
    return NULL;
  }
}

/* The loops around one pointer access. */
typedef struct ptr_access {
  ir_expr *e;             /* the IR_EX_ELEM, args[0] the flat index */
  const ir_stmt **loops;  /* outermost first (a copy, scratch heap) */
  int depth;
} ptr_access;

/* The largest (sign 1) or smallest (sign -1) value of f over the loops'
 * iteration domain, as an affine form in size parameters: each iterator,
 * innermost first, is replaced by the bound that pushes f that way.  A
 * bound with min/max gives 0 (the caller reports it); otherwise 1. */
static int aff_extreme(parser *p, const aff *f, const ptr_access *ac, int sign, aff *out) {
  *out = *f;
  for (int d = ac->depth - 1; d >= 0; d--) {
    const ir_stmt *l = ac->loops[d];
    long c = aff_coef(out, l->iter);
    if (!c) continue;
    const ir_expr *b = (c * sign > 0) ? l->hi : l->lo;
    aff bf;
    if (aff_of(p, b, 0, &bf)) return 0;
    aff_term(out, l->iter, -c);
    aff_addf(out, &bf, c);
  }
  return 1;
}

/* The sign of affine form d for all sizes at least 1 (as the later stages
 * assume): 1 if d >= 0 always, -1 if d <= 0 always, 0 if it depends. */
static int aff_sign(const aff *d) {
  long least = d->c;
  int pos = 0, neg = 0;
  for (int t = 0; t < d->n; t++) {
    pos |= d->coef[t] > 0;
    neg |= d->coef[t] < 0;
    least += d->coef[t]; /* the value with every size at 1 */
  }
  if (!neg && least >= 0) return 1;
  if (!pos && least <= 0) return -1;
  return 0;
}

/* Fold x into the running maximum *m (have: *m is set); 0 if the two are
 * not comparable (which is larger depends on the sizes). */
static int aff_fold_max(aff *m, int *have, const aff *x) {
  if (!*have) {
    *m = *x;
    *have = 1;
    return 1;
  }
  aff d = {0};
  aff_addf(&d, x, 1);
  aff_addf(&d, m, -1);
  int sign = aff_sign(&d);
  if (sign > 0) *m = *x;
  return sign != 0;
}

static const char *aff_str(parser *p, const aff *f) {
  return expr_str(p, aff_build(p, f, (ir_pos){0}));
}

/* Check that the index form f of access ac is at least 0 everywhere. */
static void need_nonneg(parser *p, const ptr_access *ac, const aff *f, const char *what) {
  aff lo;
  if (!aff_extreme(p, f, ac, -1, &lo))
    error_pos(p, ac->e->pos, "loop bounds without min/max around pointer accesses",
              "cannot recover the shape of '%s' from loop bounds with min or max",
              p->vars[ac->e->var]->name);
  if (aff_sign(&lo) <= 0 && !(aff_is_const(&lo) && lo.c == 0))
    error_pos(p, ac->e->pos, "pointer subscripts that stay at or above 0 in every loop",
              "the %s of '%s' may be negative (its smallest value is %s)", what,
              p->vars[ac->e->var]->name, aff_str(p, &lo));
}

/* Record the assumption lo <= hi (affine in sizes) that a view needs,
 * once (docs/frontend.md, "Regions of declared arrays"). */
static void add_assume(parser *p, const aff *lo, const aff *hi, ir_pos pos) {
  ir_kernel *k = p->k;
  ir_expr *l = aff_build(p, lo, pos), *h = aff_build(p, hi, pos);
  for (int i = 0; i < k->nassumes; i++)
    if (ir_expr_equal(k->assumes[i].lo, l) && ir_expr_equal(k->assumes[i].hi, h)) return;
  ir_assume *a = IR_NEW_N(p->a, ir_assume, k->nassumes + 1);
  if (k->nassumes) memcpy(a, k->assumes, sizeof *a * (size_t)k->nassumes);
  a[k->nassumes].lo = l;
  a[k->nassumes].hi = h;
  a[k->nassumes].pos = pos;
  k->assumes = a;
  k->nassumes++;
}

static long floor_div(long a, long b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* Delinearize pointer v by a constant row length s (rgb[3*i + c],
 * c < 3; x[2*i] and x[2*i + 1]): s is the largest coefficient of an
 * iterator in its flat indices pf[0..n-1] (affine, no size parameter as a
 * row length), every index must be s*Q + R with Q the terms whose
 * coefficients s divides and R the others plus a constant that keeps R in
 * [0, s) over the loops.  Then v is the 2-D array [M][s] (M = max Q + 1),
 * or, when R stays below K < s, the region [M][K] of the storage [M][s]
 * (no assumption: both are constants), and each access becomes [Q][R].
 * Returns 1 when it applies, else 0 with nothing changed. */
static int shape_const_rows(parser *p, ir_var *v, ptr_access *acs, int n, const poly *pf) {
  long s = 0;
  for (int k = 0; k < n; k++)
    for (int t = 0; t < pf[k].lin.n; t++) {
      long c = pf[k].lin.coef[t] < 0 ? -pf[k].lin.coef[t] : pf[k].lin.coef[t];
      if (p->vars[pf[k].lin.var[t]]->kind == IR_VAR_ITER && c > s) s = c;
    }
  if (s < 2) return 0;
  aff *q = ir_calloc((size_t)n * 2, sizeof *q), *r = q + n;
  long kmax = 0;
  int ok = 1;
  for (int k = 0; k < n && ok; k++) {
    const aff *f = &pf[k].lin;
    for (int t = 0; t < f->n && ok; t++) {
      if (!f->coef[t]) continue;
      if (f->coef[t] % s == 0) aff_term(&q[k], f->var[t], f->coef[t] / s);
      else if (p->vars[f->var[t]]->kind == IR_VAR_ITER) aff_term(&r[k], f->var[t], f->coef[t]);
      else ok = 0;
    }
    aff lo, hi;
    ok = ok && aff_extreme(p, &r[k], &acs[k], -1, &lo) && aff_extreme(p, &r[k], &acs[k], 1, &hi) &&
         aff_is_const(&lo) && aff_is_const(&hi);
    if (!ok) break;
    long q0 = floor_div(f->c + lo.c, s), r0 = f->c - q0 * s;
    q[k].c += q0;
    r[k].c += r0;
    ok = hi.c + r0 < s;
    if (hi.c + r0 + 1 > kmax) kmax = hi.c + r0 + 1;
  }
  if (!ok) {
    ir_free(q);
    return 0;
  }
  aff ext_q = {0};
  int have_q = 0;
  for (int k = 0; k < n; k++) {
    aff hi;
    need_nonneg(p, &acs[k], &q[k], "row index");
    if (!aff_extreme(p, &q[k], &acs[k], 1, &hi) || !aff_fold_max(&ext_q, &have_q, &hi))
      error_pos(p, acs[k].e->pos, "accesses whose extents differ by a constant",
                "cannot recover one row count for '%s' from its accesses", v->name);
    ir_expr *e = acs[k].e;
    ir_pos pos = e->args[0]->pos;
    e->args = IR_NEW_N(p->a, ir_expr *, 2);
    e->nargs = 2;
    e->args[0] = aff_build(p, &q[k], pos);
    e->args[1] = aff_build(p, &r[k], pos);
  }
  ir_free(q);
  ext_q.c += 1;
  aff ks = {0}, kk = {0};
  ks.c = s;
  kk.c = kmax;
  v->rank = 2;
  v->dims[0] = aff_build(p, &ext_q, v->pos);
  v->dims[1] = aff_build(p, &kk, v->pos);
  if (kmax < s) { /* the region [M][K] of [M][s] */
    v->store[0] = v->dims[0];
    v->store[1] = aff_build(p, &ks, v->pos);
  }
  return 1;
}

/* Is e a size parameter minus a positive constant (n - 1)?  The size in
 * *to.  A pointer's extent of that form is padded to the size: the tensor
 * types take sizes, and the elements past the storage are never accessed,
 * so the kernel over the padded array is the kernel (docs/frontend.md). */
static int size_minus_const(parser *p, const aff *e, aff *to) {
  int var = -1;
  for (int i = 0; i < e->n; i++) {
    if (!e->coef[i]) continue;
    if (var >= 0 || e->coef[i] != 1 || p->vars[e->var[i]]->kind != IR_VAR_SIZE) return 0;
    var = e->var[i];
  }
  if (var < 0 || e->c >= 0) return 0;
  *to = (aff){0};
  aff_term(to, var, 1);
  return 1;
}

/* Give pointer parameter var a shape from its accesses acs[0..n-1]
 * (delinearization, as polyhedral compilers do for parametric sizes):
 * flat indices affine in the loops give a 1-D array of extent max + 1;
 * indices s*Q + R with one size parameter s as the stride (a[i*n + j])
 * give a 2-D array [M][s], M = max Q + 1, each access becoming [Q][R].
 * R must stay below s: when its extent K is not provably at most s (a
 * leading dimension lda with j < K, a stride x[i*incx]) the array is a
 * view, the region [M][K] of the storage [M][s], under the assumption
 * K <= s (kept in the kernel); K always above s (j <= n) is refused.
 * Without a size parameter as the row length, a constant one may apply
 * (shape_const_rows). */
static void shape_pointer(parser *p, int var, ptr_access *acs, int n) {
  ir_var *v = p->vars[var];
  if (!n)
    error_pos(p, v->pos, "pointer parameters that the kernel accesses",
              "cannot recover the shape of the pointer '%s': the kernel never "
              "accesses it", v->name);
  int stride = -1;
  poly *pf = ir_calloc((size_t)n, sizeof *pf);
  p->pf = pf; /* freed by the caller, also when an error longjmps out */
  for (int k = 0; k < n; k++) {
    const ir_expr *bad = poly_of(p, acs[k].e->args[0], &pf[k]);
    if (bad) {
      error_pos(p, bad->pos, "flat subscripts such as a[i*n + j], affine in loop "
                "iterators apart from one size parameter as the row length",
                "non-affine subscript: '%s' in the flat index of '%s'",
                expr_str(p, bad), v->name);
    }
    for (int t = 0; t < pf[k].n2; t++) {
      if (!pf[k].coef2[t]) continue;
      int a = pf[k].va[t], b = pf[k].vb[t];
      int sa = p->vars[a]->kind == IR_VAR_SIZE, sb = p->vars[b]->kind == IR_VAR_SIZE;
      int s = sa && !sb ? a : sb && !sa ? b : -1;
      if (s < 0 || (stride >= 0 && s != stride)) {
          error_pos(p, acs[k].e->pos, "flat subscripts a[i*n + j] with one size "
                  "parameter as the row length",
                  s < 0 ? "non-affine subscript: the flat index of '%s' multiplies "
                          "two %s"
                        : "the flat indices of '%s' use two different row lengths",
                  v->name, sa ? "size parameters" : "loop iterators");
      }
      stride = s;
    }
  }
  if (stride < 0 && shape_const_rows(p, v, acs, n, pf)) {
    ir_free(pf);
    p->pf = NULL;
    return;
  }
  aff ext_q = {0}, ext_r = {0};
  int have_q = 0, have_r = 0;
  for (int k = 0; k < n; k++) {
    aff q = {0}, r = pf[k].lin, hi;
    if (stride >= 0) {
      q.c = aff_coef(&r, stride);
      aff_term(&r, stride, -q.c);
      for (int t = 0; t < pf[k].n2; t++)
        if (pf[k].coef2[t])
          aff_term(&q, pf[k].va[t] == stride ? pf[k].vb[t] : pf[k].va[t], pf[k].coef2[t]);
      need_nonneg(p, &acs[k], &q, "row index");
      if (!aff_extreme(p, &q, &acs[k], 1, &hi) || !aff_fold_max(&ext_q, &have_q, &hi)) {
          error_pos(p, acs[k].e->pos, "accesses whose extents differ by a constant",
                  "cannot recover one row count for '%s' from its accesses", v->name);
      }
    }
    need_nonneg(p, &acs[k], &r, stride >= 0 ? "column index" : "subscript");
    if (!aff_extreme(p, &r, &acs[k], 1, &hi) || !aff_fold_max(&ext_r, &have_r, &hi)) {
      error_pos(p, acs[k].e->pos, "accesses whose extents differ by a constant",
                "cannot recover one extent for '%s' from its accesses (one reaches %s)",
                v->name, aff_str(p, &hi));
    }
    ir_expr *e = acs[k].e;
    ir_pos pos = e->args[0]->pos;
    if (stride >= 0) {
      e->args = IR_NEW_N(p->a, ir_expr *, 2);
      e->nargs = 2;
      e->args[0] = aff_build(p, &q, pos);
      e->args[1] = aff_build(p, &r, pos);
    } else {
      e->args[0] = aff_build(p, &r, pos);
    }
  }
  ext_r.c += 1; /* extents: largest index + 1 */
  ext_q.c += 1;
  /* the outer extent a size minus a constant (y[i], 1 <= i < n-1: n - 1):
   * padded to the size, the storage n - 1 (ir_var.padded) */
  aff *outer = stride >= 0 ? &ext_q : &ext_r, padded_to = {0};
  int pad = size_minus_const(p, outer, &padded_to);
  if (stride >= 0) {
    aff s = {0}, d = {0};
    aff_term(&s, stride, 1);
    aff_addf(&d, &ext_r, 1);
    aff_addf(&d, &s, -1);
    if (aff_is_const(&d) && d.c > 0)
      error_pos(p, acs[0].e->pos, "flat subscripts a[i*n + j] whose column index "
                "stays below the row length n",
                "the column index of the flat index of '%s' reaches %s, past its row "
                "length %s", v->name, aff_str(p, &ext_r), p->vars[stride]->name);
    v->rank = 2;
    v->dims[0] = aff_build(p, &ext_q, v->pos);
    if (aff_is_const(&d) && d.c <= 0) {
      v->dims[1] = aff_build(p, &s, v->pos);
    } else {
      /* a leading dimension (j < k <= lda) or a stride (x[i*incx]): the
       * region [M][K] of the storage [M][s], under K <= s */
      v->dims[1] = aff_build(p, &ext_r, v->pos);
      v->store[0] = v->dims[0];
      v->store[1] = aff_build(p, &s, v->pos);
      add_assume(p, &ext_r, &s, acs[0].e->pos);
    }
  } else {
    v->rank = 1;
    v->dims[0] = aff_build(p, &ext_r, v->pos);
  }
  if (pad) {
    v->store[0] = v->dims[0];
    v->dims[0] = aff_build(p, &padded_to, v->pos);
    if (v->rank == 2 && !v->store[1]) v->store[1] = v->dims[1];
    v->padded = 1u;
  }
  ir_free(pf);
  p->pf = NULL;
}

/* Collect the accesses to pointer parameters under statement list s, with
 * the loops around them (stack[0..depth-1]). */
static void collect_accesses(parser *p, ir_expr *e, const ir_stmt **stack, int depth,
                             ptr_access **acs, int *n, int *cap) {
  if (!e) return;
  for (int i = 0; i < e->nargs; i++) collect_accesses(p, e->args[i], stack, depth, acs, n, cap);
  if (e->kind != IR_EX_ELEM || (!p->ptr[e->var] && !p->all_arrays)) return;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    *acs = ir_realloc(*acs, sizeof **acs * (size_t)*cap);
  }
  ptr_access *a = &(*acs)[(*n)++];
  a->e = e;
  a->depth = depth;
  a->loops = ir_malloc(sizeof *a->loops * (size_t)(depth ? depth : 1));
  if (depth) memcpy(a->loops, stack, sizeof *stack * (size_t)depth);
}

static void collect_stmts(parser *p, const ir_stmt *s, const ir_stmt **stack, int depth,
                          ptr_access **acs, int *n, int *cap) {
  for (; s; s = s->next) {
    switch (s->kind) {
    case IR_ST_FOR:
      stack[depth] = s;
      collect_stmts(p, s->body, stack, depth + 1, acs, n, cap);
      break;
    case IR_ST_IF:
      collect_accesses(p, s->cond, stack, depth, acs, n, cap);
      collect_stmts(p, s->then_body, stack, depth, acs, n, cap);
      collect_stmts(p, s->else_body, stack, depth, acs, n, cap);
      break;
    case IR_ST_ASSIGN:
      collect_accesses(p, s->lhs, stack, depth, acs, n, cap);
      collect_accesses(p, s->rhs, stack, depth, acs, n, cap);
      break;
    }
  }
}

/* Free the accesses an earlier pass left in p->acs. */
static void drop_accesses(parser *p) {
  for (int k = 0; k < p->nacs; k++) ir_free(p->acs[k].loops);
  ir_free(p->acs);
  p->acs = NULL;
  p->nacs = 0;
}

/* Give every pointer parameter its shape from the kernel's accesses. */
static void delinearize(parser *p) {
  const ir_stmt *stack[FE_MAX_STMT_NEST + 1];
  ptr_access *acs = NULL;
  int n = 0, cap = 0;
  collect_stmts(p, p->k->body, stack, 0, &acs, &n, &cap);
  /* Errors longjmp out: the accesses are kept in p->scratch_acs to be
   * freed by the caller. */
  p->acs = acs;
  p->nacs = n;
  for (int var = 0; var < p->nvars; var++) {
    if (!p->ptr[var]) continue;
    int m = 0;
    ptr_access *mine = ir_malloc(sizeof *mine * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++)
      if (acs[k].e->var == var) mine[m++] = acs[k];
    p->mine = mine;
    shape_pointer(p, var, mine, m);
    ir_free(mine);
    p->mine = NULL;
    p->ptr[var] = 0;
  }
  for (int k = 0; k < n; k++) ir_free(acs[k].loops);
  ir_free(acs);
  p->acs = NULL;
  p->nacs = 0;
}

/* Check that every subscript stays inside its array's extent for all
 * sizes, as far as the loop bounds tell: when the largest value of a
 * subscript and the extent differ by more than a constant and the array
 * could not be made a view (view_declared: loops up to a constant N over
 * an array of extent n give a region of constant extent N, which the later
 * stages cannot type), the access is inside the array only under an
 * assumption on the sizes (N <= n): refused, naming it.
 * Subscripts under min/max bounds, constant subscripts (A[i][1] needs
 * m >= 2) and local arrays are left to the run-time checks. */
static void check_extents(parser *p) {
  const ir_stmt *stack[FE_MAX_STMT_NEST + 1];
  ptr_access *acs = NULL;
  int n = 0, cap = 0;
  drop_accesses(p);
  p->all_arrays = 1;
  collect_stmts(p, p->k->body, stack, 0, &acs, &n, &cap);
  p->all_arrays = 0;
  p->acs = acs;
  p->nacs = n;
  for (int k = 0; k < n; k++) {
    const ir_expr *e = acs[k].e;
    const ir_var *v = p->vars[e->var];
    if (v->kind != IR_VAR_ARRAY) continue; /* local scratch: run-time checks */
    for (int d = 0; d < e->nargs && d < v->rank; d++) {
      aff f, hi, dim, diff = {0};
      if (aff_of(p, e->args[d], 0, &f) || aff_of(p, v->dims[d], 1, &dim) ||
          !aff_extreme(p, &f, &acs[k], 1, &hi))
        continue;
      int through_loops = 0; /* a constant subscript (A[i][1]) is left alone */
      for (int t = 0; t < f.n; t++)
        through_loops |= f.coef[t] && p->vars[f.var[t]]->kind == IR_VAR_ITER;
      if (!through_loops) continue;
      aff_addf(&diff, &hi, 1);
      aff_addf(&diff, &dim, -1);
      diff.c += 1; /* hi - (dim - 1) <= 0 is needed */
      if (aff_is_const(&diff) || aff_sign(&diff) < 0) continue;
      hi.c += 1;
      error_pos(p, e->args[d]->pos, "subscripts that the loop bounds keep inside "
                "the array's extent for all sizes",
                "the %s subscript of '%s' stays inside its extent %s only under the "
                "assumption %s <= %s (its loops reach %s), and a region of it "
                "whose extents are not size parameters is not yet supported", ir_ordinal(d + 1), v->name, aff_str(p, &dim),
                aff_str(p, &hi), aff_str(p, &dim), aff_str(p, &hi));
    }
  }
}

/* A dim symbol for every constant extent c >= 2 of an array (float w[3],
 * x[LEN], a region [npix][3]): one IR_VAR_EXTENT variable per value,
 * named by it ("3"), which the later stages take as a size symbol whose
 * value is always c (ir_kernel_pin_extents).  The extents themselves stay
 * constants in the loop program. */
static void extent_vars(parser *p) {
  int nv = p->nvars;
  for (int v = 0; v < nv; v++)
    for (int d = 0; d < p->vars[v]->rank; d++) {
      aff dim;
      if (aff_of(p, p->vars[v]->dims[d], 1, &dim) || !aff_is_const(&dim) || dim.c < 2) continue;
      p->k->vars = p->vars;
      p->k->nvars = p->nvars;
      if (ir_kernel_extent_var(p->k, dim.c) >= 0) continue;
      fe_tok t = {0};
      t.text = ir_arena_printf(p->a, "%ld", dim.c);
      t.pos = p->vars[v]->pos;
      int x = new_var(p, IR_VAR_EXTENT, &t, IR_I32);
      p->vars[x]->value = dim.c;
      p->vars[x]->pos = p->vars[v]->pos;
    }
  p->k->vars = p->vars;
  p->k->nvars = p->nvars;
}

/* Is f one size parameter, or a positive constant (a dim the later stages
 * take as a symbol: 1, or a constant extent's, extent_vars)? */
static int aff_is_symbol(const parser *p, const aff *f) {
  int nsym = 0, other = 0;
  for (int t = 0; t < f->n; t++) {
    if (!f->coef[t]) continue;
    if (f->coef[t] == 1 && p->vars[f->var[t]]->kind == IR_VAR_SIZE) nsym++;
    else other = 1;
  }
  return !other && ((nsym == 1 && f->c == 0) || (nsym == 0 && f->c >= 1));
}

/* Make a parameter array whose declared extents are not size parameters
 * (padding: A[m + 4][n + 4]), or whose accesses reach past its extents by
 * more than a constant (loops to m over x[n]), a view of the region its
 * accesses reach, when that region's extents are size parameters
 * (A[i][j], i < m, j < n: the region [m][n]), under the assumptions that
 * the region fits (m <= n; m <= m + 4 holds always and is not recorded).  The region starts at 0: an array
 * whose subscripts may be negative, or whose bounds have min/max, is left
 * as it is (the later stages say what they support). */
static void view_declared(parser *p) {
  const ir_stmt *stack[FE_MAX_STMT_NEST + 1];
  ptr_access *acs = NULL;
  int n = 0, cap = 0;
  drop_accesses(p);
  p->all_arrays = 1;
  collect_stmts(p, p->k->body, stack, 0, &acs, &n, &cap);
  p->all_arrays = 0;
  p->acs = acs;
  p->nacs = n;
  for (int i = 0; i < p->nparams; i++) {
    ir_var *v = p->vars[p->params[i]];
    if (v->kind != IR_VAR_ARRAY || !v->rank || ir_var_is_view(v)) continue;
    aff dim[IR_MAX_RANK], ext[IR_MAX_RANK];
    int have[IR_MAX_RANK] = {0}, ok = 1, symbols = 1, seen = 0, fits = 1;
    for (int d = 0; d < v->rank && ok; d++) {
      ok = !aff_of(p, v->dims[d], 1, &dim[d]);
      symbols &= ok && aff_is_symbol(p, &dim[d]);
    }
    if (!ok) continue;
    for (int k = 0; k < n && ok; k++) {
      const ir_expr *e = acs[k].e;
      if (e->var != v->id) continue;
      seen = 1;
      for (int d = 0; d < v->rank && d < e->nargs && ok; d++) {
        aff f, lo, hi;
        ok = !aff_of(p, e->args[d], 0, &f) && aff_extreme(p, &f, &acs[k], -1, &lo) &&
             aff_extreme(p, &f, &acs[k], 1, &hi) && aff_sign(&lo) > 0;
        hi.c += 1;
        ok = ok && aff_fold_max(&ext[d], &have[d], &hi);
      }
    }
    for (int d = 0; d < v->rank && ok; d++) {
      aff diff = {0};
      ok = have[d] && aff_is_symbol(p, &ext[d]);
      if (!ok) break; /* ext[d] unset: an array declared and never accessed */
      aff_addf(&diff, &ext[d], 1);
      aff_addf(&diff, &dim[d], -1);
      fits &= aff_is_const(&diff) && diff.c <= 0;
    }
    /* extents that are sizes and hold the accesses: the array as it is */
    if (!ok || !seen || (symbols && fits)) continue;
    for (int d = 0; d < v->rank; d++) {
      aff diff = {0};
      aff_addf(&diff, &ext[d], 1);
      aff_addf(&diff, &dim[d], -1);
      v->store[d] = v->dims[d];
      v->dims[d] = aff_build(p, &ext[d], v->pos);
      if (!aff_is_const(&diff) || diff.c > 0) add_assume(p, &ext[d], &dim[d], v->pos);
    }
  }
}

static void skip_attributes(parser *p) {
  while (is(p, "__attribute__") || is(p, "__asm__") || is(p, "asm")) {
    next(p);
    if (!is(p, "(")) return;
    int depth = 0;
    do {
      if (is(p, "(")) depth++;
      if (is(p, ")")) depth--;
      next(p);
    } while (depth > 0 && tok(p)->kind != FE_TK_EOF);
  }
}

/* kernel: specifiers type ident '(' (param (',' param)* | 'void')? ')' '{' block-items '}'
 * type is void, or double/float (a typedef of one): the value of the final
 * `return e;` is the kernel's output `ret` (see parse_return). */
/* Is e an integer expression of size parameters and integer constants
 * only, with at least one size (`n`, `n * m`, `n - 1`)? */
static int sizes_expr(parser *p, const ir_expr *e, int *nsizes) {
  switch (e->kind) {
  case IR_EX_CONST: return e->is_int;
  case IR_EX_VAR:
    if (p->vars[e->var]->kind != IR_VAR_SIZE || p->dead[e->var]) return 0;
    ++*nsizes;
    return 1;
  case IR_EX_ADD: case IR_EX_SUB: case IR_EX_MUL: case IR_EX_NEG:
    for (int i = 0; i < e->nargs; i++)
      if (!sizes_expr(p, e->args[i], nsizes)) return 0;
    return e->type == IR_I32;
  default: return 0;
  }
}

/* The scalar standing for the size expression `(t)e` (one per distinct
 * expression and type): named after the size (`n_val`), else `size_val`. */
static int size_value_var(parser *p, ir_expr *cast) {
  for (int v = 0; v < p->nvars; v++)
    if (p->vars[v]->size_value && p->vars[v]->elem == cast->type &&
        ir_expr_equal(p->vars[v]->size_value, cast->args[0]))
      return v;
  const ir_expr *e = cast->args[0];
  fe_tok t = {0};
  t.text = e->kind == IR_EX_VAR ? ir_arena_printf(p->a, "%s_val", p->vars[e->var]->name)
                                : "size_val";
  t.pos = cast->pos;
  t.in_main = 1;
  int v = new_var(p, IR_VAR_SCALAR, &t, cast->type);
  p->vars[v]->size_value = cast->args[0];
  return v;
}

/* A size used as a value: `(float)n` (the conversion the usual arithmetic
 * conversions put on an integer operand of floating arithmetic) becomes a
 * read-only scalar of the element type (size_value_var), so the later
 * stages see an input, as for `float alpha`. */
static void size_values_expr(parser *p, ir_expr **ep) {
  ir_expr *e = *ep;
  int nsizes = 0;
  if (e->kind == IR_EX_CAST && ir_elem_is_float(e->type) &&
      sizes_expr(p, e->args[0], &nsizes) && nsizes) {
    *ep = mk_var(p, size_value_var(p, e), e->pos);
    return;
  }
  for (int i = 0; i < e->nargs; i++) size_values_expr(p, &e->args[i]);
}

/* size_values_expr over the data expressions of a statement list (right
 * sides and conditions; subscripts and bounds stay integer). */
static void size_values_stmts(parser *p, ir_stmt *st) {
  for (; st; st = st->next) {
    switch (st->kind) {
    case IR_ST_FOR: size_values_stmts(p, st->body); break;
    case IR_ST_IF:
      size_values_expr(p, &st->cond);
      size_values_stmts(p, st->then_body);
      size_values_stmts(p, st->else_body);
      break;
    case IR_ST_ASSIGN: size_values_expr(p, &st->rhs); break;
    }
  }
}

static void parse_kernel(parser *p, const fe_tok *name) {
  int has_type = 0;
  while (p->t + p->i != name) {
    const fe_tok *t = tok(p);
    if (is(p, "static") || is(p, "inline") || is(p, "__inline") || is(p, "__inline__") ||
        is(p, "extern") || is(p, "__extension__")) {
      next(p);
    } else if (is(p, "__attribute__")) {
      skip_attributes(p);
    } else if (!has_type && is_type_start(p, t)) {
      ctype ct;
      parse_ctype(p, 1, &ct);
      has_type = 1;
      if (ct.elem == IR_I32)
        error_tok(p, t, "void kernels, and kernels returning double or float",
                  "the kernel function '%s' returns an integer ('%s'): integer results "
                  "are not yet supported", name->text, ct.name);
      if (ct.elem != IR_I1) {
        p->ret_elem = ct.elem;
        p->ret_tok = t;
      }
    } else {
      error_tok(p, t, "void kernels, and kernels returning double or float",
                "unexpected '%s' before the kernel function '%s'", describe(t), name->text);
    }
  }
  if (!has_type)
    error_tok(p, name, "void kernels, and kernels returning double or float",
              "the kernel function '%s' has no return type", name->text);
  next(p);
  expect(p, "(");
  if (is(p, "void") && tok_is(peek(p, 1), ")")) next(p);
  int *dims_at = NULL;
  if (!is(p, ")")) {
    do {
      if (is(p, "..."))
        error_tok(p, tok(p), SUP_PARAM, "variadic kernels are not supported");
      dims_at = ir_realloc(dims_at, sizeof *dims_at * (size_t)(p->nparams + 1));
      p->dims_at = dims_at;
      parse_param(p, &dims_at[p->nparams]);
    } while (accept(p, ","));
  }
  int after = p->i;
  for (int i = 0; i < p->nparams; i++)
    if (dims_at[i] >= 0) {
      p->i = dims_at[i];
      const fe_tok *name = &p->t[dims_at[i] - 1];
      parse_dims(p, p->params[i], name, 1);
    }
  p->i = after;
  expect(p, ")");
  p->counter = -1;
  skip_attributes(p);
  expect(p, "{");
  global_operands(p);
  /* pointer walks: one offset per variable so far (parameters, globals) */
  p->wbase = ir_calloc((size_t)p->nvars + 1, sizeof *p->wbase);
  p->wcount = ir_calloc((size_t)p->nvars + 1, sizeof *p->wcount);
  p->k->body = parse_items(p);
  if (p->ret_tok && !p->k->returns)
    error_tok(p, tok(p), "a kernel returning a value ends with 'return EXPR;'",
              "the kernel function '%s' returns %s but does not end with 'return EXPR;'",
              name->text, ir_elem_c_name(p->ret_elem));
  expect(p, "}");
  delinearize(p);
  view_declared(p);
  check_extents(p);
  extent_vars(p);
}

/* ------------------------------------------------------ finding the kernel */

typedef struct fndef {
  int name, open;
  int start;     /* first token of the definition */
  int has_loops; /* its body has a for, while or do loop */
} fndef;

/* Index of the token matching the bracket at i (forward or backward),
 * or -1. */
static int match_bracket(const fe_tok *t, int n, int i, const char *open,
                         const char *close, int dir) {
  int depth = 0;
  for (int j = i; j >= 0 && j < n; j += dir) {
    if (tok_is(&t[j], open)) depth++;
    if (tok_is(&t[j], close) && --depth == 0) return j;
  }
  return -1;
}

/* The function definitions at file scope whose name token is in the user's
 * file (heap array).  Not inlined: its locals would sit in the caller's
 * frame across the parser's setjmp (-Wclobbered). */
__attribute__((noinline)) static fndef *find_functions(const fe_tok *t, int n, int *count) {
  fndef *defs = NULL;
  int nd = 0, depth = 0;
  for (int i = 0; i < n; i++) {
    if (tok_is(&t[i], "}") && depth > 0) depth--;
    if (!tok_is(&t[i], "{")) continue;
    if (depth++ > 0) continue;
    int j = i - 1;
    /* skip trailing __attribute__((...)) */
    while (j > 0 && tok_is(&t[j], ")")) {
      int o = match_bracket(t, n, j, ")", "(", -1);
      if (o <= 0 || t[o - 1].kind != FE_TK_IDENT) break;
      if (!strcmp(t[o - 1].text, "__attribute__") || !strcmp(t[o - 1].text, "__asm__")) {
        j = o - 2;
        continue;
      }
      if (is_keyword(&t[o - 1])) break;
      int start = o - 1;
      while (start > 0 && t[start - 1].in_main == t[o - 1].in_main &&
             !tok_is(&t[start - 1], ";") && !tok_is(&t[start - 1], "}") &&
             !tok_is(&t[start - 1], "{"))
        start--;
      if (t[o - 1].in_main) {
        int close = match_bracket(t, n, i, "{", "}", 1), loops = 0;
        for (int k = i; k < (close < 0 ? n : close) && !loops; k++)
          loops = tok_is(&t[k], "for") || tok_is(&t[k], "while") || tok_is(&t[k], "do");
        defs = ir_realloc(defs, sizeof *defs * (size_t)(nd + 1));
        defs[nd++] = (fndef){o - 1, i, start, loops};
      }
      break;
    }
  }
  *count = nd;
  return defs;
}

static int starts_with(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}

/* The names of defs that start with prefix ("" for all), ", "-separated,
 * into buf (n bytes).  The list must leave room in an ir_error message for
 * the text around it: names that do not fit end it with "...". */
static void name_list(char *buf, size_t n, const fe_tok *t, const fndef *defs, int nd,
                      const char *prefix) {
  size_t at = 0;
  buf[0] = 0;
  for (int i = 0; i < nd; i++) {
    const char *name = t[defs[i].name].text;
    if (!starts_with(name, prefix)) continue;
    if (at + strlen(name) + 8 >= n) {
      snprintf(buf + at, n - at, "%s...", at ? ", " : "");
      return;
    }
    at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "", name);
  }
}

/* Choose the kernel among defs; returns -1 with err filled if none or
 * several fit. */
static int choose_kernel(const ir_source *src, const fe_tok *t, const fndef *defs,
                         int nd, const char *function, ir_error *err) {
  char list[160];
  name_list(list, sizeof list, t, defs, nd, "");
  ir_pos none = {src->name, 0, 0};
  ir_pos first = nd ? t[defs[0].name].pos : none;
  if (function) {
    for (int i = 0; i < nd; i++)
      if (!strcmp(t[defs[i].name].text, function)) return i;
    if (nd)
      return fe_error(err, first, NULL,
                      "no function named '%s' is defined in this file (functions "
                      "defined here: %s)", function, list);
    return fe_error(err, none, NULL,
                    "no function named '%s' is defined in this file (it defines "
                    "no function)", function);
  }
  int found = -1;
  for (int i = 0; i < nd; i++) {
    if (!starts_with(t[defs[i].name].text, "kernel_")) continue;
    if (found >= 0) {
      char kl[160];
      name_list(kl, sizeof kl, t, defs, nd, "kernel_");
      return fe_error(err, t[defs[i].name].pos, "--function NAME to choose one",
                      "several kernel functions are defined in this file (%s); "
                      "choose one with --function NAME", kl);
    }
    found = i;
  }
  if (found >= 0) return found;
  /* No kernel_*: the only function with loops (main excepted). */
  int nloops = 0;
  for (int i = 0; i < nd; i++)
    if (defs[i].has_loops && strcmp(t[defs[i].name].text, "main")) {
      found = i;
      nloops++;
    }
  if (nloops == 1) return found;
  if (nloops > 1)
    return fe_error(err, t[defs[found].name].pos, "--function NAME to choose one",
                    "no kernel function: no function is named kernel_* and several "
                    "functions have loops (functions defined here: %s); choose one "
                    "with --function NAME", list);
  if (nd)
    return fe_error(err, first, "a function named kernel_*, or --function NAME",
                    "no kernel function: no function named kernel_* and no function "
                    "with loops is defined in this file (functions defined here: %s)",
                    list);
  return fe_error(err, none, "a function named kernel_*, or --function NAME",
                  "no kernel function: this file defines no function");
}

/* The names of the variables declared at file scope in the user's file
 * (float a[LEN], b[LEN]; double s = 0;), each with the index of its name
 * token, for the arrays the kernel uses (global_operands) and a message
 * for the scalars: an identifier outside braces and parentheses followed by '[',
 * '=', ',' or ';', in a declaration that is not a typedef. */
static void globals_collect(name_map *m, const fe_tok *t, int n, ir_arena *a) {
  int depth = 0, paren = 0, in_typedef = 0;
  for (int i = 0; i < n; i++) {
    if (tok_is(&t[i], "{")) depth++;
    if (tok_is(&t[i], "}") && depth > 0) depth--;
    if (tok_is(&t[i], "(")) paren++;
    if (tok_is(&t[i], ")") && paren > 0) paren--;
    if (depth || paren) continue;
    if (tok_is(&t[i], "typedef")) in_typedef = 1;
    if (tok_is(&t[i], ";")) in_typedef = 0;
    if (in_typedef || !t[i].in_main || t[i].kind != FE_TK_IDENT || is_keyword(&t[i]))
      continue;
    const fe_tok *nx = &t[i + 1 < n ? i + 1 : n];
    if (tok_is(nx, "[") || tok_is(nx, "=") || tok_is(nx, ",") || tok_is(nx, ";"))
      *map_slot(m, ir_arena_strdup(a, t[i].text), 1) = i; /* its name token */
  }
}

/* ---------------------------------------------------------- input checks */

/* Reject empty and binary files (NUL bytes, control characters, invalid
 * UTF-8).  Returns 0 when the text is fine, or -1 with err filled. */
static int check_text(const ir_source *src, ir_error *err) {
  const unsigned char *s = (const unsigned char *)src->text;
  size_t n = src->len;
  int line = 1, col = 1, blank = 1;
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    int len = 1;
    const char *bad = NULL;
    if (c == 0) {
      bad = "a NUL byte";
    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
               c != '\v') {
      bad = "a control character";
    } else if (c == 0x7f) {
      bad = "a control character";
    } else if (c >= 0x80) {
      int need = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
      if (c >= 0xf5) need = -1;
      for (int k = 1; need > 0 && k <= need; k++)
        if (i + (size_t)k >= n || (s[i + (size_t)k] & 0xc0) != 0x80) need = -1;
      if (need < 0) bad = "invalid UTF-8";
      else len = need + 1;
    }
    if (bad) {
      ir_pos pos = {src->name, line, col};
      return fe_error(err, pos, "C source text (UTF-8)",
                      "not a text file: %s (byte 0x%02x at offset %zu)", bad, c, i);
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') blank = 0;
    if (c == '\n') {
      line++;
      col = 1;
    } else {
      col += len;
    }
    i += (size_t)len;
  }
  if (blank) {
    ir_pos pos = {src->name, 0, 0};
    return fe_error(err, pos, "a C file defining a kernel_* function", "empty file");
  }
  return 0;
}

static ir_elem widest(const parser *p) {
  static const ir_var_kind order[] = {IR_VAR_ARRAY, IR_VAR_LOCAL_ARRAY, IR_VAR_SCALAR,
                                      IR_VAR_LOCAL};
  for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
    int found = 0;
    ir_elem best = IR_I32;
    for (int i = 0; i < p->nvars; i++)
      if (p->vars[i]->kind == order[o]) {
        if (!found || elem_rank(p->vars[i]->elem) > elem_rank(best)) best = p->vars[i]->elem;
        found = 1;
      }
    if (found) return best;
  }
  return IR_F64;
}

ir_kernel *fe_parse_file(const char *path, const fe_options *opt, ir_arena *arena) {
  ir_source src = {0};
  const char *name = ir_arena_strdup(arena, path);
  ir_pos nopos = {name, 0, 0};
  struct stat st;
  ir_error err;
  int regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  if (ir_source_read(&src, path) < 0) {
    ir_error_set(&err, nopos, IR_ERR_SYSTEM, "cannot read file: %s", ir_read_error(errno));
    ir_error_print(&err, NULL);
    return NULL;
  }
  src.name = name;
  /* a binary file's "line" is not quoted: the error prints without src */
  if (check_text(&src, &err) < 0) {
    ir_error_print(&err, NULL);
    ir_source_free(&src);
    return NULL;
  }
  /* A pipe (/dev/stdin) can be read once: the preprocessor gets a copy
   * of the text that was read, in a temporary file, with the current
   * directory for quoted includes. */
  char tmp[] = "/tmp/uplift-stdin-XXXXXX.c";
  const char *pp_path = path;
  fe_options popt = opt ? *opt : (fe_options){0};
  const char **incs = NULL;
  if (!regular) {
    int fd = mkstemps(tmp, 2);
    FILE *tf = fd >= 0 ? fdopen(fd, "w") : NULL;
    int ok = tf && fwrite(src.text, 1, src.len, tf) == src.len;
    if (tf && fclose(tf)) ok = 0;
    if (!ok) {
      if (fd >= 0) unlink(tmp);
      ir_error_set(&err, nopos, IR_ERR_SYSTEM, "cannot copy the input for the preprocessor: %s",
                   strerror(errno));
      ir_error_print(&err, NULL);
      ir_source_free(&src);
      return NULL;
    }
    pp_path = tmp;
    incs = ir_calloc((size_t)popt.ninclude + 1, sizeof *incs);
    incs[0] = ".";
    for (int i = 0; i < popt.ninclude; i++) incs[i + 1] = popt.include_dirs[i];
    popt.include_dirs = incs;
    popt.ninclude++;
  }
  char *pp = NULL, *main_name = NULL;
  int prc = fe_preprocess(pp_path, &popt, &pp, &main_name);
  if (!regular) {
    unlink(tmp);
    ir_free(incs);
  }
  if (prc < 0) {
    ir_source_free(&src);
    return NULL;
  }
  ir_kernel *k = fe_parse_preprocessed(&src, pp, main_name, opt, arena);
  ir_free(pp);
  ir_free(main_name);
  ir_source_free(&src);
  return k;
}

ir_kernel *fe_parse_preprocessed(const ir_source *srcp, const char *pp, const char *main_name,
                                 const fe_options *opt, ir_arena *arena) {
  const ir_source src = *srcp;
  const char *name = src.name;
  ir_arena scratch;
  ir_arena_init(&scratch);
  int ntok = 0;
  fe_tok *toks = fe_tokenize(pp, main_name, &src, &scratch, &ntok);

  int nd = 0;
  fndef *defs = find_functions(toks, ntok, &nd);
  ir_kernel *result = NULL;
  parser p;
  memset(&p, 0, sizeof p);
  typedefs_collect(&p.td, toks, ntok, &scratch);
  globals_collect(&p.globals, toks, ntok, &scratch);
  int which = choose_kernel(&src, toks, defs, nd, opt ? opt->function : NULL, &p.err);
  if (which < 0) ir_error_print(&p.err, &src);
  if (which >= 0) {
    fndef d = defs[which];
    int close = match_bracket(toks, ntok, d.open, "{", "}", 1);
    int end = close < 0 ? ntok : close + 1;
    p.n = end - d.start;
    fe_tok *kt = IR_NEW_N(&scratch, fe_tok, p.n + 1);
    memcpy(kt, toks + d.start, sizeof *kt * (size_t)p.n);
    kt[p.n] = toks[ntok];
    if (close >= 0) { /* EOF just after the closing brace */
      kt[p.n].pos = toks[close].pos;
      kt[p.n].pos.col += 1;
    }
    p.t = kt;
    p.all = toks;
    p.nall = ntok;
    p.src = &src;
    p.a = arena;
    p.k = IR_NEW(arena, ir_kernel);
    p.k->name = ir_arena_strdup(arena, toks[d.name].text);
    p.k->file = name;
    if (setjmp(p.fail)) {
      ir_error_print(&p.err, &src);
    } else {
      parse_kernel(&p, kt + (d.name - d.start));
      size_values_stmts(&p, p.k->body);
      ir_kernel *k = p.k;
      k->vars = IR_NEW_N(arena, ir_var *, p.nvars ? p.nvars : 1);
      if (p.nvars) memcpy(k->vars, p.vars, sizeof *p.vars * (size_t)p.nvars);
      k->nvars = p.nvars;
      k->params = IR_NEW_N(arena, int, p.nparams ? p.nparams : 1);
      if (p.nparams) memcpy(k->params, p.params, sizeof *p.params * (size_t)p.nparams);
      k->nparams = p.nparams;
      k->nglobals = p.nglobals;
      k->nassign = p.nassign;
      k->data_type = widest(&p);
      result = k;
    }
  }
  ir_free(p.vars);
  ir_free(p.active);
  ir_free(p.ptr);
  ir_free(p.syms);
  map_free(&p.scope);
  map_free(&p.names);
  map_free(&p.td.map);
  map_free(&p.globals);
  ir_free(p.td.types);
  ir_free(p.params);
  ir_free(p.dims_at);
  for (int i = 0; i < p.nacs; i++) ir_free(p.acs[i].loops);
  ir_free(p.acs);
  ir_free(p.mine);
  ir_free(p.pf);
  ir_free(p.wbase);
  ir_free(p.wcount);
  ir_free(p.wpend);
  ir_free(p.wpend_j);
  ir_free(p.dead);
  ir_free(defs);
  ir_arena_free(&scratch);
  return result;
}
