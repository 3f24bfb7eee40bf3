/*
 * values.c - small things around the interpreter's values: the splitmix64
 * PRNG, default size assignments, checksums (sum and FNV-1a hash), the
 * comparison of two environments with a tolerance derived from the
 * kernel's arithmetic.
 */
#include <math.h>
#include <string.h>

#include "interp/interp.h"

/* ------------------------------------------------------------------ PRNG */

void interp_rng_seed(interp_rng *r, uint64_t seed) { r->state = seed; }

uint64_t interp_rng_next(interp_rng *r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

long interp_rng_range(interp_rng *r, long lo, long hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (long)(interp_rng_next(r) % span);
}

/* ----------------------------------------------------------------- sizes */

static long nth_prime(int n) { /* n = 0: 3, 1: 5, 2: 7, ... */
  long p = 1;
  for (int found = -1; found < n;) {
    p += 2;
    int prime = 1;
    for (long d = 3; d * d <= p; d += 2)
      if (p % d == 0) prime = 0;
    if (prime) found++;
  }
  return p;
}

/* Mark in shape[] the size variables e reads. */
static void mark_sizes(const ir_kernel *k, const ir_expr *e, unsigned char *shape) {
  if (!e) return;
  if (e->kind == IR_EX_VAR && k->vars[e->var]->kind == IR_VAR_SIZE) shape[e->var] = 1;
  for (int i = 0; i < e->nargs; i++) mark_sizes(k, e->args[i], shape);
}

static void mark_loop_sizes(const ir_kernel *k, const ir_stmt *s, unsigned char *shape) {
  for (; s; s = s->next) {
    mark_sizes(k, s->lo, shape);
    mark_sizes(k, s->hi, shape);
    mark_loop_sizes(k, s->body, shape);
    mark_loop_sizes(k, s->then_body, shape);
    mark_loop_sizes(k, s->else_body, shape);
  }
}

void interp_default_sizes(const ir_kernel *k, int variant, long *sizes) {
  memset(sizes, 0, sizeof *sizes * (size_t)k->nvars);
  ir_kernel_pin_extents(k, sizes);
  int nsizes = 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) nsizes++;
  /* the sizes of the arrays the kernel works on (their regions) and of its
   * loops get the small primes; a view's storage size (lda, or the m of a
   * region [24][20] of A[m][n]) is fitted to them afterwards */
  unsigned char *shape = ir_calloc((size_t)k->nvars + 1, 1);
  for (int v = 0; v < k->nvars; v++)
    for (int d = 0; d < k->vars[v]->rank; d++) mark_sizes(k, k->vars[v]->dims[d], shape);
  mark_loop_sizes(k, k->body, shape);
  int nshape = 0;
  for (int v = 0; v < k->nvars; v++) nshape += k->vars[v]->kind == IR_VAR_SIZE && shape[v];
  int i = 0;
  /* signature order first, then any size variable not in the signature;
   * the shape sizes' primes are those of a kernel with only them */
  for (int pass = 0; pass < 4; pass++)
    for (int j = 0; j < (pass & 1 ? k->nvars : k->nparams); j++) {
      int v = pass & 1 ? j : k->params[j];
      if (k->vars[v]->kind != IR_VAR_SIZE || sizes[v] || shape[v] != (pass < 2)) continue;
      int n = pass < 2 ? nshape : nsizes;
      sizes[v] = variant == 0 ? nth_prime(i) : nth_prime(variant + n - 1 - i);
      i++;
    }
  ir_free(shape);
  ir_kernel_fit_sizes(k, sizes);
}

/* ------------------------------------------------------------ checksums */

size_t interp_poison_count(const ir_tensor *t) {
  if (!t->poison || !t->data) return 0;
  size_t n = ir_tensor_size(t), c = 0;
  for (size_t i = 0; i < n; i++) c += t->poison[i] != 0;
  return c;
}

size_t interp_undef_count(const ir_tensor *t) {
  if (!t->poison || !t->data) return 0;
  size_t n = ir_tensor_size(t), c = 0;
  for (size_t i = 0; i < n; i++) c += t->poison[i] == INTERP_POISON_UNDEF;
  return c;
}

