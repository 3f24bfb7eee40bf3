/*
 * interp.h - the reference semantics of loop programs (docs/architecture.md section 5):
 * a deterministic PRNG and random inputs, the loop-program interpreter with
 * poison tracking, statement masks and runtime checks, native runs of the
 * user's original C code through libffi, and the comparison of the two.
 *
 * Typical use (uplift run):
 *
 *   long sizes[k->nvars];          value per IR_VAR_SIZE variable, by var id
 *   interp_default_sizes(k, 0, sizes);
 *   interp_env env;
 *   if (interp_env_init(&env, k, sizes, &err)) ...   bad sizes
 *   interp_fill_random(&env, seed);
 *   if (interp_run(&env, NULL, &err)) ...            runtime error
 *   ... env.vals[var id] holds every array and scalar ...
 *   interp_env_free(&env);
 *
 * Memory: an interp_env owns its tensors (ir_malloc'd, freed by
 * interp_env_free).  Nothing here keeps pointers into the caller's data
 * except env->k, which must outlive the env.  An env is not thread-safe;
 * use one env per thread (they may share the kernel).
 */
#ifndef UPLIFT_INTERP_H
#define UPLIFT_INTERP_H

#include "frontend/frontend.h"
#include "ir/ir.h"

/* ------------------------------------------------------------------ PRNG */

/* splitmix64: a tiny deterministic generator; the same seed gives the same
 * sequence on every machine. */
typedef struct interp_rng {
  uint64_t state;
} interp_rng;

void interp_rng_seed(interp_rng *r, uint64_t seed);
uint64_t interp_rng_next(interp_rng *r);
/* Uniform integer in lo..hi (inclusive); lo <= hi. */
long interp_rng_range(interp_rng *r, long lo, long hi);

/* Range of the random inputs (documented in docs/run.md): array elements
 * are integer-valued in -4..4; scalar parameters (alpha, beta, float_n) are
 * integer-valued in 2..5, so that they are never 0 or 1 (a factor of 0 or 1
 * would hide the operation it takes part in) and never negative. */
#define INTERP_ARRAY_MIN (-4)
#define INTERP_ARRAY_MAX 4
#define INTERP_SCALAR_MIN 2
#define INTERP_SCALAR_MAX 5

/* ----------------------------------------------------------- environment */

typedef struct interp_prog interp_prog; /* compiled form, private */

/* A runtime error is an ir_error (ir/ir.h): the position of the statement
 * (or declaration) that failed, a code (IR_ERR_RANGE for an out-of-range
 * subscript, IR_ERR_TIMEOUT when interp_run stopped at env->time_limit)
 * and a message that names the index and the shape.  interp_error is its
 * old name, kept for the modules not yet converted (docs/util.md,
 * "Errors"). */
typedef ir_error interp_error;

/* The state of one run: a tensor per variable (by var id).  Arrays, scalar
 * parameters, local scalars and local arrays have a tensor (scalars rank 0);
 * sizes and iterators have a tensor with data == NULL.  Every tensor of an
 * env has a poison mask (never NULL).  sizes[var id] is the value of each
 * IR_VAR_SIZE variable. */
typedef struct interp_env {
  const ir_kernel *k;
  long *sizes;       /* nvars entries; meaningful for IR_VAR_SIZE */
  ir_tensor *vals;   /* nvars entries */
  long *ivals;       /* nvars: sizes and iterators while running (private) */
  interp_prog *prog; /* private */
  double time_limit; /* seconds an interp_run may take; 0 (the default after
                      * interp_env_init): no limit */
} interp_env;

/* Fill sizes[var id] for every IR_VAR_SIZE variable of k (other entries are
 * set to 0).  variant 0: successive primes 3, 5, 7, 11, ... in signature
 * order; variant v >= 1: the primes starting at the v-th one in reverse
 * order (e.g. 11, 7, 5 for three sizes and v = 1): every size differs from
 * the others and from variant 0's assignment of it when there are several
 * sizes.  Then sizes that only a view's storage reads are raised to meet
 * k's assumptions (ir_kernel_fit_sizes: lda to k).  sizes has k->nvars
 * entries. */
void interp_default_sizes(const ir_kernel *k, int variant, long *sizes);

/* Set up env for kernel k at the given sizes (sizes[var id], k->nvars
 * entries; copied).  Array shapes are evaluated from the sizes; every
 * element is 0 and not poison for parameters, poison for locals.
 * Returns 0, or -1 with *err filled when a dim is negative or an array is
 * too large (nothing to free then).  k must outlive env. */
