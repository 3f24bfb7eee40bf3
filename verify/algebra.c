/*
 * algebra.c - the term worlds of the verifier: the interp_sym_algebra that
 * the op kernels and the loop-program executor build terms with, in three
 * instances (internal.h):
 *   real      Z3 reals, each with an IEEE class (three Bools: NaN,
 *             infinite, negative infinity; vx_class): exact for
 *             comparisons, select, max/min, fmax/fmin and the rounding to
 *             float; an arithmetic expression (+ - * / neg sqrt exp) takes
 *             its class from its leaves (class_of_arith: NaN propagates, an
 *             infinity or a division by zero gives an outcome that is an
 *             uninterpreted function of the real normal form); a product
 *             with the candidate's literal 0 is 0 (a structural zero);
 *             sqrt(x) is a fresh real r with the side condition
 *             x >= 0 -> (r >= 0 and r*r = x) (vx_side), exp and pow are
 *             uninterpreted functions; in the candidate (a tensor program,
 *             IEEE) 1/(1/y) is y, defined where y is, so reciprocal(rsqrt(x))
 *             is sqrt(x); y * (1/sqrt(y)) is sqrt(y) with its undefined
 *             cases kept;
 *   fp        the abstract floating point of mlir-tv: values are
 *             bit-vectors of a small width, + * max min are uninterpreted
 *             functions made commutative by putting their arguments in a
 *             canonical syntactic order (Z3's structural hash; bvule only
 *             on a hash collision), - is + of the negation, signs are
 *             normalised (a - b and b - a are t and -t, (-a)*(-b) = a*b;
 *             exact under symmetric rounding), literals are distinct
 *             constants, and a reduction is an uninterpreted function of the
 *             sum of per-element hashes (order-insensitive);
 *   concrete  doubles in IEEE arithmetic (x/0, sqrt(-1) as C gives them);
 *             undefined behaviour (int of NaN or inf) as a flag.
 * Every Z3 AST is kept (inc_ref) in the world's pool until vx_free.
 */
#include <gmp.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "interp/interp.h"
#include "verify/internal.h"

static _Thread_local int vx_error_seen;

void vx_z3_handler(Z3_context z, Z3_error_code e) {
  (void)z;
  vx_error_seen = (int)e ? (int)e : 1;
}

int vx_z3_error(void) {
  int e = vx_error_seen;
  vx_error_seen = 0;
  return e;
}

/* Keeps a (inc_ref into the pool).  A NULL a is a Z3 error (the error
 * handler has set the flag the caller checks, vx_z3_error): most often a
 * call the watch interrupted while the query was being built.  Z3's
 * functions do not check their arguments for NULL, so the rest of the
 * build gets `true` in its place (a sort error at worst, flagged the same
 * way) and the query is dropped by the flag, never asked. */
Z3_ast vx_keep(vx *x, Z3_ast a) {
  if (!a && x->z) a = Z3_mk_true(x->z);
  if (!a) return a;
  if (x->npool == x->cappool) {
    x->cappool = x->cappool ? 2 * x->cappool : 1024;
    x->pool = ir_realloc(x->pool, sizeof(Z3_ast) * (size_t)x->cappool);
  }
  Z3_inc_ref(x->z, a);
  x->pool[x->npool++] = a;
  return a;
}

#define K(e) vx_keep(x, (e))

static interp_term new_term(vx *x, Z3_ast v, Z3_ast ub, double d, int cub) {
  if (x->nterms == x->capterms) {
    x->capterms = x->capterms ? 2 * x->capterms : 1024;
    x->terms = ir_realloc(x->terms, sizeof(vx_term) * (size_t)x->capterms);
  }
  vx_term *t = &x->terms[x->nterms];
  t->v = v;
  t->ub = ub;
  t->d = d;
  t->cub = (unsigned char)cub;
  t->recip_of = t->root_of = INTERP_TERM_NONE;
  t->cn = t->ci = t->cs = t->ev = t->spec = t->sval = NULL;
  t->arith = t->cls_done = 0;
  t->cz = t->sz = t->kz = NULL;
  t->z_done = t->pz = t->kz_done = 0;
  t->pz_of = INTERP_TERM_NONE;
  t->aop = 0;
  t->op[0] = t->op[1] = INTERP_TERM_NONE;
  t->ity = 0;
  t->lit = 0;
  t->rbits = 0;
  return (interp_term)x->nterms++;
}

/* real: make t an arithmetic node over a (and b, or NONE); its class comes
 * from its leaves (vx_class). */
static interp_term arith(vx *x, char op, interp_term t, interp_term a, interp_term b) {
  if (x->kind != VX_REAL) return t;
  x->terms[t].arith = 1;
  x->terms[t].aop = op;
  x->terms[t].op[0] = a;
  x->terms[t].op[1] = b;
  return t;
}

/* ------------------------------------------------------------ helpers */

static Z3_func_decl decl(vx *x, const char *name, int n, Z3_sort a,
                         Z3_sort b, Z3_sort r) {
  Z3_sort d[2] = {a, b};
  Z3_func_decl f = Z3_mk_func_decl(x->z, Z3_mk_string_symbol(x->z, name),
                                   (unsigned)n, d, r);
  vx_keep(x, Z3_func_decl_to_ast(x->z, f));
  return f;
}

static Z3_ast app1(vx *x, Z3_func_decl f, Z3_ast a) {
  return K(Z3_mk_app(x->z, f, 1, &a));
}

static Z3_ast app2(vx *x, Z3_func_decl f, Z3_ast a, Z3_ast b) {
  Z3_ast args[2] = {a, b};
  return K(Z3_mk_app(x->z, f, 2, args));
}

static Z3_ast z_or(vx *x, Z3_ast a, Z3_ast b) {
  if (!a) return b;
  if (!b || a == b) return a;
  Z3_ast args[2] = {a, b};
  return K(Z3_mk_or(x->z, 2, args));
}

static Z3_ast z_and(vx *x, Z3_ast a, Z3_ast b) {
  Z3_ast args[2] = {a, b};
  return K(Z3_mk_and(x->z, 2, args));
}

static Z3_ast z_false(vx *x) { return K(Z3_mk_false(x->z)); }

/* Class Bools: NULL stands for false; a literal true is dropped from
 * conjunctions. */
static int is_true(vx *x, Z3_ast a) {
  return a && Z3_get_bool_value(x->z, a) == Z3_L_TRUE;
}

static Z3_ast b_and(vx *x, Z3_ast a, Z3_ast b) {
  if (!a || !b) return NULL;
  if (is_true(x, a) || a == b) return b;
  if (is_true(x, b)) return a;
  return z_and(x, a, b);
}

static Z3_ast b_not(vx *x, Z3_ast a) {
  if (!a) return K(Z3_mk_true(x->z));
  if (is_true(x, a)) return NULL;
  return K(Z3_mk_not(x->z, a));
}

static Z3_ast b_ite(vx *x, Z3_ast c, Z3_ast a, Z3_ast b) {
  if (a == b || !c) return c ? a : b; /* c NULL: false */
  if (is_true(x, c)) return a;
  return K(Z3_mk_ite(x->z, c, a ? a : z_false(x), b ? b : z_false(x)));
}

static Z3_ast b_iff(vx *x, Z3_ast a, Z3_ast b) {
  if (a == b) return K(Z3_mk_true(x->z));
  return K(Z3_mk_eq(x->z, a ? a : z_false(x), b ? b : z_false(x)));
}

/* f(a, b) == f(b, a) by construction.  The arguments are put in a
 * canonical syntactic order (Z3's structural hash, which does not depend on
 * the order in which terms were made), so that the same pair of terms gives
 * the same application on both sides of a query and the solver sees the
 * equality at once.  Only when the hashes collide is the order left to the
 * solver: the smaller argument (bvule) first. */
static Z3_ast comm(vx *x, Z3_func_decl f, Z3_ast a, Z3_ast b) {
  if (a == b) return app2(x, f, a, b);
  unsigned ha = Z3_get_ast_hash(x->z, a), hb = Z3_get_ast_hash(x->z, b);
  if (ha != hb) return ha < hb ? app2(x, f, a, b) : app2(x, f, b, a);
  Z3_ast le = K(Z3_mk_bvule(x->z, a, b));
  Z3_ast lo = K(Z3_mk_ite(x->z, le, a, b));
  Z3_ast hi = K(Z3_mk_ite(x->z, le, b, a));
  return app2(x, f, lo, hi);
}

/* fp: the distinct constant standing for literal d. */
static Z3_ast fp_lit(vx *x, double d) {
  for (int i = 0; i < x->nlits; i++)
    if (x->lits[i] == d || (isnan(d) && isnan(x->lits[i])))
      return x->litast[i];
  if (x->nlits == x->caplits) {
    x->caplits = x->caplits ? 2 * x->caplits : 16;
    x->lits = ir_realloc(x->lits, sizeof(double) * (size_t)x->caplits);
    x->litast = ir_realloc(x->litast, sizeof(Z3_ast) * (size_t)x->caplits);
  }
  char name[64];
  snprintf(name, sizeof name, "lit_%a", d);
  Z3_ast c = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name), x->num));
  x->lits[x->nlits] = d;
  x->litast[x->nlits++] = c;
  return c;
}

/* real: the exact rational value of d, of sort srt. */
static Z3_ast real_numeral_of(vx *x, double d, Z3_sort srt) {
  if (!isfinite(d)) { /* no real stands for it: an unknown constant */
    char name[64];
    snprintf(name, sizeof name, "nonfinite_%a", d);
    return K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name), srt));
  }
  mpq_t q;
  mpq_init(q);
  mpq_set_d(q, d);
  char *s = mpq_get_str(NULL, 10, q);
  Z3_ast r = K(Z3_mk_numeral(x->z, s, srt));
  void (*freefn)(void *, size_t);
  mp_get_memory_functions(NULL, NULL, &freefn);
  freefn(s, strlen(s) + 1);
  mpq_clear(q);
  return r;
}

static Z3_ast real_numeral(vx *x, double d) { return real_numeral_of(x, d, x->num); }

static Z3_ast numeral(vx *x, double d) {
  if (x->kind == VX_INT) /* wrapped to the width, as a C conversion does */
    return d < 0 ? K(Z3_mk_int64(x->z, (int64_t)d, x->num))
                 : K(Z3_mk_unsigned_int64(x->z, (uint64_t)d, x->num));
  return x->kind == VX_FP ? fp_lit(x, d) : real_numeral(x, d);
}

/* ------------------------------------------------------ the int world
 *
 * Integer data as bit-vectors of the data's width: + - * and negation wrap
 * (bvadd, ...), comparisons, max and min are signed or unsigned as the
 * type is, division truncates (bvsdiv, bvudiv).  This is what the tensor
 * program computes (MLIR's integer ops wrap).  In the source (x->cand
 * clear) a signed overflow is undefined behaviour in C: the term's ub
 * condition says when it happens, and the comparison of outputs then
 * accepts any candidate value (a refinement); unsigned arithmetic wraps in
 * C too.  Division by zero is undefined on both sides.  Floating values
 * have no model here (x->outside). */

static Z3_ast int_no_ovf(vx *x, char op, Z3_ast va, Z3_ast vb) {
  Z3_context z = x->z;
  Z3_ast c[2];
  switch (op) {
  case '+':
    c[0] = K(Z3_mk_bvadd_no_overflow(z, va, vb, 1));
    c[1] = K(Z3_mk_bvadd_no_underflow(z, va, vb));
    break;
  case '-':
    c[0] = K(Z3_mk_bvsub_no_overflow(z, va, vb));
    c[1] = K(Z3_mk_bvsub_no_underflow(z, va, vb, 1));
    break;
  case '*':
    c[0] = K(Z3_mk_bvmul_no_overflow(z, va, vb, 1));
    c[1] = K(Z3_mk_bvmul_no_underflow(z, va, vb));
    break;
  case '/': /* INT_MIN / -1 */
    c[0] = c[1] = K(Z3_mk_bvsdiv_no_overflow(z, va, vb));
    break;
  default: /* 'n': -INT_MIN */
    c[0] = c[1] = K(Z3_mk_bvneg_no_overflow(z, va));
    break;
  }
  return K(Z3_mk_and(z, 2, c));
}

/* int: d as a bit-vector numeral of w bits (wrapped). */
static Z3_ast numeral_w(vx *x, double d, unsigned w) {
  Z3_sort srt = Z3_mk_bv_sort(x->z, w);
  return d < 0 ? K(Z3_mk_int64(x->z, (int64_t)d, srt))
               : K(Z3_mk_unsigned_int64(x->z, (uint64_t)d, srt));
}

/* int and concrete: the integer type of an operation on a and b (b may be
 * NONE): a's, else b's (a literal takes its partner's), else the world's. */
static ir_elem int_type(vx *x, interp_term a, interp_term b) {
  if (x->terms[a].ity) return (ir_elem)(x->terms[a].ity - 1);
  if (b != INTERP_TERM_NONE && x->terms[b].ity) return (ir_elem)(x->terms[b].ity - 1);
  return ir_elem_is_int(x->ity) ? x->ity : IR_I64;
}

