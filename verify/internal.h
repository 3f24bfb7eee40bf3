/*
 * internal.h - private to verify/: the term world of one query (vx) and the
 * symbolic executor of loop programs.  Not included outside verify/.
 *
 * A term handle (interp_term) is an index into vx.terms (0 is
 * INTERP_TERM_NONE).  Each entry holds a value and its undefined-behaviour
 * condition: Z3 ASTs in the real and fp worlds, a double and a flag in the
 * concrete world (used to confirm counterexamples).  Poison terms are
 * entries too (a Bool AST, or d = 1 for poison in the concrete world).
 * Every Z3 AST a vx creates is inc_ref'ed into vx.pool and released by
 * vx_free, so a query owns all of its Z3 objects.
 */
#ifndef UPLIFT_VERIFY_INTERNAL_H
#define UPLIFT_VERIFY_INTERNAL_H

#include <z3.h>

#include "interp/ops.h"
#include "ir/ir.h"
#include "verify/verify.h"

typedef enum vx_kind {
  VX_REAL,     /* Z3 reals */
  VX_FP,       /* Z3 bit-vectors of vx.width, uninterpreted arithmetic */
  VX_CONCRETE, /* doubles */
  VX_INT       /* integer data: Z3 bit-vectors of vx.width with the
                  machine's wrap-around (bvadd, bvslt, ...); a signed
                  overflow in the source is undefined behaviour */
} vx_kind;

typedef struct vx_term {
  Z3_ast v;           /* value (numeric sort or Bool) */
  unsigned char rbits; /* int, int_reals: a real's floating type, 32 or
                        * 64 bits; 0: a literal, or not a real */
  Z3_ast ub;          /* undefined-behaviour condition; NULL: never */
  double d;           /* concrete value */
  unsigned char cub;  /* concrete: undefined behaviour happened */
  /* What the term was made from, for the normalisations of algebra.c:
   * recip_of: the term is 1/y (a division of the literal 1), y's handle;
   * root_of: the term is sqrt(y), y's handle.  0: neither. */
  interp_term recip_of, root_of;
  /* real: the IEEE class of the value (NULL: false): NaN, infinite, and
   * the sign of an infinity (true: -inf); v is meaningful when finite.
   * An arithmetic term (+ - * / neg sqrt exp: arith != 0, operands op[])
   * gets its class lazily from its leaves (vx_class); the others carry it.
   * ev: the term's own special event (a division by zero, sqrt of a
   * negative), made lazily. */
  Z3_ast cn, ci, cs;
  Z3_ast spec, sval; /* arith: a special event may have happened; then a
                      * finite result is sval, not v */
  /* real: the sign of a zero (vx_negzero): true when the value is -0
   * (meaningful where it is finite and 0; NULL: false).  Leaves carry it;
   * an arithmetic term gets it lazily (z_done) from IEEE's rules, or in
   * the relaxed world from its outcome key.  sz: the unspecified sign of
   * the outcome when a special event happened.  pz: the term is a + 0, a
   * copy of a (pz_of) whose zero is +0, made by the source (1) or the
   * candidate (2); fp: 3, a candidate's empty sum (IEEE's identity -0). */
  Z3_ast cz, sz, kz; /* kz: the relaxed sign (vx_negzero_keyed), lazily */
  unsigned char z_done, pz, kz_done;
  interp_term pz_of;
  unsigned char arith, cls_done;
  /* int and concrete: ity, the integer type of the term (ir_elem + 1; 0:
   * none, a floating value or an untyped literal); lit: an untyped
   * literal (a constant), whose value d takes the width of the term it
   * meets (int_at) */
  signed char ity;
  unsigned char lit;
  char aop; /* arith: the operation: + - * / n(egate) s(qrt) e(xp) */
  interp_term op[2];
  Z3_ast ev;
} vx_term;