int interp_env_init(interp_env *env, const ir_kernel *k, const long *sizes,
                    interp_error *err);
void interp_env_free(interp_env *env);

/* Fill every scalar and array PARAMETER with seeded random integer-valued
 * values (ranges above), in signature order, row-major; clears their
 * poison.  Does not touch locals.  Deterministic in seed. */
void interp_fill_random(interp_env *env, uint64_t seed);

/* The value of one element of parameter var, drawn from r. */
typedef double (*interp_draw_fn)(interp_rng *r, const ir_var *var, void *user);
/* Fill every scalar and array PARAMETER with draw's values (r seeded with
 * seed; in signature order, row-major; converted to the element type as C
 * converts them, but a negative value whose conversion no double holds,
 * -4 into uint64_t, is converted without its sign) and clear their poison:
 * interp_fill_random with another distribution. */
void interp_fill_params(interp_env *env, uint64_t seed, interp_draw_fn draw, void *user);

/* Fill variable `var` (a parameter or a local) with caller-given values
 * (ir_tensor_size(&env->vals[var]) doubles, row-major, copied), e.g. the
 * verifier's counterexample; clears its poison.  Values are converted to
 * the variable's element type as C would (float rounding, int truncation).
 * Returns -1 if var has no tensor. */
int interp_set_values(interp_env *env, int var, const double *values);

/* Mark every element of every local scalar and local array as poison (the
 * state at function entry).  interp_env_init does it; interp_run does NOT,
 * so that tasks run one after another see what earlier tasks computed. */
void interp_poison_locals(interp_env *env);

/* Copy all values and poison of src into dst (same kernel, same sizes). */
void interp_env_copy(interp_env *dst, const interp_env *src);

/* ------------------------------------------------------------------ runs */

/* Run the kernel on env, executing only the assignment statements whose
 * mask[id] is non-zero (mask == NULL: all; mask has k->nassign entries).
 * Loops and ifs run as in C; a loop whose body has no selected assignment
 * is skipped.  Semantics are C's: f64 in double, f32 rounded to float after
 * every operation, integers exact, compound assignments computed in the
 * common type and converted to the target, ?: and && || evaluate only what
 * C evaluates.  Poison propagates: see docs/run.md.
 * Returns 0, or -1 with *err filled (out-of-range subscript: the statement
 * position, the index and the shape); env then holds a partial result. */
int interp_run(interp_env *env, const unsigned char *mask, interp_error *err);

/* written[var id] = 1 for every variable that a selected assignment writes
 * (mask as for interp_run), else 0.  written has k->nvars entries. */
void interp_written_vars(const ir_kernel *k, const unsigned char *mask,
                         unsigned char *written);

/* The poison of an element the loop interpreter computed is a set of
 * bits: INTERP_POISON_UNINIT where it depends on uninitialized values,
 * INTERP_POISON_UNDEF where it has no value in C (a signed overflow of int
 * or a wider type, INT_MIN / -1, a shift past the width or into the sign
 * bit) or its integer value is one no double holds (an i64 or ui64 past
 * 2^53; its value is NaN: ir_elem_wrap).  Either way it is not compared. */
#define INTERP_POISON_UNINIT 1
#define INTERP_POISON_UNDEF 2

/* Number of poison elements of t (0 when t->poison is NULL). */
size_t interp_poison_count(const ir_tensor *t);
/* Number of elements of t whose poison is INTERP_POISON_UNDEF alone. */
size_t interp_undef_count(const ir_tensor *t);

/* A fixed-format checksum of t: the sum of its non-poison elements and a
 * 64-bit FNV-1a hash of the element values (as doubles, -0 as 0, all NaNs
 * alike, poison elements as a marker). */
double interp_tensor_sum(const ir_tensor *t);
uint64_t interp_tensor_hash(const ir_tensor *t);

/* ------------------------------------------------------------ comparison */

/* The tolerance with which native and interpreted results are compared:
 * 0 (exact) when the kernel's arithmetic is exact on integer-valued inputs
 * (no division, sqrt, exp or pow; integer constants only), else a relative
 * 1e-12 for double kernels, 1e-5 when float data is involved. */
double interp_kernel_tolerance(const ir_kernel *k);

/* Do a and b agree within relative tolerance rtol, i.e.
 * |a - b| <= rtol * max(1, |a|, |b|)?  NaN agrees with NaN, infinities with
 * infinities of the same sign. */
int interp_values_agree(double a, double b, double rtol);
/* interp_values_agree, and two zeros agree only with the same sign (-0 is
 * not +0: the search compares as the verifier does, docs/verify.md). */