/* int: the value of h as a bit-vector of e's width: a literal made at that
 * width, an i1 as 0 or 1, a term of another width (only where a program
 * mixes them) extended as its own type is, or cut. */
static Z3_ast int_at(vx *x, interp_term h, ir_elem e) {
  vx_term *t = &x->terms[h];
  unsigned w = (unsigned)ir_elem_bits(e);
  if (t->lit) return numeral_w(x, t->d, w);
  Z3_ast v = t->v;
  Z3_sort srt = Z3_get_sort(x->z, v);
  if (Z3_get_sort_kind(x->z, srt) == Z3_BOOL_SORT)
    return K(Z3_mk_ite(x->z, v, numeral_w(x, 1, w), numeral_w(x, 0, w)));
  unsigned tw = Z3_get_bv_sort_size(x->z, srt);
  if (tw == w) return v;
  if (tw > w) return K(Z3_mk_extract(x->z, w - 1, 0, v));
  int sg = t->ity ? ir_elem_is_signed((ir_elem)(t->ity - 1)) : 1;
  return K(sg ? Z3_mk_sign_ext(x->z, w - tw, v) : Z3_mk_zero_ext(x->z, w - tw, v));
}

interp_term vx_set_type(vx *x, interp_term h, ir_elem e) {
  vx_term *t = &x->terms[h];
  if (!ir_elem_is_int(e)) return h;
  if (x->kind == VX_CONCRETE) t->d = ir_elem_wrap(e, t->d);
  if (x->kind == VX_INT && t->lit) t->v = numeral_w(x, t->d, (unsigned)ir_elem_bits(e));
  t->lit = 0;
  t->ity = (signed char)(e + 1);
  return h;
}

/* --------------------------------- floating values in the int world
 *
 * In real mode a floating value between integer data (C's `(float)u8`,
 * arithmetic on it, the conversion back at a store) is a Z3 real, as in
 * the real world, with a Bool cn: the value is not finite (NaN or an
 * infinity).  + - * and negation are IEEE operations of the value's
 * floating type, uninterpreted: the truncation at the store turns any
 * difference of rounding into a difference of one, so real arithmetic
 * (which would call a*x + a*y and a*(x + y) equal) is not sound here.
 * Only the same operation of the same type on the same operands is known
 * to give the same value; commutation is exact in IEEE, so the operands
 * of + and * are put in one order.  A non-finite operand gives a
 * non-finite result (IEEE: NaN and infinities propagate through + - *,
 * inf - inf and inf * 0 are NaN).  A conversion from integer data is exact
 * where the type's values fit the mantissa; a conversion to integer data
 * truncates toward zero and is undefined, in the source and in the
 * candidate alike, where the value is not finite or its integral part is
 * outside the target type (C11 6.3.1.4; arith.fptoui and fptosi give
 * poison there).  Anything else a floating value meets in this world (a
 * division, a comparison, a select, sqrt) is outside the model. */
static interp_term int_outside(vx *x, interp_term a);

static int is_real(vx *x, interp_term h) {
  return h != INTERP_TERM_NONE && x->terms[h].v &&
         Z3_get_sort_kind(x->z, Z3_get_sort(x->z, x->terms[h].v)) == Z3_REAL_SORT;
}

/* int, int_reals: h as a real (its own value, or a literal's), or NULL
 * for integer data */
static Z3_ast real_at(vx *x, interp_term h) {
  if (!x->int_reals) return NULL;
  if (is_real(x, h)) return x->terms[h].v;
  if (x->terms[h].lit) return real_numeral_of(x, x->terms[h].d, x->rsort);
  return NULL;
}

/* int: does an operation on a and b (b may be NONE) meet a floating value? */
static int meets_real(vx *x, interp_term a, interp_term b) {
  return is_real(x, a) || is_real(x, b);
}

/* int: a op b (+ - * or n for -a) on floating values, as reals: the
 * uninterpreted IEEE operation of the operands' floating type (a literal
 * takes the other operand's; two literals, or operands of two types, are
 * outside the model) */
static interp_term real_arith(vx *x, char op, interp_term a, interp_term b) {
  Z3_ast va = real_at(x, a), vb = op == 'n' ? va : real_at(x, b);
  if (!va || !vb || op == '/') return int_outside(x, a);
  int ba = x->terms[a].rbits, bb = op == 'n' ? ba : x->terms[b].rbits;
  int bits = ba ? ba : bb;
  if (!bits || (ba && bb && ba != bb)) return int_outside(x, a);
  Z3_context z = x->z;
  int k = op == '+' ? 0 : op == '*' ? 1 : op == '-' ? 2 : 3, w = bits == 64;
  if (!x->f_rop[k][w]) {
    static const char *const nm[4] = {"ieee_add", "ieee_mul", "ieee_sub", "ieee_neg"};
    char name[32];
    snprintf(name, sizeof name, "%s%d", nm[k], bits);
    Z3_sort dom[2] = {x->rsort, x->rsort};
    x->f_rop[k][w] = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), k == 3 ? 1 : 2, dom, x->rsort);
    vx_keep(x, Z3_func_decl_to_ast(z, x->f_rop[k][w]));
  }
  if (k < 2 && Z3_get_ast_id(z, va) > Z3_get_ast_id(z, vb)) { /* commutation */
    Z3_ast t = va;
    va = vb;
    vb = t;
  }
  Z3_ast args[2] = {va, vb};
  Z3_ast r = K(Z3_mk_app(z, x->f_rop[k][w], k == 3 ? 1 : 2, args));
  Z3_ast ub = op == 'n' ? x->terms[a].ub : z_or(x, x->terms[a].ub, x->terms[b].ub);
  Z3_ast cn = op == 'n' ? x->terms[a].cn : z_or(x, x->terms[a].cn, x->terms[b].cn);
  interp_term t = new_term(x, r, ub, 0, 0);
  x->terms[t].cn = cn;
  x->terms[t].rbits = (unsigned char)bits;
  x->int_reals = 2;
  return t;
}

/* int, int_reals: integer data a of type from as a real, exact where from's
 * values fit to's mantissa (else outside the model) */
static interp_term int_to_real(vx *x, interp_term a, ir_elem from, ir_elem to) {
  int mant = to == IR_F32 ? 24 : 53;
  if (ir_elem_bits(from) - ir_elem_is_signed(from) > mant || is_real(x, a))
    return int_outside(x, a);
  Z3_ast v = int_at(x, a, from);
  Z3_ast r = K(Z3_mk_int2real(x->z, K(Z3_mk_bv2int(x->z, v, ir_elem_is_signed(from)))));
  x->int_reals = 2;
  interp_term t = new_term(x, r, x->terms[a].ub, 0, 0);
  x->terms[t].rbits = (unsigned char)ir_elem_bits(to);
  return t;
}

/* int, int_reals: C's conversion of the floating value a to integer type
 * to: truncation toward zero, undefined where a is not finite or the
 * truncated value is outside the type */
static interp_term real_to_int(vx *x, interp_term a, ir_elem to) {
  Z3_context z = x->z;
  Z3_ast v = real_at(x, a);
  if (!v) return int_outside(x, a);
  Z3_sort is = Z3_mk_int_sort(z);
  Z3_ast zero = real_numeral_of(x, 0, x->rsort);
  Z3_ast down = K(Z3_mk_real2int(z, v));                              /* floor */
  Z3_ast up = K(Z3_mk_unary_minus(z, K(Z3_mk_real2int(z, K(Z3_mk_unary_minus(z, v))))));
  Z3_ast tr = K(Z3_mk_ite(z, K(Z3_mk_ge(z, v, zero)), down, up));
  unsigned w = (unsigned)ir_elem_bits(to);
  char lo[32], hi[32];
  if (ir_elem_is_signed(to)) {
    snprintf(lo, sizeof lo, "-%llu", 1ull << (w - 1));
    snprintf(hi, sizeof hi, "%llu", (1ull << (w - 1)) - 1);
  } else {
    snprintf(lo, sizeof lo, "0");
    snprintf(hi, sizeof hi, "%llu", w == 64 ? ~0ull : (1ull << w) - 1);
  }
  Z3_ast out[2] = {K(Z3_mk_lt(z, tr, K(Z3_mk_numeral(z, lo, is)))),
                   K(Z3_mk_gt(z, tr, K(Z3_mk_numeral(z, hi, is))))};
  Z3_ast ub = z_or(x, x->terms[a].ub, z_or(x, x->terms[a].cn, K(Z3_mk_or(z, 2, out))));
  interp_term t = new_term(x, K(Z3_mk_int2bv(z, w, tr)), ub, 0, 0);
  return vx_set_type(x, t, to);
}

/* Signed overflow is undefined in C for int and wider types; narrower
 * arithmetic only comes from a compound assignment (`u8 += x`), which C
 * computes in int and converts back: it wraps. */
static int int_ub_type(ir_elem e) { return ir_elem_is_signed(e) && ir_elem_bits(e) >= 32; }

/* a op b (op: + - * / or n for -a) in the int world, at their type, with
 * the source's undefined behaviour. */
static interp_term int_arith(vx *x, char op, interp_term a, interp_term b) {
  if (meets_real(x, a, op == 'n' ? INTERP_TERM_NONE : b)) return real_arith(x, op, a, b);
  Z3_context z = x->z;
  ir_elem e = int_type(x, a, op == 'n' ? INTERP_TERM_NONE : b);
  int sg = ir_elem_is_signed(e);
  Z3_ast va = int_at(x, a, e), vb = op == 'n' ? va : int_at(x, b, e), r;
  Z3_ast ub = op == 'n' ? x->terms[a].ub : z_or(x, x->terms[a].ub, x->terms[b].ub);
  switch (op) {
  case '+': r = K(Z3_mk_bvadd(z, va, vb)); break;
  case '-': r = K(Z3_mk_bvsub(z, va, vb)); break;
  case '*': r = K(Z3_mk_bvmul(z, va, vb)); break;
  case '/':
    r = K(sg ? Z3_mk_bvsdiv(z, va, vb) : Z3_mk_bvudiv(z, va, vb));
    ub = z_or(x, ub, K(Z3_mk_eq(z, vb, numeral_w(x, 0, (unsigned)ir_elem_bits(e)))));
    break;
  default: r = K(Z3_mk_bvneg(z, va)); break;
  }
  if (!x->cand && int_ub_type(e))
    ub = z_or(x, ub, K(Z3_mk_not(z, int_no_ovf(x, op, va, vb))));
  return vx_set_type(x, new_term(x, r, ub, 0, 0), e);
}

/* concrete: a op b (as ir_int_arith) when a or b is integer data; 0 if
 * neither is (the caller computes in doubles). */
static interp_term conc_int(vx *x, int op, interp_term a, interp_term b) {
  if (!x->terms[a].ity && (b == INTERP_TERM_NONE || !x->terms[b].ity)) return 0;
  ir_elem e = int_type(x, a, b);
  double vb = b == INTERP_TERM_NONE ? 0 : x->terms[b].d;
  int cub = x->terms[a].cub || (b != INTERP_TERM_NONE && x->terms[b].cub);
  interp_term t = new_term(x, NULL, NULL, ir_int_arith(e, op, x->terms[a].d, vb), cub);
  return vx_set_type(x, t, e);
}

static Z3_ast int_lt(vx *x, ir_elem e, Z3_ast a, Z3_ast b) {
  return K(ir_elem_is_signed(e) ? Z3_mk_bvslt(x->z, a, b) : Z3_mk_bvult(x->z, a, b));
}

static interp_term int_minmax(vx *x, interp_term a, interp_term b, int is_max) {
  if (meets_real(x, a, b)) return int_outside(x, a);
  ir_elem e = int_type(x, a, b);
  Z3_ast va = int_at(x, a, e), vb = int_at(x, b, e);
  Z3_ast c = is_max ? int_lt(x, e, vb, va) : int_lt(x, e, va, vb);
  Z3_ast r = va == vb ? va : K(Z3_mk_ite(x->z, c, va, vb));
  return vx_set_type(x, new_term(x, r, z_or(x, x->terms[a].ub, x->terms[b].ub), 0, 0), e);
}

static interp_term int_compare(vx *x, interp_cmp dir, interp_term a, interp_term b) {
  if (meets_real(x, a, b)) return int_outside(x, a);
  ir_elem e = int_type(x, a, b);
  Z3_ast va = int_at(x, a, e), vb = int_at(x, b, e), r = NULL;
  switch (dir) {
  case INTERP_CMP_EQ: r = K(Z3_mk_eq(x->z, va, vb)); break;
  case INTERP_CMP_NE: r = K(Z3_mk_not(x->z, K(Z3_mk_eq(x->z, va, vb)))); break;
  case INTERP_CMP_LT: r = int_lt(x, e, va, vb); break;
  case INTERP_CMP_LE: r = K(Z3_mk_not(x->z, int_lt(x, e, vb, va))); break;
  case INTERP_CMP_GT: r = int_lt(x, e, vb, va); break;
  case INTERP_CMP_GE: r = K(Z3_mk_not(x->z, int_lt(x, e, va, vb))); break;
  }
  return new_term(x, K(Z3_simplify(x->z, r)), z_or(x, x->terms[a].ub, x->terms[b].ub), 0, 0);
}

