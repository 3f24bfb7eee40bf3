/*
 * keys.c - real mode: the key that decides which arithmetic expressions
 * share an unspecified outcome (algebra.c, class_of_arith).
 *
 * When an infinity enters an arithmetic expression or a division by zero
 * happens in it, real mode does not compute IEEE's outcome (NaN, an
 * infinity, or a finite value such as 1/inf = 0); the outcome is
 * unspecified, and two expressions get the same outcome only when their
 * keys are equal.  The key is the expression's polynomial over atoms,
 * with + and * taken as associative and commutative and * distributed
 * over + (so reassociation and factoring keep one outcome, as rounding
 * does), and nothing else:
 *   - no cancellation: a monomial counts its positive and its negative
 *     occurrences separately, so x + y - x is not y (at x = inf, IEEE gives
 *     NaN), and x - x is not 0;
 *   - no arithmetic on constants: a literal is an atom (3*x is not
 *     x + x + x), except 1 and -1, the units (1*x and -1*x are x and -x
 *     exactly), and 0 in a sum (0 - x is -x; in a product 0 is an atom);
 *     but a sum of a term with itself, p + p, is 2*p (exact in IEEE: the
 *     same infinity, NaN and signed zero), so x + x and 2*x share their
 *     outcome (heat-3d's 2*A[i][j][k] raised as add(A, A));
 *   - a quotient p/q is p times the atom R(q), a root sqrt(p) the atom
 *     S(p), exp(p) the atom E(p), with q and p as keys in turn; so
 *     x * (1/x) is not 1, and 1/(1/x) is not x * x * (1/x);
 *   - a leaf that is an input element or a literal is an atom named by
 *     its value and class ASTs (Z3 hash-conses them: the same leaf on both
 *     sides is one atom); a computed leaf (the result of a select, max/min,
 *     a cast) is a placeholder P1, P2, ... by its position in the walk,
 *     and its value and class become arguments of the outcome (algebra.c):
 *     two expressions of one shape whose computed leaves are equal IEEE
 *     values share the outcome (select(A > 0, A, -A) and
 *     select(A < 0, -A, A) are different terms with equal values).
 * Keys are interned as strings of atom ids, so equal keys are one id and
 * nothing about their values as reals is used (two keys whose polynomials
 * happen to take equal values in a model are still different outcomes).
 * A polynomial too large to expand gets a key of its own (never shared):
 * incomplete, never unsound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/internal.h"

enum { KEY_MAX_MONOS = 4096, KEY_MAX_ATOMS = 512, KEY_MAX_WORK = 400000 };

typedef struct mono {
  int *at;   /* atom ids, sorted */
  int nat;
  long pos, neg; /* occurrences with each sign */
} mono;

typedef struct poly {
  mono *m;
  int n;
  int big; /* too large: no key shared */
} poly;

struct vx_keys {
  char **str;   /* interned strings by id - 1 */
  int n, cap;
  int *slot;    /* open addressing: id or 0 */
  int nslot;
  long work;
  interp_term *args; /* computed leaves of the last key, in order */
  int nargs, capargs;
};

static unsigned long str_hash(const char *s) {
  unsigned long h = 1469598103934665603ul;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ul;
  return h;
}

/* The id of string s (1, 2, ...), added if new. */
static int intern(vx *x, const char *s) {
  struct vx_keys *k = x->keys;
  if (!k) k = x->keys = ir_calloc(1, sizeof *k);
  if (2 * (k->n + 1) > k->nslot) {
    int ns = k->nslot ? 2 * k->nslot : 1024;
    int *sl = ir_calloc((size_t)ns, sizeof(int));
    for (int i = 0; i < k->n; i++) {
      unsigned long h = str_hash(k->str[i]) % (unsigned long)ns;
      while (sl[h]) h = (h + 1) % (unsigned long)ns;
      sl[h] = i + 1;
    }
    ir_free(k->slot);
    k->slot = sl;
    k->nslot = ns;
  }
  unsigned long h = str_hash(s) % (unsigned long)k->nslot;
  while (k->slot[h]) {
    if (!strcmp(k->str[k->slot[h] - 1], s)) return k->slot[h];
    h = (h + 1) % (unsigned long)k->nslot;
  }
  if (k->n == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 256;
    k->str = ir_realloc(k->str, sizeof(char *) * (size_t)k->cap);
  }
  size_t len = strlen(s) + 1;
  k->str[k->n] = ir_malloc(len);
  memcpy(k->str[k->n], s, len);
  k->slot[h] = ++k->n;
  return k->n;
}

void vx_keys_free(vx *x) {
  struct vx_keys *k = x->keys;
  if (!k) return;
  for (int i = 0; i < k->n; i++) ir_free(k->str[i]);
  ir_free(k->str);
  ir_free(k->slot);
  ir_free(k->args);
  ir_free(k);
  x->keys = NULL;
}