int interp_values_agree_signed(double a, double b, double rtol);

/* C's fmax (is_max) or fmin as uplift models it (docs/verify.md): a NaN
 * operand gives the other operand; of two operands that compare equal
 * (-0 and +0 included) the first.  Computed here rather than by libm's
 * fmax, whose answer for fmax(-0, +0) depends on how the compiler passed
 * the operands (gcc treats fmax as commutative and may swap them), so that
 * every build of uplift computes the same value. */
double interp_c_fmaxmin(double a, double b, int is_max);

typedef struct interp_mismatch {
  int var;                  /* var id */
  long index[IR_MAX_RANK];  /* element index */
  double expected, got;     /* expected: env a (interpreter); got: env b */
} interp_mismatch;

/* Compare every element of every variable with written[var] != 0 between
 * a (the interpreter) and b (e.g. the native run), skipping elements that
 * are poison in a.  Returns the number of differing elements; the first
 * (variables in id order, elements row-major) goes to *first if not NULL.
 * *compared (if not NULL) gets the number of elements compared. */
long interp_compare(const interp_env *a, const interp_env *b,
                    const unsigned char *written, double rtol,
                    interp_mismatch *first, long *compared);

/* ------------------------------------------------------------ native runs */

/* The user's original C file compiled into a shared object and loaded.
 * interp_native_compile builds it once; interp_native_call runs it any
 * number of times, each time in a forked child with limits. */
typedef struct interp_native interp_native;

typedef struct interp_native_limits {
  double cpu_seconds;      /* RLIMIT_CPU of the child (default 10) */
  double wall_seconds;     /* the child is killed after this (default 60) */
  size_t memory_bytes;     /* RLIMIT_AS headroom (default 4 GiB); skipped
                              under AddressSanitizer */
} interp_native_limits;

/* The limits used when a NULL limits pointer is given. */
void interp_native_default_limits(interp_native_limits *lim);

typedef enum interp_native_status {
  INTERP_NATIVE_OK,          /* the call returned */
  INTERP_NATIVE_COMPILE,     /* the C compiler failed (message has its output) */
  INTERP_NATIVE_CRASH,       /* the child died of a signal */
  INTERP_NATIVE_TIMEOUT,     /* CPU or wall-clock limit */
  INTERP_NATIVE_MEMORY,      /* out of memory under the limit */
  INTERP_NATIVE_INTERNAL,    /* fork, mmap, dlopen, ffi ... failed */
  INTERP_NATIVE_ASSUME       /* the sizes break an assumption of the kernel's
                                views (k <= lda): not called */
} interp_native_status;

typedef struct interp_native_result {
  interp_native_status status;
  double seconds;  /* wall-clock time of the kernel call alone (OK only) */
  char msg[2048];  /* what happened, for the user */
} interp_native_result;

/* Compile the C file at `path` (the one k was parsed from, with the same
 * front-end options opt: -I, -D) with
 *   cc -O2 -ffp-contract=off -fPIC -shared -DPOLYBENCH_USE_C99_PROTO
 *      -D... -I... -I<uplift>/frontend/include
 * together with a generated trampoline exporting the kernel function k->name,
 * in a private temporary directory (removed before returning), and load it.
 * Returns the handle (owned by the caller: interp_native_free), or NULL with
 * res->status and res->msg saying why (compile errors quote cc's output).
 * opt may be NULL.  `cc` is $CC if set, else "cc". */
interp_native *interp_native_compile(const ir_kernel *k, const char *path,
                                     const fe_options *opt,
                                     interp_native_result *res);

/* As interp_native_compile, with extra cc arguments appended after the
 * others (extra: a NULL-terminated list, may be NULL), e.g. the flags of
 * `pkg-config --cflags --libs openblas` to run uplift's C+BLAS output in
 * place of the original (uplift run --native-source). */
interp_native *interp_native_compile_with(const ir_kernel *k, const char *path,
                                          const fe_options *opt,
                                          const char *const *extra,
                                          interp_native_result *res);

/* Call the kernel once on env's current parameter values (sizes, scalars,
 * arrays converted to their C element types) in a forked child under lim
 * (NULL: defaults).  On success the arrays of env receive the results (and
 * lose their poison) and res->seconds the time of the call.  Returns 0, or
 * -1 with res->status/msg set (crash: the signal; time-out; ...); env's
 * values are then unchanged.  env must be of the kernel nat was built for. */
int interp_native_call(interp_native *nat, interp_env *env,
                       const interp_native_limits *lim,
                       interp_native_result *res);

void interp_native_free(interp_native *nat);


#endif