/* A value the int world does not model: a fresh unknown (x->outside). */
static interp_term int_outside(vx *x, interp_term a) {
  char name[48];
  x->outside = 1;
  snprintf(name, sizeof name, "outside!%ld", x->fresh++);
  return new_term(x, K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name), x->num)),
                  x->terms[a].ub, 0, 0);
}

Z3_ast vx_num(vx *x, interp_term h) {
  Z3_ast v = x->terms[h].v;
  if (Z3_get_sort_kind(x->z, Z3_get_sort(x->z, v)) == Z3_BOOL_SORT)
    return K(Z3_mk_ite(x->z, v, numeral(x, 1), numeral(x, 0)));
  return v;
}

Z3_ast vx_bool(vx *x, interp_term h) {
  Z3_ast v = x->terms[h].v;
  if (Z3_get_sort_kind(x->z, Z3_get_sort(x->z, v)) == Z3_BOOL_SORT) return v;
  if (x->kind == VX_INT) /* zero of the term's own width */
    return K(Z3_mk_not(x->z, K(Z3_mk_eq(x->z, v, K(Z3_mk_int(x->z, 0, Z3_get_sort(x->z, v)))))));
  return K(Z3_mk_not(x->z, K(Z3_mk_eq(x->z, v, numeral(x, 0)))));
}

Z3_ast vx_ub(vx *x, interp_term h) {
  Z3_ast u = x->terms[h].ub;
  return u ? u : z_false(x);
}

Z3_ast vx_poisonb(vx *x, interp_term p) {
  return p == INTERP_TERM_NONE ? z_false(x) : x->terms[p].v;
}

static Z3_ast ub2(vx *x, interp_term a, interp_term b) {
  return z_or(x, x->terms[a].ub, x->terms[b].ub);
}

static int cub2(vx *x, interp_term a, interp_term b) {
  return x->terms[a].cub || x->terms[b].cub;
}

static double D(vx *x, interp_term h) { return x->terms[h].d; }

/* fp: is a the constant of a literal?  Its value goes to *d. */
static int lit_value(vx *x, Z3_ast a, double *d) {
  for (int i = 0; i < x->nlits; i++)
    if (x->litast[i] == a) {
      *d = x->lits[i];
      return 1;
    }
  return 0;
}

static int is_lit(vx *x, interp_term h, double d) {
  return x->kind == VX_FP && x->terms[h].v == fp_lit(x, d);
}

/* fp: the argument of a negation fneg(a), or NULL if va is no negation. */
static Z3_ast neg_arg(vx *x, Z3_ast va) {
  if (!Z3_is_app(x->z, va)) return NULL;
  Z3_app app = Z3_to_app(x->z, va);
  if (!Z3_is_eq_func_decl(x->z, Z3_get_app_decl(x->z, app), x->f_neg)) return NULL;
  return Z3_get_app_arg(x->z, app, 0);
}

/* fp: -va, with -(-a) = a. */
static Z3_ast fp_neg(vx *x, Z3_ast va) {
  Z3_ast inner = neg_arg(x, va);
  return inner ? inner : app1(x, x->f_neg, va);
}

/* Is the term the constant 1 (real: the numeral; concrete: the value)? */
static int is_one(vx *x, interp_term h) {
  if (x->kind == VX_CONCRETE) return x->terms[h].d == 1 && !x->terms[h].cub;
  if (x->kind != VX_REAL) return 0;
  Z3_ast v = x->terms[h].v;
  if (!Z3_is_numeral_ast(x->z, v)) return 0;
  Z3_string str = Z3_get_numeral_string(x->z, v);
  return str && !strcmp(str, "1");
}

/* Is a a numeral of a numeric sort (Z3 calls true and false numerals)? */
static int is_num_lit(vx *x, Z3_ast a) {
  return Z3_is_numeral_ast(x->z, a) &&
         Z3_get_sort_kind(x->z, Z3_get_sort(x->z, a)) != Z3_BOOL_SORT;
}

/* Is h a real numeral (a literal, so finite)? */
static int is_real_lit(vx *x, interp_term h) {
  vx_term *t = &x->terms[h];
  return !t->arith && !t->cn && !t->ci && is_num_lit(x, t->v);
}

/* real: is the term the literal 0 of the program (a constant, or a masked-
 * out element that a select with a constant predicate picked)? */
static int is_zero_lit(vx *x, interp_term h) {
  if (!is_real_lit(x, h)) return 0;
  Z3_string str = Z3_get_numeral_string(x->z, x->terms[h].v);
  return str && !strcmp(str, "0");
}

/* ------------------------------------------------------ the algebra */

static interp_term a_constant(void *ctx, double v) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    interp_term t = new_term(x, NULL, NULL, v, 0);
    x->terms[t].lit = 1;
    return t;
  }
  if (x->kind == VX_INT && !(isfinite(v) && v == trunc(v))) { /* a floating literal */
    if (x->int_reals && isfinite(v)) return new_term(x, real_numeral_of(x, v, x->rsort), NULL, 0, 0);
    x->outside = 1;
    return new_term(x, numeral(x, 0), NULL, 0, 0);
  }
  if (x->kind == VX_INT) { /* of the width of the term it meets (int_at) */
    interp_term t = new_term(x, numeral(x, v), NULL, v, 0);
    x->terms[t].lit = 1;
    return t;
  }
  if (x->kind == VX_REAL && !isfinite(v)) {
    interp_term t = new_term(x, numeral(x, 0), NULL, 0, 0);
    if (isnan(v)) x->terms[t].cn = K(Z3_mk_true(x->z));
    else x->terms[t].ci = K(Z3_mk_true(x->z));
    if (v < 0) x->terms[t].cs = K(Z3_mk_true(x->z));
    return t;
  }
  interp_term t = new_term(x, numeral(x, v), NULL, 0, 0);
  if (x->kind == VX_REAL && v == 0 && signbit(v)) x->terms[t].cz = K(Z3_mk_true(x->z));
  return t;
}

static interp_term a_neg(void *ctx, interp_term a) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_arith(x, 'n', a, a);
  if (x->kind == VX_CONCRETE && x->terms[a].ity) return conc_int(x, 'n', a, INTERP_TERM_NONE);
  if (x->kind == VX_CONCRETE) return new_term(x, NULL, NULL, -D(x, a), x->terms[a].cub);
  Z3_ast va = vx_num(x, a), r;
  if (x->kind == VX_REAL)
    r = K(Z3_mk_unary_minus(x->z, va));
  else
    r = fp_neg(x, va); /* -(-a) is a */
  return arith(x, 'n', new_term(x, r, x->terms[a].ub, 0, 0), a, 0);
}

/* fp: a + b with the signs normalised.  Negation is exact in IEEE
 * arithmetic, and rounding to nearest (the IEEE default, which C and MLIR
 * use) is symmetric: round(-v) = -round(v).  So
 *   (-a) + (-b) = -(a + b)        and        a + (-b) = -(b + (-a)),
 * that is a - b = -(b - a).  A difference a + (-b) is written in the
 * orientation whose positive operand has the smaller structural hash (the
 * order comm uses), so a - b and b - a become t and -t for one term t, and
 * a square (b - a)*(b - a) meets (a - b)*(a - b) through the exact
 * (-t)*(-t) = t*t of a_mul.  On a hash collision the sum stays as it is
 * (incomplete, never unsound). */
static Z3_ast fp_add(vx *x, Z3_ast va, Z3_ast vb) {
  Z3_ast na = neg_arg(x, va), nb = neg_arg(x, vb);
  if (na && nb) return fp_neg(x, comm(x, x->f_add, na, nb));
  if (na && !nb) { /* (-na) + vb: the difference vb - na */
    Z3_ast t = va;
    va = vb;
    vb = t;
    nb = na;
  }
  if (nb) { /* va - nb */
    unsigned hp = Z3_get_ast_hash(x->z, va), hn = Z3_get_ast_hash(x->z, nb);
    if (hn < hp) return fp_neg(x, comm(x, x->f_add, nb, fp_neg(x, va)));
  }
  return comm(x, x->f_add, va, vb);
}

/* fp: a * b with the signs pulled out: (-a)*(-b) = a*b exactly in every
 * rounding mode (the exact products are equal), and (-a)*b = -(a*b) under
 * symmetric rounding, as for fp_add. */
static Z3_ast fp_mul(vx *x, Z3_ast va, Z3_ast vb) {
  Z3_ast na = neg_arg(x, va), nb = neg_arg(x, vb);
  Z3_ast p = comm(x, x->f_mul, na ? na : va, nb ? nb : vb);
  return (!na) != (!nb) ? fp_neg(x, p) : p;
}

/* real: a + 0, a - 0, a * 1 and a / 1 are a exactly in IEEE, infinities
 * and NaN included, except that -0 + 0 is +0 (plus_zero); kept as a, so
 * that no arithmetic expression (with its unspecified outcome at an
 * infinity) is made of them.  Returns a's handle, or NONE. */
static interp_term real_identity(vx *x, interp_term a, interp_term b, double unit) {
  if (x->kind != VX_REAL || x->terms[b].ub || !is_num_lit(x, x->terms[b].v) ||
      x->terms[b].cn || x->terms[b].ci)
    return INTERP_TERM_NONE;
  Z3_string str = Z3_get_numeral_string(x->z, x->terms[b].v);
  return str && !strcmp(str, unit ? "1" : "0") ? a : INTERP_TERM_NONE;
}

/* A new handle for the term a stands for, with all of a's properties. */
static interp_term copy_term(vx *x, interp_term a) {
  interp_term t = new_term(x, NULL, NULL, 0, 0);
  x->terms[t] = x->terms[a];
  return t;
}

/* real: a + 0 (a + +0): a itself, except that a zero becomes +0 (IEEE,
 * rounding to nearest: -0 + +0 = +0).  pz records whether the source (1)
 * or the candidate (2) added the zero (vx_negzero's relaxed tier). */
static interp_term plus_zero(vx *x, interp_term a) {
  interp_term t = copy_term(x, a);
  vx_term *tt = &x->terms[t];
  tt->pz = x->cand ? 2 : 1;
  tt->pz_of = a;
  tt->cz = NULL;
  tt->z_done = 0;
  return t;
}

static interp_term a_add(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_arith(x, '+', a, b);
  if (x->kind == VX_CONCRETE && conc_int(x, '+', a, b)) return (interp_term)(x->nterms - 1);
  if (x->kind == VX_CONCRETE) return new_term(x, NULL, NULL, D(x, a) + D(x, b), cub2(x, a, b));
  interp_term id = real_identity(x, a, b, 0);
  if (!id) id = real_identity(x, b, a, 0);
  if (id) /* a + -0 is a exactly */
    return x->terms[id == a ? b : a].cz ? id : plus_zero(x, id);
  Z3_ast va = vx_num(x, a), vb = vx_num(x, b), r;
  if (x->kind == VX_REAL) {
    Z3_ast args[2] = {va, vb};
    r = K(Z3_mk_add(x->z, 2, args));
  } else if (x->terms[a].pz == 3 || x->terms[b].pz == 3) {
    x->zinit = 1; /* fp: a candidate's empty sum, taken as -0 */
    return x->terms[a].pz == 3 ? b : a;
  } else { /* fp: 0 + b is not b (-0 + +0 is +0) */
    r = fp_add(x, va, vb);
  }
  return arith(x, '+', new_term(x, r, ub2(x, a, b), 0, 0), a, b);
}

static interp_term a_sub(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_arith(x, '-', a, b);
  if (x->kind == VX_CONCRETE && conc_int(x, '-', a, b)) return (interp_term)(x->nterms - 1);
  if (x->kind == VX_CONCRETE) return new_term(x, NULL, NULL, D(x, a) - D(x, b), cub2(x, a, b));
  if (x->kind == VX_FP) return a_add(ctx, a, a_neg(ctx, b)); /* exact in IEEE */
  interp_term id = real_identity(x, a, b, 0);
  if (id) return id;
  if (is_zero_lit(x, a) && !x->terms[a].cz) /* 0 - b: -b, but a zero is +0 */
    return plus_zero(x, a_neg(ctx, b));
  Z3_ast args[2] = {vx_num(x, a), vx_num(x, b)};
  return arith(x, '-', new_term(x, K(Z3_mk_sub(x->z, 2, args)), ub2(x, a, b), 0, 0), a, b);
}

static Z3_ast som_key(vx *x, Z3_ast a);

/* real: if b is 1/sqrt(y) and a is y, the root's handle, else 0. */
static interp_term root_times_rsqrt(vx *x, interp_term a, interp_term b) {
  interp_term s = x->terms[b].recip_of;
  interp_term y = s ? x->terms[s].root_of : INTERP_TERM_NONE;
  if (!y) return INTERP_TERM_NONE;
  Z3_ast va = vx_num(x, a), vy = vx_num(x, y);
  if (va == vy || som_key(x, va) == som_key(x, vy)) return s;
  return INTERP_TERM_NONE;
}