static void poly_free(poly *p) {
  for (int i = 0; i < p->n; i++) ir_free(p->m[i].at);
  ir_free(p->m);
  p->m = NULL;
  p->n = 0;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

static int mono_cmp(const void *pa, const void *pb) {
  const mono *a = pa, *b = pb;
  if (a->nat != b->nat) return a->nat < b->nat ? -1 : 1;
  for (int i = 0; i < a->nat; i++)
    if (a->at[i] != b->at[i]) return a->at[i] < b->at[i] ? -1 : 1;
  return 0;
}

/* Sort the monomials and merge equal ones (their counts add). */
static void poly_norm(poly *p) {
  if (p->big || !p->n) return;
  if (p->n > 1) qsort(p->m, (size_t)p->n, sizeof(mono), mono_cmp);
  int w = 0;
  for (int i = 0; i < p->n; i++) {
    if (w && !mono_cmp(&p->m[w - 1], &p->m[i])) {
      p->m[w - 1].pos += p->m[i].pos;
      p->m[w - 1].neg += p->m[i].neg;
      ir_free(p->m[i].at);
    } else {
      p->m[w++] = p->m[i];
    }
  }
  p->n = w;
  if (p->n > KEY_MAX_MONOS) p->big = 1;
}

static poly poly_atom(int id) {
  poly p = {ir_malloc(sizeof(mono)), 1, 0};
  p.m[0].at = ir_malloc(sizeof(int));
  p.m[0].at[0] = id;
  p.m[0].nat = 1;
  p.m[0].pos = 1;
  p.m[0].neg = 0;
  return p;
}

static poly poly_zero(void) {
  poly p = {NULL, 0, 0};
  return p;
}

static poly poly_big(void) {
  poly p = {NULL, 0, 1};
  return p;
}

/* a + b (b negated if neg); consumes both. */
static poly poly_add(poly a, poly b, int neg) {
  if (a.big || b.big) {
    poly_free(&a);
    poly_free(&b);
    return poly_big();
  }
  poly r = {ir_malloc(sizeof(mono) * (size_t)(a.n + b.n + 1)), 0, 0};
  for (int i = 0; i < a.n; i++) r.m[r.n++] = a.m[i];
  for (int i = 0; i < b.n; i++) {
    mono m = b.m[i];
    if (neg) {
      long t = m.pos;
      m.pos = m.neg;
      m.neg = t;
    }
    r.m[r.n++] = m;
  }
  ir_free(a.m);
  ir_free(b.m);
  poly_norm(&r);
  return r;
}

/* a * b, distributed; consumes both. */
static poly poly_mul(poly a, poly b) {
  if (a.big || b.big || (long)a.n * b.n > KEY_MAX_MONOS) {
    poly_free(&a);
    poly_free(&b);
    return poly_big();
  }
  poly r = {ir_malloc(sizeof(mono) * (size_t)(a.n * b.n + 1)), 0, 0};
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++) {
      mono m;
      m.nat = a.m[i].nat + b.m[j].nat;
      if (m.nat > KEY_MAX_ATOMS) r.big = 1;
      m.at = ir_malloc(sizeof(int) * (size_t)(m.nat + 1));
      if (a.m[i].nat) memcpy(m.at, a.m[i].at, sizeof(int) * (size_t)a.m[i].nat);
      if (b.m[j].nat) memcpy(m.at + a.m[i].nat, b.m[j].at, sizeof(int) * (size_t)b.m[j].nat);
      qsort(m.at, (size_t)m.nat, sizeof(int), cmp_int);
      m.pos = a.m[i].pos * b.m[j].pos + a.m[i].neg * b.m[j].neg;
      m.neg = a.m[i].pos * b.m[j].neg + a.m[i].neg * b.m[j].pos;
      r.m[r.n++] = m;
    }
  poly_free(&a);
  poly_free(&b);
  poly_norm(&r);
  return r;
}

/* The interned id of polynomial p (consumed); a fresh unshared id for a
 * big one (named by the term h it stands for). */
static int poly_id(vx *x, poly p, interp_term h) {
  char buf[64];
  if (p.big) {
    snprintf(buf, sizeof buf, "U%ld", (long)h);
    poly_free(&p);
    return intern(x, buf);
  }
  size_t cap = 64, len = 0;
  char *s = ir_malloc(cap);
  s[0] = 0;
  for (int i = 0; i < p.n; i++) {
    for (int j = 0; j <= p.m[i].nat; j++) {
      int w = j < p.m[i].nat
                  ? snprintf(buf, sizeof buf, "%d.", p.m[i].at[j])
                  : snprintf(buf, sizeof buf, ":%ld/%ld;", p.m[i].pos, p.m[i].neg);
      if (len + (size_t)w + 1 > cap) {
        while (len + (size_t)w + 1 > cap) cap *= 2;
        s = ir_realloc(s, cap);
      }
      memcpy(s + len, buf, (size_t)w + 1);
      len += (size_t)w;
    }
  }
  int id = intern(x, s);
  ir_free(s);
  poly_free(&p);
  return id;
}