double interp_tensor_sum(const ir_tensor *t) {
  if (!t->data) return 0;
  size_t n = ir_tensor_size(t);
  double s = 0;
  for (size_t i = 0; i < n; i++)
    if (!t->poison || !t->poison[i]) s += t->data[i];
  return s;
}

uint64_t interp_tensor_hash(const ir_tensor *t) {
  uint64_t h = 0xcbf29ce484222325ULL;
  if (!t->data) return h;
  size_t n = ir_tensor_size(t);
  for (size_t i = 0; i < n; i++) {
    uint64_t bits;
    double v = t->data[i];
    if (t->poison && t->poison[i]) {
      bits = 0x7ff4dead7ff4deadULL; /* a marker no double compares to */
    } else {
      if (v == 0) v = 0; /* -0 as 0 */
      if (isnan(v)) v = NAN;
      memcpy(&bits, &v, sizeof bits);
    }
    for (int b = 0; b < 8; b++) {
      h ^= (bits >> (8 * b)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

/* ------------------------------------------------------------ comparison */

static int expr_exact(const ir_expr *e) {
  if (!e) return 1;
  switch (e->kind) {
  case IR_EX_DIV: return 0;
  case IR_EX_CALL:
    if (e->fn == IR_FN_SQRT || e->fn == IR_FN_EXP || e->fn == IR_FN_POW) return 0;
    break;
  case IR_EX_CONST:
    if (e->value != floor(e->value)) return 0;
    break;
  case IR_EX_CAST: /* (float) of a double rounds */
    if (e->type == IR_F32 && e->args[0]->type == IR_F64) return 0;
    break;
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!expr_exact(e->args[i])) return 0;
  return 1;
}

static int stmts_exact(const ir_stmt *s) {
  for (; s; s = s->next) {
    switch (s->kind) {
    case IR_ST_FOR:
      if (!stmts_exact(s->body)) return 0;
      break;
    case IR_ST_IF:
      if (!expr_exact(s->cond) || !stmts_exact(s->then_body) ||
          !stmts_exact(s->else_body))
        return 0;
      break;
    case IR_ST_ASSIGN:
      if (s->op == IR_ASSIGN_DIV || !expr_exact(s->rhs)) return 0;
      break;
    }
  }
  return 1;
}

double interp_kernel_tolerance(const ir_kernel *k) {
  if (stmts_exact(k->body)) return 0;
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->elem == IR_F32) return 1e-5;
  return 1e-12;
}

int interp_values_agree(double a, double b, double rtol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (a == b) return 1;
  if (isinf(a) || isinf(b)) return 0;
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  if (m < 1) m = 1;
  return fabs(a - b) <= rtol * m;
}

int interp_values_agree_signed(double a, double b, double rtol) {
  if (a == 0 && b == 0) return !signbit(a) == !signbit(b);
  return interp_values_agree(a, b, rtol);
}

double interp_c_fmaxmin(double a, double b, int is_max) {
  if (isnan(a)) return b;
  if (isnan(b) || a == b) return a;
  return (is_max ? a > b : a < b) ? a : b;
}

long interp_compare(const interp_env *a, const interp_env *b,
                    const unsigned char *written, double rtol,
                    interp_mismatch *first, long *compared) {
  const ir_kernel *k = a->k;
  long diffs = 0, cmp = 0;
  for (int v = 0; v < k->nvars; v++) {
    if (!written[v]) continue;
    const ir_tensor *x = &a->vals[v], *y = &b->vals[v];
    if (!x->data || !y->data) continue;
    size_t n = ir_tensor_size(x);
    if (n != ir_tensor_size(y)) continue;
    for (size_t i = 0; i < n; i++) {
      if (x->poison && x->poison[i]) continue;
      cmp++;
      if (interp_values_agree(x->data[i], y->data[i], rtol)) continue;
      if (diffs++ == 0 && first) {
        first->var = v;
        size_t r = i;
        for (int d = x->rank - 1; d >= 0; d--) {
          first->index[d] = x->dims[d] ? (long)(r % (size_t)x->dims[d]) : 0;
          r = x->dims[d] ? r / (size_t)x->dims[d] : 0;
        }
        first->expected = x->data[i];
        first->got = y->data[i];
      }
    }
  }
  if (compared) *compared = cmp;
  return diffs;
}