static interp_term a_mul(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_arith(x, '*', a, b);
  if (x->kind == VX_CONCRETE && conc_int(x, '*', a, b)) return (interp_term)(x->nterms - 1);
  if (x->kind == VX_CONCRETE) return new_term(x, NULL, NULL, D(x, a) * D(x, b), cub2(x, a, b));
  interp_term id = real_identity(x, a, b, 1);
  if (!id) id = real_identity(x, b, a, 1);
  if (id) return id;
  Z3_ast va = vx_num(x, a), vb = vx_num(x, b), r;
  if (x->kind == VX_REAL) {
    /* y * (1/sqrt(y)) is sqrt(y) for finite y > 0 (r*r = y, so y/r = r);
     * its class stays that of the product (NaN for y < 0, the unspecified
     * outcome of the division by zero at y = 0, of an infinite y).  A
     * rewrite of the finite value only, on either side: the solver then
     * meets the root itself instead of a nonlinear quotient
     * (correlation's sqrt(float_n)). */
    interp_term s = root_times_rsqrt(x, a, b);
    if (!s) s = root_times_rsqrt(x, b, a);
    if (s) {
      interp_term t = new_term(x, x->terms[s].v, ub2(x, a, b), 0, 0);
      x->terms[t].root_of = x->terms[s].root_of;
      return arith(x, '*', t, a, b); /* the class of the product y * (1/sqrt(y)) */
    }
    /* structural, unless the other factor is a literal too (finite: the
     * product is exactly 0, as a slice's zero times a stencil weight) */
    if (x->cand && !x->ieee_zero && !(is_real_lit(x, a) && is_real_lit(x, b)) &&
        (is_zero_lit(x, a) || is_zero_lit(x, b))) {
      x->masked_zero = 1;
      return new_term(x, numeral(x, 0), ub2(x, a, b), 0, 0);
    }
    Z3_ast args[2] = {va, vb};
    r = K(Z3_mk_mul(x->z, 2, args));
  } else if (va == fp_lit(x, 1)) {
    r = vb; /* 1 * b is b exactly */
  } else if (vb == fp_lit(x, 1)) {
    r = va;
  } else {
    r = fp_mul(x, va, vb);
  }
  return arith(x, '*', new_term(x, r, ub2(x, a, b), 0, 0), a, b);
}

/* 1/(1/y) in a tensor program (x->cand), real and concrete worlds: y
 * itself, with y's own undefinedness but not the division by zero of the
 * inner reciprocal.  In IEEE arithmetic 1/(1/y) is y exactly at the points
 * where the real encoding would call it undefined or where it could differ
 * in more than rounding: y = +-0 (1/+-0 = +-inf, 1/+-inf = +-0), y = +-inf
 * and NaN; for every other y it is y as a real identity, and real mode
 * ignores rounding everywhere.  With rsqrt(y) = 1/sqrt(y), this makes
 * reciprocal(rsqrt(y)) the root sqrt(y), undefined for y < 0 as the
 * source's sqrt is.  Never for the source.  Returns 0 when the rule does
 * not apply. */
static interp_term recip_recip(vx *x, interp_term a, interp_term b) {
  if (!x->cand || x->kind == VX_FP || !is_one(x, a)) return INTERP_TERM_NONE;
  interp_term y = x->terms[b].recip_of;
  if (!y) return INTERP_TERM_NONE;
  Z3_ast ub = z_or(x, x->terms[a].ub, x->terms[y].ub);
  int cub = x->terms[a].cub || x->terms[y].cub;
  interp_term t = copy_term(x, y);
  x->terms[t].ub = ub;
  x->terms[t].cub = (unsigned char)cub;
  return t;
}

static interp_term a_div(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_arith(x, '/', a, b);
  interp_term t = recip_recip(x, a, b);
  if (t) return t;
  /* IEEE division: x/0 is an infinity or NaN, defined (the class of the
   * real term, vx_class, covers it). */
  if (x->kind == VX_CONCRETE) {
    t = new_term(x, NULL, NULL, D(x, a) / D(x, b), cub2(x, a, b));
  } else {
    Z3_ast va = vx_num(x, a), vb = vx_num(x, b), r;
    if (x->kind == VX_REAL)
      r = K(Z3_mk_div(x->z, va, vb));
    else
      r = vb == fp_lit(x, 1) ? va : app2(x, x->f_div, va, vb);
    t = arith(x, '/', new_term(x, r, ub2(x, a, b), 0, 0), a, b);
    if (x->kind == VX_REAL) x->terms[t].arith = 2; /* event: b is 0 */
  }
  if (is_one(x, a)) x->terms[t].recip_of = b;
  return t;
}

static void add_side(vx *x, Z3_ast c) {
  if (x->nside == x->capside) {
    x->capside = x->capside ? 2 * x->capside : 8;
    x->side = ir_realloc(x->side, sizeof(Z3_ast) * (size_t)x->capside);
  }
  x->side[x->nside++] = c;
}

/* ------------------------------------------------- IEEE classes (real) */

static int cmp_ast_id(const void *a, const void *b) {
  unsigned x = ((const unsigned *)a)[0], y = ((const unsigned *)b)[0];
  return x < y ? -1 : x > y;
}

/* The disjunction of n Bools in a canonical order (by AST id, duplicates
 * dropped), so that the same set gives the same AST on both sides. */
static Z3_ast or_set(vx *x, Z3_ast *xs, long n) {
  if (!n) return NULL;
  struct { unsigned id; Z3_ast a; } *v = ir_malloc(sizeof *v * (size_t)n);
  for (long i = 0; i < n; i++) {
    v[i].id = Z3_get_ast_id(x->z, xs[i]);
    v[i].a = xs[i];
  }
  qsort(v, (size_t)n, sizeof *v, cmp_ast_id);
  long m = 0;
  for (long i = 0; i < n; i++)
    if (!m || v[m - 1].id != v[i].id) v[m++] = v[i];
  for (long i = 0; i < m; i++) xs[i] = v[i].a;
  ir_free(v);
  return m == 1 ? xs[0] : K(Z3_mk_or(x->z, (unsigned)m, xs));
}

static Z3_ast som_key(vx *x, Z3_ast a);

/* The special event of an arithmetic node itself, or NULL: a division by
 * zero, a square root of a negative number (in the real normal form). */
static Z3_ast own_event(vx *x, interp_term h) {
  vx_term *t = &x->terms[h];
  if (t->ev || t->arith < 2) return t->ev;
  Z3_ast arg = som_key(x, vx_num(x, t->op[t->arith == 2 ? 1 : 0]));
  Z3_ast zero = numeral(x, 0);
  Z3_ast e = K(t->arith == 2 ? Z3_mk_eq(x->z, arg, zero) : Z3_mk_lt(x->z, arg, zero));
  e = K(Z3_simplify(x->z, e));
  x->terms[h].ev = Z3_get_bool_value(x->z, e) == Z3_L_FALSE ? NULL : e;
  return x->terms[h].ev;
}

/* The unspecified outcome of the arithmetic expressions whose outcome key
 * (keys.c) is id (or, for pow, the id of the term): NaN, infinite, negative, the value if finite,
 * and the sign of a zero, out[0..4].  Constants named by the key, so that the expressions with one
 * key, and only they, share it. */
static void special_of(vx *x, const char *id, const interp_term *args, int nargs,
                       Z3_ast out[5]) {
  static const char tag[5] = {'n', 'i', 's', 'v', 'z'};
  Z3_sort *dom = ir_malloc(sizeof(Z3_sort) * (size_t)(4 * nargs + 1));
  Z3_ast *av = ir_malloc(sizeof(Z3_ast) * (size_t)(4 * nargs + 1));
  for (int j = 0; j < nargs; j++) {
    vx_term *t = &x->terms[args[j]];
    Z3_ast c[3] = {t->cn, t->ci, t->cs};
    dom[4 * j] = x->num;
    av[4 * j] = vx_num(x, args[j]);
    for (int m = 0; m < 3; m++) {
      dom[4 * j + 1 + m] = x->boolsort;
      av[4 * j + 1 + m] = c[m] ? c[m] : z_false(x);
    }
  }
  for (int k = 0; k < 5; k++) {
    char name[48];
    snprintf(name, sizeof name, "outcome_%c_%s", tag[k], id);
    Z3_func_decl f = Z3_mk_func_decl(x->z, Z3_mk_string_symbol(x->z, name),
                                     (unsigned)(4 * nargs), dom,
                                     k == 3 ? x->num : x->boolsort);
    out[k] = K(Z3_mk_app(x->z, f, (unsigned)(4 * nargs), av));
  }
  ir_free(dom);
  ir_free(av);
}

static void push_ast(Z3_ast **xs, long *n, long *cap, Z3_ast a) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *xs = ir_realloc(*xs, sizeof(Z3_ast) * (size_t)*cap);
  }
  (*xs)[(*n)++] = a;
}

/* An arithmetic expression (a maximal tree of + - * / neg sqrt exp) is NaN
 * when one of its leaves is NaN or it takes the root of a negative number
 * (IEEE propagates NaN through all of them);
 * finite with the exact real value when every leaf is finite and no
 * division by zero or root of a negative number happens in it; otherwise
 * (an infinity entered, or such an event) its class is unspecified: an
 * uninterpreted function of the expression's real normal form, the same
 * for every expression with that normal form (reassociation and factoring
 * stay allowed; they may move IEEE's inf/NaN outcome, which real mode
 * treats like rounding). */
static void class_of_arith(vx *x, interp_term h) {
  if (x->capmark < x->nterms || x->gen == 0xffffffffu) {
    ir_free(x->mark);
    x->capmark = x->capterms;
    x->mark = ir_calloc((size_t)x->capmark, sizeof(unsigned));
    x->gen = 0;
  }
  x->gen++;
  interp_term *stack = ir_malloc(sizeof(interp_term) * 64);
  long ns = 0, caps = 64, nn = 0, capn = 0, ni = 0, capi = 0;
  Z3_ast *nan = NULL, *spec = NULL;
  stack[ns++] = h;
  x->mark[h] = x->gen;
  while (ns) {
    interp_term u = stack[--ns];
    vx_term *t = &x->terms[u];
    if (!t->arith) {
      if (t->cn) push_ast(&nan, &nn, &capn, t->cn);
      if (t->ci) push_ast(&spec, &ni, &capi, t->ci);
      continue;
    }
    Z3_ast ev = own_event(x, u);
    if (ev && t->arith == 3) /* the root of a negative number is NaN */
      push_ast(&nan, &nn, &capn, ev);
    else if (ev)
      push_ast(&spec, &ni, &capi, ev);
    for (int k = 0; k < 2; k++) {
      interp_term o = x->terms[u].op[k];
      if (!o || x->mark[o] == x->gen) continue;
      x->mark[o] = x->gen;
      if (ns == caps) {
        caps *= 2;
        stack = ir_realloc(stack, sizeof(interp_term) * (size_t)caps);
      }
      stack[ns++] = o;
    }
  }
  ir_free(stack);
  Z3_ast anynan = or_set(x, nan, nn), anyspec = or_set(x, spec, ni);
  ir_free(nan);
  ir_free(spec);
  vx_term *t = &x->terms[h];
  t->cls_done = 1;
  t->cn = anynan;
  t->ci = t->cs = NULL;
  if (!anyspec) return;
  Z3_ast sp[5];
  char id[24];
  const interp_term *args;
  int nargs;
  snprintf(id, sizeof id, "%d", vx_outcome_key(x, h, &args, &nargs));
  special_of(x, id, args, nargs, sp);
  Z3_ast cn = z_or(x, anynan, b_and(x, anyspec, sp[0]));
  t = &x->terms[h];
  t->cn = cn;
  t->ci = b_and(x, b_not(x, cn), b_and(x, anyspec, sp[1]));
  t->cs = sp[2];
  t->spec = anyspec; /* then a finite value is sp[3], not the real term */
  t->sval = sp[3];
  t->sz = sp[4];
}

void vx_class(vx *x, interp_term h, Z3_ast *cn, Z3_ast *ci, Z3_ast *cs) {
  if (x->kind == VX_REAL && x->terms[h].arith && !x->terms[h].cls_done)
    class_of_arith(x, h);
  vx_term *t = &x->terms[h];
  *cn = t->cn;
  *ci = t->ci;
  *cs = t->cs;
}

/* ------------------------------------------------ signed zeros (real) */

/* h is finite and its (effective) value is 0. */
static Z3_ast zero_of(vx *x, interp_term h);

/* h is negative: -inf, a finite value below 0, or -0. */
static Z3_ast negative_of(vx *x, interp_term h);

/* IEEE's sign of a zero result of arithmetic node t (rounding to nearest,
 * no underflow): a sum is -0 only when both operands are -0 (-0 + +0 and an
 * exact cancellation x + (-x) give +0), a product or quotient is negative
 * when exactly one operand is, -(+-0) is -+0, sqrt(-0) is -0, exp is never
 * 0.  Meaningful only where t is 0. */