static unsigned ast_id(vx *x, Z3_ast a) {
  return a ? Z3_get_ast_id(x->z, a) + 1 : 0;
}

static poly poly_of(vx *x, interp_term h);

/* The atom id of a wrapped key: tag R (reciprocal), S (root), E (exp). */
static poly wrapped(vx *x, char tag, interp_term a) {
  poly p = poly_of(x, a);
  if (p.big) return p;
  char buf[32];
  snprintf(buf, sizeof buf, "%c%d", tag, poly_id(x, p, a));
  return poly_atom(intern(x, buf));
}

/* Is h the literal 0?  0 + p and p - 0 are p (up to the sign of a zero,
 * which real mode does not model); in a product 0 stays an atom (inf * 0
 * is NaN). */
static int zero_lit(vx *x, interp_term h) {
  vx_term *t = &x->terms[h];
  if (t->arith || t->cn || t->ci || !Z3_is_numeral_ast(x->z, t->v) ||
      Z3_get_sort_kind(x->z, Z3_get_sort(x->z, t->v)) == Z3_BOOL_SORT)
    return 0;
  Z3_string str = Z3_get_numeral_string(x->z, t->v);
  return str && !strcmp(str, "0");
}

/* The atom of the literal 2 (as poly_of names a literal leaf). */
static poly two_atom(vx *x) {
  char buf[96];
  Z3_ast two = vx_keep(x, Z3_mk_numeral(x->z, "2", x->num));
  snprintf(buf, sizeof buf, "L%u.0.0.0", ast_id(x, two));
  return poly_atom(intern(x, buf));
}

/* The polynomial of a summand. */
static poly summand(vx *x, interp_term h) {
  return zero_lit(x, h) ? poly_zero() : poly_of(x, h);
}

static poly poly_of(vx *x, interp_term h) {
  if (++x->keys->work > KEY_MAX_WORK) return poly_big();
  vx_term *t = &x->terms[h];
  if (!t->arith && !t->cn && !t->ci && Z3_is_numeral_ast(x->z, t->v) &&
      Z3_get_sort_kind(x->z, Z3_get_sort(x->z, t->v)) != Z3_BOOL_SORT) {
    Z3_string str = Z3_get_numeral_string(x->z, t->v);
    int one = str && !strcmp(str, "1"), mone = str && !strcmp(str, "-1");
    if (one || mone) { /* 1 * p and -1 * p are p and -p exactly */
      poly p = {ir_malloc(sizeof(mono)), 1, 0};
      p.m[0].at = NULL;
      p.m[0].nat = 0;
      p.m[0].pos = one;
      p.m[0].neg = mone;
      return p;
    }
  }
  if (!t->arith) {
    char buf[96];
    if (Z3_is_app(x->z, t->v) && Z3_get_app_num_args(x->z, Z3_to_app(x->z, t->v)) > 0) {
      /* a computed leaf (select, max, cast...): a placeholder by position,
       * its value and class become arguments of the outcome */
      struct vx_keys *k = x->keys;
      if (k->nargs == k->capargs) {
        k->capargs = k->capargs ? 2 * k->capargs : 8;
        k->args = ir_realloc(k->args, sizeof(interp_term) * (size_t)k->capargs);
      }
      k->args[k->nargs++] = h;
      snprintf(buf, sizeof buf, "P%d", k->nargs);
    } else {
      snprintf(buf, sizeof buf, "L%u.%u.%u.%u", ast_id(x, t->v), ast_id(x, t->cn),
               ast_id(x, t->ci), ast_id(x, t->cs));
    }
    return poly_atom(intern(x, buf));
  }
  interp_term a = t->op[0], b = t->op[1];
  switch (t->aop) {
  case 'n': return poly_add(poly_zero(), poly_of(x, a), 1);
  case '+': /* p + p is 2 * p exactly in IEEE (infinities, NaN, zeros) */
    if (a == b && !zero_lit(x, a)) return poly_mul(two_atom(x), poly_of(x, a));
    return poly_add(summand(x, a), summand(x, b), 0);
  case '-': return poly_add(summand(x, a), summand(x, b), 1);
  case '*': return poly_mul(poly_of(x, a), poly_of(x, b));
  case '/': return poly_mul(poly_of(x, a), wrapped(x, 'R', b));
  case 's': return wrapped(x, 'S', a);
  case 'e': return wrapped(x, 'E', a);
  default: return poly_big();
  }
}

int vx_outcome_key(vx *x, interp_term h, const interp_term **args, int *nargs) {
  intern(x, "");
  x->keys->work = 0;
  x->keys->nargs = 0;
  int id = poly_id(x, poly_of(x, h), h);
  *args = x->keys->args;
  *nargs = x->keys->nargs;
  return id;
}