typedef struct vx {
  vx_kind kind;
  /* pair (a rewrite rule): the left side is being built; there a maxnum
   * whose value is open (num_tie) is no licence for any right side, as
   * poison would be, but a place where the rule cannot be shown to keep
   * the value MLIR 16 computes: its condition goes to open_lhs (an element
   * where it holds is a mismatch, verify/pair.c) and the value is IEEE's */
  int in_lhs;
  Z3_ast open_lhs;
  int masked_zero; /* real: a product with the candidate's literal 0 was
                    * taken as 0 (VERIFY_ASSUMES_MASKED_ZERO) */
  int ieee_zero;   /* real: ... never: such a product is IEEE's
                    * (verify_task.ieee_masked_zero) */
  int zrelax;      /* real: 1, signs of zeros differ only where the
                    * relaxed sign differs too (VERIFY_ASSUMES_ZERO_SIGN);
                    * 2, they are not compared (a search for a difference
                    * in value) */
  int zsign_used;  /* real: a compared pair of zeros may differ in sign */
  int zinit;       /* fp: a candidate's sum started from its first element
                    * instead of +0 (VERIFY_ASSUMES_ZERO_SIGN) */
  ir_elem ity;     /* int: the kernel's data type, the type of a term that
                    * has none of its own (numerals are of its width) */
  int outside;     /* int: a value the world cannot model (a floating
                    * expression, sqrt, exp, pow, a rounding) was made;
                    * verify.c then says unknown, never proved */
  int int_reals;   /* int, real mode: floating values between integer
                    * data (a u8 converted to float, scaled, converted
                    * back) are Z3 reals with a Bool cn, "not finite";
                    * 0: they are outside the model; 2 once one
                    * was made */
  Z3_context z;
  vx_term *terms;
  long nterms, capterms;
  Z3_ast *pool; /* every AST made here, inc_ref'ed */
  long npool, cappool;
  unsigned width; /* fp: bits of a value */
  Z3_sort num, hsort, boolsort, rsort; /* rsort: reals (int_reals) */
  Z3_func_decl f_add, f_mul, f_div, f_neg, f_sqrt, f_exp, f_pow, f_max,
      f_min, f_lt, f_le, f_trunc;
  Z3_func_decl f_hash[INTERP_BODY_COUNT], f_red[INTERP_BODY_COUNT];
  /* real: the unspecified class of an arithmetic expression into which an
   * infinity or a division by zero entered, by its real normal form;
   * fp: isnan of an abstract value, C's fmax/fmin, the rounding to f32 */
  Z3_func_decl f_isnan, f_fmax, f_fmin, f_r32, f_ovf, f_ztie;
  /* int, int_reals: IEEE + - * and negation of f32 ([0]) and f64 ([1])
   * values, uninterpreted (algebra.c, real_arith) */
  Z3_func_decl f_rop[4][2];
  struct vx_keys *keys; /* real: the interned outcome keys (keys.c) */
  Z3_ast *rf;           /* real: memo of recip_form, (from, to) pairs */
  long nrf, caprf;
  unsigned *mark;       /* real: visit marks of the class walk */
  long capmark;
  unsigned gen;
  double *lits;         /* fp: the distinct literals, and their constants */
  Z3_ast *litast;
  int nlits, caplits;
  long fresh;           /* counter for unique constant names */
  /* real: sqrt(a) is a fresh real r with the side condition
   * a >= 0 -> (r >= 0 and r*r = a); one r per argument (after som) */
  Z3_ast *sqrt_arg, *sqrt_root;
  int nsqrt, capsqrt;
  Z3_ast *side;         /* side conditions, asserted with every query */
  int nside, capside;
  /* Set while a tensor program (the candidate) builds its terms: the
   * identity 1/(1/y) = y (algebra.c, a_div) and structural zeros (a_mul)
   * apply to it only. */
  int cand;
  interp_sym_algebra alg;
} vx;

/* Set up a world of the given kind over context z (NULL for concrete);
 * width is the fp or int bit width (ignored otherwise). */
void vx_init(vx *x, vx_kind kind, Z3_context z, unsigned width);
/* Release every term and every Z3 object the world made. */
void vx_free(vx *x);
/* Did Z3 report an error since the last call (clears it)? */
int vx_z3_error(void);
/* The error handler installed on every context. */
void vx_z3_handler(Z3_context z, Z3_error_code e);

/* The conjunction of the world's side conditions (the defining properties
 * of the sqrt roots in real mode), or NULL if there are none.  Kept. */
Z3_ast vx_side(vx *x);

/* Keep an AST alive until vx_free; returns it. */
Z3_ast vx_keep(vx *x, Z3_ast a);