static Z3_ast negzero_rule(vx *x, const vx_term *t) {
  interp_term a = t->op[0], b = t->op[1];
  switch (t->aop) {
  case '+':
  case '-': {
    Z3_ast za = vx_negzero(x, a), zb = vx_negzero(x, b);
    zb = t->aop == '+' ? zb : b_not(x, zb);
    Z3_ast both = b_and(x, za, zb);
    return both ? b_and(x, both, b_and(x, zero_of(x, a), zero_of(x, b))) : NULL;
  }
  case 'n': return b_not(x, vx_negzero(x, a));
  case '*':
  case '/': {
    Z3_ast na = negative_of(x, a), nb = negative_of(x, b);
    if (!na) return nb;
    if (!nb) return na;
    return K(Z3_mk_xor(x->z, na, nb));
  }
  case 's': return vx_negzero(x, a);
  default: return NULL; /* exp */
  }
}

/* The relaxed sign: the outcome of the expression's key, so that
 * expressions equal up to reassociation and factoring share it. */
static Z3_ast negzero_by_key(vx *x, interp_term h) {
  const interp_term *args;
  int nargs;
  char id[24];
  snprintf(id, sizeof id, "%d", vx_outcome_key(x, h, &args, &nargs));
  Z3_ast sp[5];
  special_of(x, id, args, nargs, sp);
  return sp[4];
}

Z3_ast vx_negzero(vx *x, interp_term h) {
  if (x->kind != VX_REAL) return NULL;
  vx_term *t = &x->terms[h];
  if (t->pz) return NULL; /* a + 0 */
  if (!t->arith || t->z_done) return t->cz;
  Z3_ast r;
  {
    vx_term copy = *t;
    r = negzero_rule(x, &copy);
    Z3_ast cn, ci, cs;
    vx_class(x, h, &cn, &ci, &cs); /* a special event: unspecified sign */
    if (x->terms[h].spec) r = b_ite(x, x->terms[h].spec, x->terms[h].sz, r);
  }
  t = &x->terms[h];
  t->cz = r;
  t->z_done = 1;
  return r;
}

Z3_ast vx_negzero_keyed(vx *x, interp_term h) {
  if (x->kind != VX_REAL) return NULL;
  vx_term *t = &x->terms[h];
  if (t->pz) /* the candidate's sums start from -0 */
    return t->pz == 2 ? vx_negzero_keyed(x, t->pz_of) : NULL;
  if (!t->arith) return vx_negzero(x, h);
  if (t->kz_done) return t->kz;
  Z3_ast r = negzero_by_key(x, h);
  t = &x->terms[h];
  t->kz = r;
  t->kz_done = 1;
  return r;
}

/* A value with its class, for the comparisons below. */
typedef struct xv {
  Z3_ast v, n, i, s;
} xv;

/* The value as compared: the real term, or the unspecified finite value
 * where a special event happened in the expression (class_of_arith). */
static Z3_ast eff_value(vx *x, interp_term h, Z3_ast v) {
  vx_term *t = &x->terms[h];
  return t->spec ? K(Z3_mk_ite(x->z, t->spec, t->sval, v)) : v;
}

static xv xval(vx *x, interp_term h) {
  xv r;
  vx_class(x, h, &r.n, &r.i, &r.s);
  r.v = eff_value(x, h, vx_num(x, h));
  return r;
}

static Z3_ast zero_of(vx *x, interp_term h) {
  xv p = xval(x, h);
  Z3_ast z0 = K(Z3_mk_eq(x->z, p.v, numeral(x, 0)));
  Z3_ast r = b_and(x, b_and(x, b_not(x, p.n), b_not(x, p.i)), z0);
  if (r && Z3_get_bool_value(x->z, K(Z3_simplify(x->z, r))) == Z3_L_FALSE) return NULL;
  return r;
}

static Z3_ast negative_of(vx *x, interp_term h) {
  xv p = xval(x, h);
  Z3_ast lt = K(Z3_mk_lt(x->z, p.v, numeral(x, 0)));
  Z3_ast z = vx_negzero(x, h);
  Z3_ast fin = z ? z_or(x, lt, b_and(x, K(Z3_mk_eq(x->z, p.v, numeral(x, 0))), z)) : lt;
  if (Z3_get_bool_value(x->z, K(Z3_simplify(x->z, fin))) == Z3_L_FALSE) fin = NULL;
  return p.i ? b_ite(x, p.i, p.s, fin) : fin;
}

/* a < b and a == b on the extended reals, ignoring NaN (the callers add
 * it): -inf < finite < +inf, infinities equal when their signs are. */
static Z3_ast ext_lt(vx *x, xv a, xv b) {
  Z3_ast fin = b_and(x, b_and(x, b_not(x, a.i), b_not(x, b.i)), K(Z3_mk_lt(x->z, a.v, b.v)));
  Z3_ast aneg = b_and(x, b_and(x, a.i, a.s), b_not(x, b_and(x, b.i, b.s)));
  Z3_ast bpos = b_and(x, b_and(x, b.i, b_not(x, b.s)), b_not(x, b_and(x, a.i, b_not(x, a.s))));
  return z_or(x, z_or(x, fin, aneg), bpos);
}

static Z3_ast ext_eq(vx *x, xv a, xv b) {
  Z3_ast fin = b_and(x, b_and(x, b_not(x, a.i), b_not(x, b.i)), K(Z3_mk_eq(x->z, a.v, b.v)));
  return z_or(x, fin, b_and(x, b_and(x, a.i, b.i), b_iff(x, a.s, b.s)));
}

static interp_term classed(vx *x, Z3_ast v, Z3_ast ub, Z3_ast cn, Z3_ast ci,
                           Z3_ast cs) {
  interp_term t = new_term(x, v, ub, 0, 0);
  x->terms[t].cn = cn;
  x->terms[t].ci = ci;
  x->terms[t].cs = ci ? cs : NULL;
  return t;
}

/* max/min: nanprop (StableHLO maximum, minimum: a NaN operand gives NaN;
 * IEEE's maximum and minimum, which order -0 below +0) or C's fmax/fmin (a
 * NaN operand gives the other operand; of two equal operands, zeros of
 * either sign included, the first: the C standard leaves the sign of
 * fmax(-0, +0) open, and interp_c_fmaxmin computes it the same way in
 * every build, docs/verify.md). */
static interp_term minmax2(vx *x, interp_term a, interp_term b, int is_max,
                           int nanprop) {
  if (x->kind == VX_INT) return nanprop ? int_minmax(x, a, b, is_max) : int_outside(x, a);
  if (x->kind == VX_CONCRETE) {
    double p = D(x, a), q = D(x, b), r;
    if (!nanprop) r = interp_c_fmaxmin(p, q, is_max);
    else if (isnan(p) || isnan(q)) r = NAN;
    else if (p == q) r = (signbit(p) != 0) == (is_max != 0) ? q : p; /* -0 < +0 */
    else r = is_max ? (p > q ? p : q) : (p < q ? p : q);
    return new_term(x, NULL, NULL, r, cub2(x, a, b));
  }
  Z3_ast va = vx_num(x, a), vb = vx_num(x, b), r;
  if (x->kind == VX_REAL) {
    vx_class(x, a, &r, &r, &r); /* effective values */
    vx_class(x, b, &r, &r, &r);
    va = eff_value(x, a, va);
    vb = eff_value(x, b, vb);
  }
  if (x->kind == VX_FP) {
    Z3_func_decl f = nanprop ? (is_max ? x->f_max : x->f_min)
                             : (is_max ? x->f_fmax : x->f_fmin);
    return new_term(x, comm(x, f, va, vb), ub2(x, a, b), 0, 0);
  }
  xv p = xval(x, a), q = xval(x, b);
  Z3_ast c = is_max ? z_or(x, ext_lt(x, q, p), ext_eq(x, q, p))
                    : z_or(x, ext_lt(x, p, q), ext_eq(x, p, q));
  r = va == vb || !c ? (c ? va : vb) : K(Z3_mk_ite(x->z, c, va, vb)); /* c NULL: false */
  Z3_ast cn, ci = b_ite(x, c, p.i, q.i), cs = b_ite(x, c, p.s, q.s);
  Z3_ast za = vx_negzero(x, a), zb = vx_negzero(x, b);
  Z3_ast cz = b_ite(x, c, za, zb);
  if (nanprop) {
    cn = z_or(x, p.n, q.n);
    /* IEEE maximum/minimum order -0 below +0 */
    Z3_ast both = b_and(x, zero_of(x, a), zero_of(x, b));
    if (both) cz = b_ite(x, both, is_max ? b_and(x, za, zb) : z_or(x, za, zb), cz);
  } else {
    if (q.n) { /* b NaN: a */
      r = K(Z3_mk_ite(x->z, q.n, va, r));
      ci = b_ite(x, q.n, p.i, ci);
      cs = b_ite(x, q.n, p.s, cs);
      cz = b_ite(x, q.n, za, cz);
    }
    if (p.n) { /* a NaN: b */
      r = K(Z3_mk_ite(x->z, p.n, vb, r));
      ci = b_ite(x, p.n, q.i, ci);
      cs = b_ite(x, p.n, q.s, cs);
      cz = b_ite(x, p.n, zb, cz);
    }
    cn = b_and(x, p.n, q.n);
  }
  interp_term t = classed(x, r, ub2(x, a, b), cn, ci, cs);
  x->terms[t].cz = cz;
  return t;
}

static interp_term minmax(vx *x, interp_term a, interp_term b, int is_max) {
  return minmax2(x, a, b, is_max, 1);
}

interp_term vx_fmaxmin(vx *x, interp_term a, interp_term b, int is_max) {
  return minmax2(x, a, b, is_max, 0);
}

/* The poison of maxnum/minnum(a, b) (interp_sym_algebra.num_tie): a NaN
 * operand, or zeros of opposite signs.  real: from the classes and IEEE's
 * signs of zeros (vx_negzero); fp: isnan of either, or an uninterpreted
 * commutative "zeros of opposite signs" (the abstract values have no
 * zeros), so that a proof never relies on it; int (a floating value met
 * among integer data): a fresh Boolean, outside the model. */
static interp_term a_num_tie(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    double p = D(x, a), q = D(x, b);
    int t = p != p || q != q || (p == 0 && q == 0 && !signbit(p) != !signbit(q));
    return t ? new_term(x, NULL, NULL, 1, 0) : INTERP_TERM_NONE;
  }
  Z3_ast r;
  if (x->kind == VX_INT) {
    char name[48];
    x->outside = 1;
    snprintf(name, sizeof name, "tie!%ld", x->fresh++);
    r = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name), x->boolsort));
  } else if (x->kind == VX_FP) {
    Z3_ast va = vx_num(x, a), vb = vx_num(x, b);
    r = z_or(x, z_or(x, app1(x, x->f_isnan, va), app1(x, x->f_isnan, vb)),
             comm(x, x->f_ztie, va, vb));
  } else {
    xv p = xval(x, a), q = xval(x, b);
    Z3_ast za = vx_negzero(x, a), zb = vx_negzero(x, b);
    Z3_ast opp = za || zb ? K(Z3_mk_xor(x->z, za ? za : z_false(x), zb ? zb : z_false(x)))
                          : NULL;
    r = z_or(x, z_or(x, p.n, q.n), b_and(x, b_and(x, zero_of(x, a), zero_of(x, b)), opp));
  }
  if (x->in_lhs) { /* a rule's left side: open, not undefined (vx.in_lhs) */
    x->open_lhs = z_or(x, x->open_lhs, r);
    return INTERP_TERM_NONE;
  }
  return r ? new_term(x, r, NULL, 0, 0) : INTERP_TERM_NONE;
}

static interp_term a_max(void *ctx, interp_term a, interp_term b) {
  return minmax(ctx, a, b, 1);
}

static interp_term a_min(void *ctx, interp_term a, interp_term b) {
  return minmax(ctx, a, b, 0);
}


Z3_ast vx_side(vx *x) {
  if (!x->nside) return NULL;
  return x->nside == 1 ? x->side[0] : K(Z3_mk_and(x->z, (unsigned)x->nside, x->side));
}

/* real: the square root of va, a fresh real r constrained by sqrt's
 * defining properties where the argument is in its domain:
 *   va >= 0  ->  r >= 0 and r*r = va
 * (for va < 0 the source has undefined behaviour, and r is free).  These
 * determine r, so equal arguments give equal roots even when their terms
 * differ; the same (som-simplified) argument gets the same constant, so
 * that equal terms stay syntactically equal for the som comparison. */
/* a with every quotient p/q (p not 1) written p * (1/q), memoised by AST
 * id in the world: the two spellings of a quotient get one som form. */
static Z3_ast recip_form(vx *x, Z3_ast a) {
  if (!Z3_is_app(x->z, a)) return a;
  unsigned id = Z3_get_ast_id(x->z, a);
  if (x->nrf * 2 >= x->caprf) {
    long cap = x->caprf ? 2 * x->caprf : 1024;
    Z3_ast *t = ir_calloc((size_t)cap * 2, sizeof(Z3_ast));
    for (long i = 0; i < x->caprf; i++) {
      Z3_ast k = x->rf[2 * i];
      if (!k) continue;
      long j = Z3_get_ast_id(x->z, k) & (cap - 1);
      while (t[2 * j]) j = (j + 1) & (cap - 1);
      t[2 * j] = k;
      t[2 * j + 1] = x->rf[2 * i + 1];
    }
    ir_free(x->rf);
    x->rf = t;
    x->caprf = cap;
  }
  long j = id & (x->caprf - 1);
  while (x->rf[2 * j] && x->rf[2 * j] != a) j = (j + 1) & (x->caprf - 1);
  if (x->rf[2 * j]) return x->rf[2 * j + 1];
  Z3_app app = Z3_to_app(x->z, a);
  unsigned n = Z3_get_app_num_args(x->z, app);
  Z3_ast r = a;
  if (n > 0 && n <= 64) {
    Z3_ast args[64];
    int changed = 0;
    for (unsigned i = 0; i < n; i++) {
      Z3_ast ai = Z3_get_app_arg(x->z, app, i);
      args[i] = recip_form(x, ai);
      changed |= args[i] != ai;
    }
    Z3_decl_kind k = Z3_get_decl_kind(x->z, Z3_get_app_decl(x->z, app));
    if (k == Z3_OP_DIV && n == 2 && !(is_num_lit(x, args[0]) &&
                                      !strcmp(Z3_get_numeral_string(x->z, args[0]), "1"))) {
      Z3_ast q = K(Z3_mk_div(x->z, numeral(x, 1), args[1]));
      Z3_ast m[2] = {args[0], q};
      r = K(Z3_mk_mul(x->z, 2, m));
    } else if (changed) {
      r = K(Z3_update_term(x->z, a, n, args));
    }
  }
  /* the table may have grown in the recursion: find the slot again */
  j = id & (x->caprf - 1);
  while (x->rf[2 * j]) j = (j + 1) & (x->caprf - 1);
  x->rf[2 * j] = a;
  x->rf[2 * j + 1] = r;
  x->nrf++;
  return r;
}

Z3_ast vx_som(vx *x, Z3_ast a, Z3_params som) {
  return K(Z3_simplify_ex(x->z, recip_form(x, a), som));
}

Z3_params vx_som_params(Z3_context z) {
  Z3_params som = Z3_mk_params(z);
  Z3_params_inc_ref(z, som);
  Z3_params_set_bool(z, som, Z3_mk_string_symbol(z, "som"), true);
  return som;
}

unsigned vx_fp_width(const vx *x) {
  long nt = x->nterms * 3 + x->nlits + 8;
  unsigned width = 4;
  while ((1L << (width - 1)) < nt && width < 64) width++;
  return width;
}

static Z3_ast som_key(vx *x, Z3_ast a) {
  a = recip_form(x, a);
  Z3_params som = vx_som_params(x->z);
  Z3_ast key = K(Z3_simplify_ex(x->z, a, som));
  Z3_params_dec_ref(x->z, som);
  return key;
}

static Z3_ast real_sqrt(vx *x, Z3_ast va) {
  Z3_ast key = som_key(x, va);
  for (int i = 0; i < x->nsqrt; i++)
    if (x->sqrt_arg[i] == key) return x->sqrt_root[i];
  char name[48];
  snprintf(name, sizeof name, "sqrt!%ld", x->fresh++);
  Z3_ast r = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name), x->num));
  Z3_ast zero = numeral(x, 0);
  Z3_ast rr[2] = {r, r};
  Z3_ast props[2] = {K(Z3_mk_ge(x->z, r, zero)),
                     K(Z3_mk_eq(x->z, K(Z3_mk_mul(x->z, 2, rr)), key))};
  Z3_ast def = K(Z3_mk_implies(x->z, K(Z3_mk_ge(x->z, key, zero)),
                               K(Z3_mk_and(x->z, 2, props))));
  add_side(x, def);
  if (x->nsqrt == x->capsqrt) {
    x->capsqrt = x->capsqrt ? 2 * x->capsqrt : 8;
    x->sqrt_arg = ir_realloc(x->sqrt_arg, sizeof(Z3_ast) * (size_t)x->capsqrt);
    x->sqrt_root = ir_realloc(x->sqrt_root, sizeof(Z3_ast) * (size_t)x->capsqrt);
  }
  x->sqrt_arg[x->nsqrt] = key;
  x->sqrt_root[x->nsqrt++] = r;
  return r;
}

static interp_term a_sqrt(void *ctx, interp_term a) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_outside(x, a);
  if (x->kind == VX_CONCRETE) {
    double p = D(x, a);
    return new_term(x, NULL, NULL, sqrt(p), x->terms[a].cub);
  }
  Z3_ast va = vx_num(x, a);
  Z3_ast ub = x->terms[a].ub;
  if (x->kind == VX_REAL) { /* sqrt of a negative number: NaN (an event) */
    interp_term t = arith(x, 's', new_term(x, real_sqrt(x, va), ub, 0, 0), a, 0);
    x->terms[t].root_of = a;
    x->terms[t].arith = 3; /* event: a < 0 */
    return t;
  }
  return new_term(x, app1(x, x->f_sqrt, va), ub, 0, 0);
}

static interp_term a_exp(void *ctx, interp_term a) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_outside(x, a);
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, exp(D(x, a)), x->terms[a].cub);
  return arith(x, 'e', new_term(x, app1(x, x->f_exp, vx_num(x, a)), x->terms[a].ub, 0, 0), a, 0);
}

interp_term vx_pow(vx *x, interp_term a, interp_term b) {
  if (x->kind == VX_INT) return int_outside(x, a);
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, pow(D(x, a), D(x, b)), cub2(x, a, b));
  if (x->kind != VX_REAL)
    return new_term(x, app2(x, x->f_pow, vx_num(x, a), vx_num(x, b)), ub2(x, a, b), 0, 0);
  Z3_ast v = app2(x, x->f_pow, xval(x, a).v, xval(x, b).v);
  /* pow(1, NaN) is 1: no propagation rule; the class is unspecified, a
   * function of the term */
  Z3_ast sp[5];
  char id[32];
  snprintf(id, sizeof id, "pow%u", Z3_get_ast_id(x->z, v));
  special_of(x, id, NULL, 0, sp);
  interp_term t = classed(x, v, ub2(x, a, b), sp[0], b_and(x, b_not(x, sp[0]), sp[1]), sp[2]);
  x->terms[t].cz = sp[4]; /* pow(-0, 3) is -0: the sign is unspecified too */
  return t;
}

interp_term vx_trunc(vx *x, interp_term a) {
  if (x->kind == VX_INT) return int_outside(x, a);
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, trunc(D(x, a)), x->terms[a].cub || !isfinite(D(x, a)));
  Z3_ast ub = x->terms[a].ub, va = vx_num(x, a);
  if (x->kind == VX_REAL) { /* (int) of NaN or an infinity: undefined in C */
    xv p = xval(x, a);
    ub = z_or(x, ub, z_or(x, p.n, p.i));
    va = p.v;
  }
  return new_term(x, app1(x, x->f_trunc, va), ub, 0, 0);
}

interp_term vx_round32(vx *x, interp_term a) {
  if (x->kind == VX_INT) return int_outside(x, a);
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, (double)(float)D(x, a), x->terms[a].cub);
  Z3_ast va = vx_num(x, a);
  double d;
  if (x->kind == VX_FP) {
    if (lit_value(x, va, &d) && (double)(float)d == d) return a;
    return new_term(x, app1(x, x->f_r32, va), x->terms[a].ub, 0, 0);
  }
  Z3_ast cn, ci, cs;
  vx_class(x, a, &cn, &ci, &cs);
  va = eff_value(x, a, va);
  if (!cn && !ci && Z3_is_numeral_ast(x->z, va)) {
    d = Z3_get_numeral_double(x->z, va);
    if ((double)(float)d == d) return a;
  }
  /* The rounding to binary32 is an uninterpreted function with the
   * properties that make counterexamples concrete: it is exact on binary
   * fractions with few bits (n/1024 with |n/1024| <= 8192: at most 23
   * significant bits), and overflows (to an infinity of the value's sign)
   * only beyond 3e38 (FLT_MAX is 3.4e38).  (Z3's floating-point theory
   * would answer unknown for a symbolic real operand.) */
  Z3_ast v = app1(x, x->f_r32, va), ovf = app1(x, x->f_ovf, va);
  Z3_ast k1024[2] = {numeral(x, 1024), va};
  Z3_ast small[3] = {K(Z3_mk_is_int(x->z, K(Z3_mk_mul(x->z, 2, k1024)))),
                     K(Z3_mk_le(x->z, numeral(x, -8192), va)),
                     K(Z3_mk_le(x->z, va, numeral(x, 8192)))};
  add_side(x, K(Z3_mk_implies(x->z, K(Z3_mk_and(x->z, 3, small)),
                              K(Z3_mk_eq(x->z, v, va)))));
  Z3_ast range[2] = {K(Z3_mk_le(x->z, numeral(x, -3e38), va)),
                     K(Z3_mk_le(x->z, va, numeral(x, 3e38)))};
  add_side(x, K(Z3_mk_implies(x->z, K(Z3_mk_and(x->z, 2, range)),
                              K(Z3_mk_not(x->z, ovf)))));
  ovf = b_and(x, b_and(x, b_not(x, cn), b_not(x, ci)), ovf);
  Z3_ast neg = K(Z3_mk_lt(x->z, va, numeral(x, 0)));
  Z3_ast cz = vx_negzero(x, a); /* (float)-0 is -0 */
  interp_term t = classed(x, v, x->terms[a].ub, cn, z_or(x, ci, ovf),
                          ci ? b_ite(x, ci, cs, neg) : neg);
  x->terms[t].cz = cz;
  return t;
}

static Z3_ast fp_notnan(vx *x, Z3_ast va, Z3_ast vb) {
  Z3_ast n = z_or(x, app1(x, x->f_isnan, va), app1(x, x->f_isnan, vb));
  return K(Z3_mk_not(x->z, n));
}

static interp_term a_compare(void *ctx, interp_cmp dir, interp_term a,
                             interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_INT) return int_compare(x, dir, a, b);
  if (x->kind == VX_CONCRETE) {
    double p = D(x, a), q = D(x, b);
    int r = 0;
    switch (dir) {
    case INTERP_CMP_EQ: r = p == q; break;
    case INTERP_CMP_NE: r = p != q; break;
    case INTERP_CMP_LT: r = p < q; break;
    case INTERP_CMP_LE: r = p <= q; break;
    case INTERP_CMP_GT: r = p > q; break;
    case INTERP_CMP_GE: r = p >= q; break;
    }
    return new_term(x, NULL, NULL, r, cub2(x, a, b));
  }
  Z3_ast va = vx_num(x, a), vb = vx_num(x, b), r = NULL;
  double la, lb;
  if (x->kind == VX_REAL) {
    /* IEEE: a comparison with NaN is false (NE: true); infinities order */
    xv p = xval(x, a), q = xval(x, b);
    Z3_ast ordered = b_and(x, b_not(x, p.n), b_not(x, q.n));
    switch (dir) {
    case INTERP_CMP_EQ: r = b_and(x, ordered, ext_eq(x, p, q)); break;
    case INTERP_CMP_NE: r = b_not(x, b_and(x, ordered, ext_eq(x, p, q))); break;
    case INTERP_CMP_LT: r = b_and(x, ordered, ext_lt(x, p, q)); break;
    case INTERP_CMP_LE: r = b_and(x, ordered, z_or(x, ext_lt(x, p, q), ext_eq(x, p, q))); break;
    case INTERP_CMP_GT: r = b_and(x, ordered, ext_lt(x, q, p)); break;
    case INTERP_CMP_GE: r = b_and(x, ordered, z_or(x, ext_lt(x, q, p), ext_eq(x, q, p))); break;
    }
    if (!r) r = z_false(x);
    if (Z3_is_numeral_ast(x->z, va) && Z3_is_numeral_ast(x->z, vb))
      r = K(Z3_simplify(x->z, r)); /* iota indices, constants: known */
  } else if (lit_value(x, va, &la) && lit_value(x, vb, &lb)) {
    /* two literals (iota indices, constants): the comparison is known */
    int c = 0;
    switch (dir) {
    case INTERP_CMP_EQ: c = la == lb; break;
    case INTERP_CMP_NE: c = la != lb; break;
    case INTERP_CMP_LT: c = la < lb; break;
    case INTERP_CMP_LE: c = la <= lb; break;
    case INTERP_CMP_GT: c = la > lb; break;
    case INTERP_CMP_GE: c = la >= lb; break;
    }
    r = K(c ? Z3_mk_true(x->z) : Z3_mk_false(x->z));
  } else { /* abstract values: equal non-NaN values compare equal; a
            * comparison with NaN is false (NE true); order unknown */
    Z3_ast ok = fp_notnan(x, va, vb);
    switch (dir) {
    case INTERP_CMP_EQ: r = z_and(x, ok, K(Z3_mk_eq(x->z, va, vb))); break;
    case INTERP_CMP_NE: r = K(Z3_mk_not(x->z, z_and(x, ok, K(Z3_mk_eq(x->z, va, vb))))); break;
    case INTERP_CMP_LT: r = z_and(x, ok, app2(x, x->f_lt, va, vb)); break;
    case INTERP_CMP_LE: r = z_and(x, ok, app2(x, x->f_le, va, vb)); break;
    case INTERP_CMP_GT: r = z_and(x, ok, app2(x, x->f_lt, vb, va)); break;
    case INTERP_CMP_GE: r = z_and(x, ok, app2(x, x->f_le, vb, va)); break;
    }
  }
  return new_term(x, r, ub2(x, a, b), 0, 0);
}