/* Handles. */
static inline vx_term *vx_at(vx *x, interp_term h) { return &x->terms[h]; }
interp_term vx_fresh(vx *x, const char *name);       /* a symbolic input */
/* A symbolic input of element type e: in the int world a bit-vector of
 * e's width (integer e), typed e; otherwise vx_fresh. */
interp_term vx_fresh_elem(vx *x, const char *name, ir_elem e);
/* Give term h (just made, not shared) the integer type e: concrete: its
 * value wrapped to e; int: a literal made at e's width.  Returns h. */
interp_term vx_set_type(vx *x, interp_term h, ir_elem e);
interp_term vx_value(vx *x, double d);               /* constant / input */
interp_term vx_poison_true(vx *x);
/* The value as a number / as a Bool AST (coercing i1 terms). */
Z3_ast vx_num(vx *x, interp_term h);
Z3_ast vx_bool(vx *x, interp_term h);
/* Concrete truth of a value/pred handle. */
static inline int vx_ctrue(vx *x, interp_term h) { return x->terms[h].d != 0; }

/* Operations beyond the op algebra that the loop program needs. */
interp_term vx_not(vx *x, interp_term a);
interp_term vx_and(vx *x, interp_term a, interp_term b); /* C's && */
interp_term vx_or(vx *x, interp_term a, interp_term b);  /* C's || */
interp_term vx_pow(vx *x, interp_term a, interp_term b);
interp_term vx_trunc(vx *x, interp_term a);              /* (int)x */
/* C's fmax/fmin: a NaN operand gives the other operand. */
interp_term vx_fmaxmin(vx *x, interp_term a, interp_term b, int is_max);
/* (double)(float)a: the rounding of a double to float. */
interp_term vx_round32(vx *x, interp_term a);
/* real: the class of h as three Bools (NaN, infinite, negative infinity;
 * NULL stands for false).  Kept in the world. */
void vx_class(vx *x, interp_term h, Z3_ast *cn, Z3_ast *ci, Z3_ast *cs);
/* real: is h a negative zero?  A Bool (NULL: false), meaningful where h is
 * finite and 0: IEEE's rules for + - * / neg sqrt exp (round to nearest),
 * or in a relaxed world (x->zrelax) an unspecified outcome of the
 * expression's outcome key.  Kept in the world. */
Z3_ast vx_negzero(vx *x, interp_term h);
/* real: the relaxed sign of a zero (VERIFY_ASSUMES_ZERO_SIGN): an
 * arithmetic expression's is an unspecified outcome of its outcome key, a
 * candidate's + 0 keeps its operand's (a sum starting from -0), the
 * source's + 0 gives +0, a leaf's is its own.  In a relaxed world
 * (x->zrelax) two zeros differ only when both this and vx_negzero say so. */
Z3_ast vx_negzero_keyed(vx *x, interp_term h);
/* The refinement failure at one compared element: the source (value sv,
 * poison sp, NONE for defined) is defined and the candidate (cv, cp) is
 * undefined or differs; real mode (som: Z3's som parameters) compares them
 * as IEEE values, classes and reals after som, fp mode as terms (som
 * NULL).  A kept Bool, or NULL when it simplifies to false.  verify.c's
 * tasks and pair.c's rules both use it. */
Z3_ast vx_mismatch(vx *x, interp_term sv, interp_term sp, interp_term cv,
                   interp_term cp, Z3_params som);
/* real: the som form of a with every quotient p/q written p * (1/q) (the
 * form class keys use).  Kept. */
Z3_ast vx_som(vx *x, Z3_ast a, Z3_params som);
/* real: the key of arithmetic term h's unspecified outcome (keys.c): an
 * interned id, equal for two terms exactly when their polynomials over
 * atoms are (no cancellation, no folding of constants); *args (nargs, owned
 * by the world until the next call) are its computed leaves, whose values
 * and classes the outcome is a function of. */
int vx_outcome_key(vx *x, interp_term h, const interp_term **args, int *nargs);
/* Release the interned keys. */
void vx_keys_free(vx *x);
/* Z3 parameters {som: true} (sums of monomials), inc_ref'ed: the caller
 * dec_refs them. */