static interp_term a_select(void *ctx, interp_term p, interp_term a,
                            interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    int c = vx_ctrue(x, p);
    interp_term t = c ? a : b;
    interp_term r = new_term(x, NULL, NULL, D(x, t), x->terms[p].cub || x->terms[t].cub);
    x->terms[r].ity = x->terms[a].ity ? x->terms[a].ity : x->terms[b].ity;
    return r;
  }
  Z3_ast c = vx_bool(x, p);
  Z3_lbool known = Z3_get_bool_value(x->z, c);
  if (is_num_lit(x, x->terms[p].v)) { /* a mask: 0 or 1 */
    Z3_string str = Z3_get_numeral_string(x->z, x->terms[p].v);
    known = str && !strcmp(str, "0") ? Z3_L_FALSE : Z3_L_TRUE;
  }
  if (known != Z3_L_UNDEF && !x->terms[p].ub) /* a constant predicate */
    return known == Z3_L_TRUE ? a : b;
  if (x->kind == VX_INT && meets_real(x, a, b)) return int_outside(x, a);
  Z3_ast va = x->terms[a].v, vb = x->terms[b].v;
  ir_elem ie = IR_I1;
  if (x->kind == VX_INT && (x->terms[a].ity || x->terms[b].ity)) { /* one width */
    ie = int_type(x, a, b);
    va = int_at(x, a, ie);
    vb = int_at(x, b, ie);
  } else if (Z3_get_sort(x->z, va) != Z3_get_sort(x->z, vb)) {
    va = vx_num(x, a);
    vb = vx_num(x, b);
  }
  Z3_ast r = va == vb ? va : K(Z3_mk_ite(x->z, c, va, vb));
  Z3_ast ua = x->terms[a].ub, ubb = x->terms[b].ub, u = NULL;
  if (ua || ubb)
    u = ua == ubb ? ua
                  : K(Z3_mk_ite(x->z, c, ua ? ua : z_false(x),
                                ubb ? ubb : z_false(x)));
  u = z_or(x, x->terms[p].ub, u);
  if (x->kind == VX_INT && ie != IR_I1) return vx_set_type(x, new_term(x, r, u, 0, 0), ie);
  if (x->kind != VX_REAL) return new_term(x, r, u, 0, 0);
  xv pa = xval(x, a), pb = xval(x, b);
  if (pa.v != va || pb.v != vb)
    r = pa.v == pb.v ? pa.v : K(Z3_mk_ite(x->z, c, pa.v, pb.v));
  va = pa.v;
  vb = pb.v;
  Z3_ast cz = b_ite(x, c, vx_negzero(x, a), vx_negzero(x, b));
  interp_term t;
  if (va == vb && pa.n == pb.n && pa.i == pb.i && pa.s == pb.s)
    t = classed(x, r, u, pa.n, pa.i, pa.s);
  else
    t = classed(x, r, u, b_ite(x, c, pa.n, pb.n), b_ite(x, c, pa.i, pb.i),
                b_ite(x, c, pa.s, pb.s));
  x->terms[t].cz = cz;
  return t;
}

/* real: does the source value s (value a, after som) differ from the
 * candidate value c (value b) as IEEE values?  NaN equals NaN, infinities
 * by sign, finite values as reals.  Kept; NULL if certainly not. */
static Z3_ast differ(vx *x, interp_term s, interp_term c, Z3_ast a, Z3_ast b) {
  xv p = xval(x, s), q = xval(x, c);
  Z3_ast ts = x->terms[s].spec, tc = x->terms[c].spec;
  Z3_ast zs = vx_negzero(x, s), zc = vx_negzero(x, c);
  if (p.n == q.n && p.i == q.i && p.s == q.s && a == b && ts == tc &&
      (!ts || x->terms[s].sval == x->terms[c].sval) && zs == zc)
    return NULL;
  p.v = eff_value(x, s, a);
  q.v = eff_value(x, c, b);
  Z3_ast same = z_or(x, b_and(x, p.n, q.n),
                     b_and(x, b_and(x, b_not(x, p.n), b_not(x, q.n)), ext_eq(x, p, q)));
  Z3_ast d = b_not(x, same);
  if (zs != zc && x->zrelax != 2) { /* two zeros of opposite signs */
    Z3_ast sign = K(Z3_mk_xor(x->z, zs ? zs : z_false(x), zc ? zc : z_false(x)));
    if (x->zrelax) { /* and of opposite relaxed signs */
      Z3_ast ks = vx_negzero_keyed(x, s), kc = vx_negzero_keyed(x, c);
      sign = ks == kc ? NULL
                      : b_and(x, sign, K(Z3_mk_xor(x->z, ks ? ks : z_false(x),
                                                   kc ? kc : z_false(x))));
    }
    Z3_ast zz = sign ? b_and(x, zero_of(x, s), zero_of(x, c)) : NULL;
    if (zz) {
      x->zsign_used = 1;
      d = z_or(x, d, b_and(x, zz, sign));
    }
  }
  return d;
}

Z3_ast vx_mismatch(vx *x, interp_term sv, interp_term sp, interp_term cv,
                   interp_term cp, Z3_params som) {
  Z3_context z = x->z;
  Z3_ast a = vx_num(x, sv), b = vx_num(x, cv);
  if (x->kind == VX_INT && meets_real(x, sv, cv)) { /* not compared here */
    x->outside = 1;
    return NULL;
  }
  if (x->kind == VX_INT) { /* at one width */
    ir_elem e = int_type(x, sv, cv);
    a = int_at(x, sv, e);
    b = int_at(x, cv, e);
  }
  if (som && x->kind == VX_INT) { /* sums of monomials: reordered sums meet */
    a = K(Z3_simplify_ex(z, a, som));
    b = K(Z3_simplify_ex(z, b, som));
  } else if (som) {
    a = vx_som(x, a, som);
    b = vx_som(x, b, som);
    if (a != b) { /* a - b may still simplify to 0 */
      Z3_ast args[2] = {a, b};
      Z3_ast d = K(Z3_simplify_ex(z, K(Z3_mk_sub(z, 2, args)), som));
      if (d == numeral(x, 0)) b = a;
    }
  }
  Z3_ast sub[2] = {vx_poisonb(x, sp), vx_ub(x, sv)};
  Z3_ast src_undef = K(Z3_mk_or(z, 2, sub));
  sub[0] = vx_poisonb(x, cp);
  sub[1] = vx_ub(x, cv);
  Z3_ast cand_undef = K(Z3_mk_or(z, 2, sub));
  Z3_ast d;
  if (x->kind == VX_REAL) /* as IEEE values: classes and reals */
    d = differ(x, sv, cv, a, b);
  else
    d = a == b ? NULL : K(Z3_mk_not(z, K(Z3_mk_eq(z, a, b))));
  sub[0] = cand_undef;
  sub[1] = d ? d : z_false(x);
  Z3_ast bad = K(Z3_mk_or(z, 2, sub));
  sub[0] = K(Z3_mk_not(z, src_undef));
  sub[1] = bad;
  Z3_ast f = K(Z3_simplify(z, K(Z3_mk_and(z, 2, sub))));
  return Z3_get_bool_value(z, f) == Z3_L_FALSE ? NULL : f;
}

interp_term vx_not(vx *x, interp_term a) {
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, !vx_ctrue(x, a), x->terms[a].cub);
  return new_term(x, K(Z3_mk_not(x->z, vx_bool(x, a))), x->terms[a].ub, 0, 0);
}

/* a && b, a || b: b (and its undefined behaviour) only counts when C
 * evaluates it. */
static interp_term logic(vx *x, interp_term a, interp_term b, int is_and) {
  if (x->kind == VX_CONCRETE) {
    int ca = vx_ctrue(x, a);
    int evalb = is_and ? ca : !ca;
    int r = evalb ? vx_ctrue(x, b) : ca;
    return new_term(x, NULL, NULL, r, x->terms[a].cub || (evalb && x->terms[b].cub));
  }
  Z3_ast ca = vx_bool(x, a), cb = vx_bool(x, b);
  Z3_ast args[2] = {ca, cb};
  Z3_ast r = K(is_and ? Z3_mk_and(x->z, 2, args) : Z3_mk_or(x->z, 2, args));
  Z3_ast ub = x->terms[a].ub;
  if (x->terms[b].ub) {
    Z3_ast evalb = is_and ? ca : K(Z3_mk_not(x->z, ca));
    ub = z_or(x, ub, z_and(x, evalb, x->terms[b].ub));
  }
  return new_term(x, r, ub, 0, 0);
}

interp_term vx_and(vx *x, interp_term a, interp_term b) { return logic(x, a, b, 1); }
interp_term vx_or(vx *x, interp_term a, interp_term b) { return logic(x, a, b, 0); }

static interp_term body_op(vx *x, interp_body body, interp_term a,
                           interp_term b) {
  switch (body) {
  case INTERP_BODY_ADD: return a_add(x, a, b);
  case INTERP_BODY_MUL: return a_mul(x, a, b);
  case INTERP_BODY_MAX: return minmax(x, a, b, 1);
  case INTERP_BODY_MIN: return minmax(x, a, b, 0);
  default: { /* a conditional update: acc a, element b, as C computes it */
    interp_term c = a_compare(x, (interp_cmp)interp_body_update_dir(body), b, a);
    return a_select(x, c, b, a);
  }
  }
}

/* A conditional update (interp_body_update_dir) is not associative: its
 * fold is the left fold in order, in both modes.
 * fp: a reduction by an associative body is a function of the multiset of
 * its elements: two elements are one commutative operation, three or more
 * an uninterpreted function of the sum of their hashes (bit-vector
 * addition is commutative and associative, so every order gives the same
 * term; distinct multisets
 * differ under a suitable hash).  init joins with one more operation unless
 * it is the body's identity (1 for mul; for add, 0 is taken as IEEE's
 * identity -0, and a candidate that relies on it says so: x->zinit). */
interp_term vx_reduce(vx *x, interp_body body, interp_term init,
                      const interp_term *xs, long n) {
  if (interp_body_update_dir(body) >= 0) { /* not associative: in order */
    interp_term acc = init;
    for (long i = 0; i < n; i++) acc = body_op(x, body, acc, xs[i]);
    return acc;
  }
  if (x->kind == VX_FP && n == 0 && x->cand && body == INTERP_BODY_ADD &&
      is_lit(x, init, 0)) { /* an empty sum: IEEE's identity -0 */
    interp_term t = copy_term(x, init);
    x->terms[t].pz = 3;
    return t;
  }
  if (x->kind != VX_FP || n <= 2) {
    interp_term acc = init;
    int skip = 0;
    if (x->kind == VX_FP && n > 0 &&
        ((body == INTERP_BODY_ADD && is_lit(x, init, 0)) ||
         (body == INTERP_BODY_MUL && is_lit(x, init, 1)))) {
      acc = xs[0];
      skip = 1;
      if (body == INTERP_BODY_ADD && x->cand) x->zinit = 1;
    }
    if (x->kind == VX_FP && n == 2 && !skip) { /* init op (x0 op x1) */
      interp_term pair = body_op(x, body, xs[0], xs[1]);
      return body_op(x, body, init, pair);
    }
    for (long i = skip; i < n; i++) acc = body_op(x, body, acc, xs[i]);
    return acc;
  }
  Z3_ast sum = NULL, ub = NULL;
  for (long i = 0; i < n; i++) {
    Z3_ast h = app1(x, x->f_hash[body], vx_num(x, xs[i]));
    sum = sum ? K(Z3_mk_bvadd(x->z, sum, h)) : h;
    ub = z_or(x, ub, x->terms[xs[i]].ub);
  }
  interp_term red = new_term(x, app1(x, x->f_red[body], sum), ub, 0, 0);
  if ((body == INTERP_BODY_ADD && is_lit(x, init, 0)) ||
      (body == INTERP_BODY_MUL && is_lit(x, init, 1))) {
    if (body == INTERP_BODY_ADD && x->cand) x->zinit = 1;
    return red;
  }
  return body_op(x, body, init, red);
}

static interp_term a_reduce(void *ctx, interp_body body, interp_term init,
                            const interp_term *xs, long n) {
  return vx_reduce(ctx, body, init, xs, n);
}