Z3_params vx_som_params(Z3_context z);
/* fp: the bit width at which every term of world x (built at a generous
 * width to count them) can take its own value. */
unsigned vx_fp_width(const vx *x);
/* A sum-like reduction, as the algebra's reduce hook (fp) or a left fold. */
interp_term vx_reduce(vx *x, interp_body body, interp_term init,
                      const interp_term *xs, long n);

/* UB and poison of a handle as Bool ASTs (never NULL). */
Z3_ast vx_ub(vx *x, interp_term h);
Z3_ast vx_poisonb(vx *x, interp_term p); /* p may be INTERP_TERM_NONE */

/* The Z3 context of a verifier (for rule checks in pair.c). */
Z3_context vx_ctx_z3(const verify_ctx *v);

/* ------------------------------------------------------------ watch.c */

/* A thread that interrupts Z3 work running past its time limit and ends
 * the process when Z3 ignores the interrupt (watch.c explains).  per_call:
 * seconds per bracketed call (--smt-timeout); deadline: absolute time
 * (vx_now's clock) of the whole run, 0 for none.  NULL if no thread could
 * be started (the verifier then runs unwatched). */
typedef struct vx_watch vx_watch;
vx_watch *vx_watch_new(Z3_context z, double per_call, double deadline);
void vx_watch_free(vx_watch *w);
/* Bracket one piece of Z3 work (w may be NULL). */
void vx_watch_begin(vx_watch *w);
void vx_watch_end(vx_watch *w);
/* 1 if the watch interrupted the last bracketed call. */
int vx_watch_interrupted(vx_watch *w);
/* 1 once the run's deadline has passed. */
int vx_watch_expired(const vx_watch *w);
/* Seconds on a monotonic clock. */
double vx_now(void);
/* A solver of v's context with the per-check budgets of v's options:
 * Z3's `rlimit` (steps, --smt-steps) and `timeout` (wall clock,
 * --smt-timeout).  The caller owns one reference (Z3_solver_dec_ref). */
Z3_solver vx_solver_new(const verify_ctx *v);
/* Check s (a solver of vx_solver_new) under v's watch; counts the call in
 * res->solver_calls and its steps in res->steps_used.  On Z3_L_UNDEF,
 * res->reason says why: the step limit (checked on the count, so the
 * same query gives the same answer on any machine), the run's budget,
 * the wall-clock limit, or Z3's own reason. */
Z3_lbool vx_check(verify_ctx *v, Z3_solver s, verify_result *res);
/* The watch of a verifier (for pair.c), or NULL. */
vx_watch *vx_ctx_watch(const verify_ctx *v);

/* ---------------------------------------------------------- executor */

/* The state of every variable of the kernel after a symbolic run. */
typedef struct vx_var {
  int has;                 /* has a tensor (arrays, scalars, locals) */
  int rank;
  long dims[IR_MAX_RANK];
  long n;
  interp_term *val, *poi;  /* poi[i] == NONE: defined */
  unsigned char *written;  /* a selected statement wrote it */
  struct vx_bag **bags;    /* fp: pending reductions, or NULL */
} vx_var;

typedef struct vx_exec {
  vx *x;
  const ir_kernel *k;
  long *ivals;   /* sizes and iterators, by var id */
  vx_var *vars;  /* by var id */
  int bags_on;   /* fp: accumulations become order-insensitive multisets */
  int ub_always; /* the failure is an assignment outside its array that
                    runs whatever the inputs: the source is undefined at
                    these sizes */
  ir_error err;  /* why the last call failed (position: the statement) */
} vx_exec;

/* Set up the state at sizes (by var id).  Parameters and the variables in
 * inputs[] start as fresh symbolic constants, or, in the concrete world, as
 * the values given by values_of(var) (row-major doubles; NULL: 0); other
 * locals start as poison.  Returns 0 or -1 with e->err. */
int vx_exec_init(vx_exec *e, vx *x, const ir_kernel *k, const long *sizes,
                 const int *inputs, int ninputs,
                 const double *(*values_of)(int var, void *user), void *user);
/* Run the selected assignments.  Returns 0 or -1 with e->err. */
int vx_exec_run(vx_exec *e, const unsigned char *mask);
void vx_exec_free(vx_exec *e);

#endif