static interp_term a_poison_or(void *ctx, interp_term a, interp_term b) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE)
    return new_term(x, NULL, NULL, vx_ctrue(x, a) || vx_ctrue(x, b), 0);
  return new_term(x, z_or(x, x->terms[a].v, x->terms[b].v), NULL, 0, 0);
}

static interp_term a_poison_select(void *ctx, interp_term pred, interp_term pa,
                                   interp_term pb) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    interp_term t = vx_ctrue(x, pred) ? pa : pb;
    return t == INTERP_TERM_NONE || !vx_ctrue(x, t) ? INTERP_TERM_NONE : t;
  }
  Z3_ast r = K(Z3_mk_ite(x->z, vx_bool(x, pred), vx_poisonb(x, pa),
                         vx_poisonb(x, pb)));
  return new_term(x, r, NULL, 0, 0);
}

interp_term vx_poison_true(vx *x) {
  if (x->kind == VX_CONCRETE) return new_term(x, NULL, NULL, 1, 0);
  return new_term(x, K(Z3_mk_true(x->z)), NULL, 0, 0);
}

static interp_term a_poison_true(void *ctx) { return vx_poison_true(ctx); }

/* -------------------------------------------------------------- world */

/* C's conversion of a (of type from) to type to. */
static interp_term a_convert(void *ctx, interp_term a, ir_elem from, ir_elem to) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    double d = D(x, a);
    /* a floating value out of the integer type's range: undefined (C11 6.3.1.4) */
    int cub = x->terms[a].cub ||
              (ir_elem_is_float(from) && ir_elem_is_int(to) && ir_elem_wrap(to, d) != trunc(d));
    d = to == IR_F32 ? (double)(float)d : to == IR_I1 ? d != 0 : ir_elem_wrap(to, d);
    interp_term t = new_term(x, NULL, NULL, d, cub);
    return ir_elem_is_int(to) ? vx_set_type(x, t, to) : t;
  }
  if (ir_elem_is_int(to) && ir_elem_is_int(from)) {
    if (x->kind != VX_INT) { /* integer data in a floating world: not modelled */
      x->outside = 1;
      return a;
    }
    /* extension by the source type (int_at), truncation modulo 2^N */
    Z3_ast v = int_at(x, a, from);
    unsigned wf = (unsigned)ir_elem_bits(from), wt = (unsigned)ir_elem_bits(to);
    if (wt < wf) v = K(Z3_mk_extract(x->z, wt - 1, 0, v));
    else if (wt > wf)
      v = K(ir_elem_is_signed(from) ? Z3_mk_sign_ext(x->z, wt - wf, v)
                                    : Z3_mk_zero_ext(x->z, wt - wf, v));
    return vx_set_type(x, new_term(x, v, x->terms[a].ub, 0, 0), to);
  }
  if (to == IR_F32 && from == IR_F64) return vx_round32(x, a);
  if (ir_elem_is_float(to) && ir_elem_is_float(from)) {
    if (x->kind != VX_INT || !is_real(x, a) || from == to) return a;
    /* f32 widened to f64, exactly: the same value, now of type f64 (its
     * operations are f64's, real_arith) */
    interp_term t = new_term(x, x->terms[a].v, x->terms[a].ub, 0, 0);
    x->terms[t].cn = x->terms[a].cn;
    x->terms[t].rbits = (unsigned char)ir_elem_bits(to);
    return t;
  }
  if (x->kind == VX_INT && x->int_reals) /* as reals (above) */
    return ir_elem_is_int(to) ? real_to_int(x, a, to) : int_to_real(x, a, from, to);
  /* between integer and floating values: outside the int world's model */
  x->outside = 1;
  if (x->kind != VX_INT) return a;
  char name[48];
  snprintf(name, sizeof name, "outside!%ld", x->fresh++);
  unsigned w = ir_elem_is_int(to) ? (unsigned)ir_elem_bits(to) : x->width;
  interp_term t = new_term(x, K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, name),
                                            Z3_mk_bv_sort(x->z, w))),
                           x->terms[a].ub, 0, 0);
  return ir_elem_is_int(to) ? vx_set_type(x, t, to) : t;
}

/* a << b, a >> b (op 'l', 'a', 'r') in integer type e: bvshl, bvashr,
 * bvlshr.  A count outside 0..N-1 is undefined on both sides (C; arith's
 * poison), and in the source so is a signed left shift of a negative
 * value or one whose result does not fit. */
static interp_term a_shift(void *ctx, int op, interp_term a, interp_term b, ir_elem e) {
  vx *x = ctx;
  if (x->kind == VX_CONCRETE) {
    interp_term t = new_term(x, NULL, NULL, ir_int_arith(e, op, D(x, a), D(x, b)),
                             cub2(x, a, b));
    return vx_set_type(x, t, e);
  }
  if (x->kind != VX_INT) { /* not modelled outside the int world */
    x->outside = 1;
    return a;
  }
  if (meets_real(x, a, b)) return int_outside(x, a);
  Z3_context z = x->z;
  unsigned w = (unsigned)ir_elem_bits(e);
  Z3_ast va = int_at(x, a, e), vb = int_at(x, b, e), r;
  switch (op) {
  case 'l': r = K(Z3_mk_bvshl(z, va, vb)); break;
  case 'a': r = K(Z3_mk_bvashr(z, va, vb)); break;
  default: r = K(Z3_mk_bvlshr(z, va, vb)); break;
  }
  Z3_ast ub = ub2(x, a, b);
  /* a count outside 0..N-1 (negative counts too) is undefined in C, and in
   * the candidate too: arith's shifts (linalg) give poison there, so no
   * proof may rest on StableHLO's defined value */
  Z3_ast bad = K(Z3_mk_bvuge(z, vb, numeral_w(x, w, w)));
  if (!x->cand) {
    Z3_ast zero = numeral_w(x, 0, w);
    if (op == 'l' && ir_elem_is_signed(e)) {
      Z3_ast c[3] = {bad, K(Z3_mk_bvslt(z, va, zero)),
                     K(Z3_mk_not(z, K(Z3_mk_eq(z, K(Z3_mk_bvashr(z, r, vb)), va))))};
      bad = K(Z3_mk_or(z, 3, c));
      Z3_ast neg = K(Z3_mk_bvslt(z, r, zero)); /* into the sign bit */
      bad = z_or(x, bad, neg);
    }
  }
  ub = z_or(x, ub, bad);
  return vx_set_type(x, new_term(x, r, ub, 0, 0), e);
}

interp_term vx_fresh_elem(vx *x, const char *name, ir_elem e) {
  char buf[96];
  if (x->kind == VX_INT && x->int_reals && ir_elem_is_float(e)) {
    /* a floating input between integer data: any real, or not finite */
    snprintf(buf, sizeof buf, "%s!%ld", name, x->fresh++);
    interp_term t = new_term(x, K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), x->rsort)),
                             NULL, 0, 0);
    snprintf(buf, sizeof buf, "%s!nonfinite!%ld", name, x->fresh++);
    x->terms[t].cn = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), x->boolsort));
    x->terms[t].rbits = (unsigned char)ir_elem_bits(e);
    x->int_reals = 2;
    return t;
  }
  if (x->kind != VX_INT || !ir_elem_is_int(e)) return vx_fresh(x, name);
  snprintf(buf, sizeof buf, "%s!%ld", name, x->fresh++);
  Z3_sort srt = Z3_mk_bv_sort(x->z, (unsigned)ir_elem_bits(e));
  interp_term t = new_term(x, K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), srt)),
                           NULL, 0, 0);
  return vx_set_type(x, t, e);
}

interp_term vx_fresh(vx *x, const char *name) {
  char buf[96];
  snprintf(buf, sizeof buf, "%s!%ld", name, x->fresh++);
  Z3_ast c = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), x->num));
  interp_term t = new_term(x, c, NULL, 0, 0);
  if (x->kind == VX_REAL) { /* any IEEE value: NaN, +-inf, or finite */
    static const char *const tag[3] = {"nan", "inf", "neg"};
    Z3_ast cls[3];
    for (int i = 0; i < 3; i++) {
      snprintf(buf, sizeof buf, "%s!%s!%ld", name, tag[i], x->fresh - 1);
      cls[i] = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), x->boolsort));
    }
    x->terms[t].cn = cls[0];
    x->terms[t].ci = cls[1];
    x->terms[t].cs = cls[2];
    snprintf(buf, sizeof buf, "%s!negz!%ld", name, x->fresh - 1); /* -0 */
    x->terms[t].cz = K(Z3_mk_const(x->z, Z3_mk_string_symbol(x->z, buf), x->boolsort));
    /* the real part of a NaN or an infinity is 0, so that it cannot make
     * two expressions of the same special inputs differ */
    add_side(x, K(Z3_mk_implies(x->z, z_or(x, cls[0], cls[1]),
                                K(Z3_mk_eq(x->z, c, numeral(x, 0))))));
  }
  return t;
}

interp_term vx_value(vx *x, double d) { return a_constant(x, d); }

void vx_init(vx *x, vx_kind kind, Z3_context z, unsigned width) {
  memset(x, 0, sizeof *x);
  x->kind = kind;
  x->z = z;
  x->width = width;
  new_term(x, NULL, NULL, 0, 0); /* handle 0: INTERP_TERM_NONE */
  interp_sym_algebra *g = &x->alg;
  g->ctx = x;
  g->constant = a_constant;
  g->add = a_add;
  g->sub = a_sub;
  g->mul = a_mul;
  g->div = a_div;
  g->max = a_max;
  g->min = a_min;
  g->neg = a_neg;
  g->sqrt = a_sqrt;
  g->exp = a_exp;
  g->compare = a_compare;
  g->select = a_select;
  g->reduce = kind == VX_FP ? a_reduce : NULL;
  g->poison_or = a_poison_or;
  g->poison_select = a_poison_select;
  g->poison_true = a_poison_true;
  g->convert = a_convert;
  g->shift = a_shift;
  g->num_tie = a_num_tie;
  if (kind == VX_CONCRETE) return;

  x->boolsort = Z3_mk_bool_sort(z);
  vx_keep(x, Z3_sort_to_ast(z, x->boolsort));
  x->num = kind == VX_REAL ? Z3_mk_real_sort(z) : Z3_mk_bv_sort(z, width);
  vx_keep(x, Z3_sort_to_ast(z, x->num));
  x->hsort = Z3_mk_bv_sort(z, 32);
  vx_keep(x, Z3_sort_to_ast(z, x->hsort));
  x->rsort = Z3_mk_real_sort(z);
  vx_keep(x, Z3_sort_to_ast(z, x->rsort));
  Z3_sort N = x->num, B = x->boolsort;
  x->f_add = decl(x, "fadd", 2, N, N, N);
  x->f_mul = decl(x, "fmul", 2, N, N, N);
  x->f_div = decl(x, "fdiv", 2, N, N, N);
  x->f_neg = decl(x, "fneg", 1, N, N, N);
  x->f_sqrt = decl(x, "sqrt", 1, N, N, N);
  x->f_exp = decl(x, "exp", 1, N, N, N);
  x->f_pow = decl(x, "pow", 2, N, N, N);
  x->f_max = decl(x, "fmax", 2, N, N, N);
  x->f_min = decl(x, "fmin", 2, N, N, N);
  x->f_lt = decl(x, "flt", 2, N, N, B);
  x->f_le = decl(x, "fle", 2, N, N, B);
  x->f_trunc = decl(x, "trunc", 1, N, N, N);
  x->f_isnan = decl(x, "isnan", 1, N, N, B);
  x->f_fmax = decl(x, "c_fmax", 2, N, N, N);
  x->f_fmin = decl(x, "c_fmin", 2, N, N, N);
  x->f_ztie = decl(x, "zero_tie", 2, N, N, B);
  x->f_r32 = decl(x, "round_f32", 1, N, N, N);
  x->f_ovf = decl(x, "f32_overflow", 1, N, N, B);
  /* the associative bodies (a conditional update is folded in order) */
  static const char *const bn[INTERP_BODY_MIN + 1] = {"sum", "prod", "rmax", "rmin"};
  for (int b = 0; b <= INTERP_BODY_MIN; b++) {
    char name[32];
    snprintf(name, sizeof name, "hash_%s", bn[b]);
    x->f_hash[b] = decl(x, name, 1, N, N, x->hsort);
    snprintf(name, sizeof name, "%s", bn[b]);
    x->f_red[b] = decl(x, name, 1, x->hsort, x->hsort, N);
  }
}

void vx_free(vx *x) {
  for (long i = 0; i < x->npool; i++) Z3_dec_ref(x->z, x->pool[i]);
  ir_free(x->pool);
  ir_free(x->terms);
  ir_free(x->lits);
  ir_free(x->litast);
  ir_free(x->sqrt_arg);
  ir_free(x->sqrt_root);
  ir_free(x->side);
  ir_free(x->mark);
  ir_free(x->rf);
  vx_keys_free(x);
  memset(x, 0, sizeof *x);
}
