/*
 * test_verify_fp.c - the verifier on small C kernels against hand-written
 * candidate programs (hlo program text), for the two encodings issue 6
 * finished:
 *   - fp mode: a reduction whose chain starts from the old value of the
 *     output (x[i] += A[i][j]*y[j]) against add(x, dot(A, y)) is proved,
 *     quickly (every check here runs under the default time-out, so an
 *     unknown fails); what the fp semantics rightly tells apart stays
 *     refuted: a scalar factored out of a sum, masked-out elements entering
 *     a sum as 0*x terms, a different multiset of summands;
 *   - real mode: sqrt is a root with its defining properties (r >= 0,
 *     r*r = x for x >= 0), so identities that need them are proved and
 *     sqrt mutants are refuted with a counterexample that the concrete runs
 *     confirm;
 *   - fp mode, signs: a - b = -(b - a) and (-a)*(-b) = a*b, so (z-x)^2 is
 *     proved against (x-z)^2 (correlation's stddev) while (x-z)*(z-x),
 *     z-x and (-x)*z stay refuted with a confirmed counterexample;
 *   - real mode, tosa (no sqrt op): the IEEE identity 1/(1/y) = y of a
 *     tensor program proves reciprocal(rsqrt(x)) against sqrt(x), and
 *     y*rsqrt(y) is sqrt(y) under its own definedness (correlation's
 *     x / (sqrt(fn)*y)); the source's own 1/(1/x) stays undefined at 0,
 *     and the mutants stay refuted.
 * Each case: a kernel source, the index of the task, the candidate's text,
 * the mode and the expected verdict.  The kernels are written to a
 * temporary directory and parsed by the front end like any input.
 *
 * A second table checks `uplift verify`'s reading of a saved report
 * (pipe_report_load) on benchmarks/kernels/gemm.c: each report is either
 * refused with its pipe_error, ir_error code and message, or loaded, its
 * entries checked (pipe_report_check) and the outputs it leaves out found
 * (pipe_report_covers).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enumerator/enumerator.h"
#include "frontend/frontend.h"
#include "grammar/grammar.h"
#include "pipeline/pipeline.h"
#include "polyhedral/polyhedral.h"
#include "tests/harness.h"
#include "verify/verify.h"

/* x += A y, one statement: the chain starts from the old x[i]. */
#define MATVEC_ACC(stmt)                                                      \
  "void kernel_k(int n, double A[n][n], double x[n], double y[n],\n"         \
  "              double alpha) {\n"                                          \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    for (int j = 0; j < n; j++)\n"                                        \
  "      " stmt ";\n"                                                        \
  "}\n"

#define TRI_ACC                                                               \
  "void kernel_k(int n, double A[n][n], double x[n], double y[n]) {\n"       \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    for (int j = 0; j <= i; j++)\n"                                       \
  "      x[i] += A[i][j] * y[j];\n"                                          \
  "}\n"

#define ELEMWISE(rhs)                                                         \
  "void kernel_k(int n, double x[n], double y[n]) {\n"                       \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    y[i] = " rhs ";\n"                                                    \
  "}\n"

/* y = f(x, z), elementwise (signs of differences). */
#define ELEMWISE2(rhs)                                                        \
  "void kernel_k(int n, double x[n], double z[n], double y[n]) {\n"          \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    y[i] = " rhs ";\n"                                                    \
  "}\n"

/* correlation's stddev: a sum of squared differences from the old value. */
#define SQDEV                                                                 \
  "void kernel_k(int n, double A[n][n], double x[n], double y[n]) {\n"       \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    for (int j = 0; j < n; j++)\n"                                        \
  "      x[i] += (A[i][j] - y[j]) * (A[i][j] - y[j]);\n"                     \
  "}\n"

/* float kernels for tosa (no sqrt op: reciprocal(rsqrt(x)) stands for it) */
#define FELEM(rhs)                                                            \
  "#include <math.h>\n"                                                       \
  "void kernel_k(int n, float x[n], float y[n]) {\n"                         \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    y[i] = " rhs ";\n"                                                    \
  "}\n"

/* correlation's data[i][j] /= sqrt(float_n) * stddev[j] */
#define FSCALE                                                                \
  "#include <math.h>\n"                                                       \
  "void kernel_k(int n, float fn, float x[n], float y[n]) {\n"               \
  "  for (int i = 0; i < n; i++)\n"                                          \
  "    x[i] /= sqrtf(fn) * y[i];\n"                                          \
  "}\n"

#define FN1 "reshape(mul(fn, rsqrt(fn))):f32[1]"

typedef struct vcase {
  const char *what;
  const char *src;
  int task;
  const char *prog;
  verify_mode mode;
  verify_verdict want;
  int confirmed; /* refuted: the cex tells them apart concretely (1) or not
                    (0: only rounding or order differ; real mode proves) */
  const char *dialect; /* NULL: hlo */
} vcase;

#define MV "dot_general[batch=(), contract=(1,0)](A, y)"

static const vcase cases[] = {
    /* fp: where the old value enters the reduction */
    {"x[i] += A*y vs add(x, dot(A,y))", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0,
     "add(x, " MV ")", VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x[i] += A*y vs add(dot(A,y), x)", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0,
     "add(" MV ", x)", VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x[i] = x[i] + y*A vs add(x, dot(A,y))", MATVEC_ACC("x[i] = x[i] + y[j] * A[i][j]"), 0,
     "add(x, " MV ")", VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x[i] = A*y + x[i] vs add(x, dot(y,A^T))", MATVEC_ACC("x[i] = A[i][j] * y[j] + x[i]"), 0,
     "add(x, dot_general[batch=(), contract=(0,1)](y, A))", VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x[i] += A*y, real", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0, "add(x, " MV ")",
     VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    /* fp: what must stay refuted */
    {"alpha factored out of the sum, fp", MATVEC_ACC("x[i] += alpha * A[i][j] * y[j]"), 0,
     "add(x, multiply(" MV ", alpha))", VERIFY_FP, VERIFY_REFUTED, 0, NULL},
    {"alpha factored out of the sum, real", MATVEC_ACC("x[i] += alpha * A[i][j] * y[j]"), 0,
     "add(x, multiply(" MV ", alpha))", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"alpha inside the sum, fp", MATVEC_ACC("x[i] += alpha * A[i][j] * y[j]"), 0,
     "add(x, dot_general[batch=(), contract=(1,0)](multiply(A, alpha), y))", VERIFY_FP,
     VERIFY_PROVED, 0, NULL},
    {"masked 0*x terms in the sum, fp", TRI_ACC, 0,
     "add(x, dot_general[batch=(), contract=(1,0)](select(mask[i0 - i1 >= 0]:i1[n,n], A, "
     "0:f64[n,n]), y))",
     VERIFY_FP, VERIFY_REFUTED, 0, NULL},
    /* real: a masked-out element is a structural zero (docs/verify.md) */
    {"masked 0*x terms in the sum, real", TRI_ACC, 0,
     "add(x, dot_general[batch=(), contract=(1,0)](select(mask[i0 - i1 >= 0]:i1[n,n], A, "
     "0:f64[n,n]), y))",
     VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"another multiset (A^T y), fp", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0,
     "add(x, dot_general[batch=(), contract=(0,0)](A, y))", VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    {"another multiset (A^T y), real", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0,
     "add(x, dot_general[batch=(), contract=(0,0)](A, y))", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"the old value twice, fp", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0,
     "add(x, add(x, " MV "))", VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    {"the old value left out, fp", MATVEC_ACC("x[i] += A[i][j] * y[j]"), 0, MV, VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    /* real: sqrt's defining properties */
    {"sqrt(x) vs x", ELEMWISE("sqrt(x[i])"), 0, "x", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"sqrt(x) vs -x", ELEMWISE("sqrt(x[i])"), 0, "negate(x)", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"sqrt(x) vs sqrt(x)", ELEMWISE("sqrt(x[i])"), 0, "sqrt(x)", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    /* IEEE: the root of a negative number is NaN */
    {"sqrt(x)*sqrt(x) vs x", ELEMWISE("sqrt(x[i]) * sqrt(x[i])"), 0, "x", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    /* right in IEEE, but an infinity entering arithmetic has an
     * unspecified outcome in real mode: the model at x = inf does not show
     * concretely */
    {"sqrt(x*x) vs max(x, -x)", ELEMWISE("sqrt(x[i] * x[i])"), 0, "maximum(x, negate(x))",
     VERIFY_REAL, VERIFY_UNKNOWN, 0, NULL},
    {"sqrt(x*x) vs x", ELEMWISE("sqrt(x[i] * x[i])"), 0, "x", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    /* right in IEEE too, but the outcome keys S(4*x) and 2*S(x) differ
     * (keys.c: no arithmetic on constants): the model at x = inf does not
     * show concretely */
    {"sqrt(4*x) vs 2*sqrt(x)", ELEMWISE("sqrt(4 * x[i])"), 0, "multiply(sqrt(x), 2)",
     VERIFY_REAL, VERIFY_UNKNOWN, 0, NULL},
    {"sqrt(4*x) vs 3*sqrt(x)", ELEMWISE("sqrt(4 * x[i])"), 0, "multiply(sqrt(x), 3)",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"sqrt(x)+1 vs sqrt(x+1)", ELEMWISE("sqrt(x[i]) + 1"), 0, "sqrt(add(x, 1))", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    /* IEEE: 0/sqrt(0) is NaN */
    {"x/sqrt(x) vs sqrt(x)", ELEMWISE("x[i] / sqrt(x[i])"), 0, "sqrt(x)", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    /* fp: signs (negation is exact; rounding to nearest is symmetric) */
    {"(x-z)^2 vs (z-x)^2, fp", ELEMWISE2("(x[i] - z[i]) * (x[i] - z[i])"), 0,
     "multiply(subtract(z, x), subtract(z, x))", VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"(x-z)^2 vs (z-x)^2, real", ELEMWISE2("(x[i] - z[i]) * (x[i] - z[i])"), 0,
     "multiply(subtract(z, x), subtract(z, x))", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"(x-z)^2 vs (x-z)(z-x), fp", ELEMWISE2("(x[i] - z[i]) * (x[i] - z[i])"), 0,
     "multiply(subtract(x, z), subtract(z, x))", VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    {"(x-z)^2 vs x*x - 2xz + z*z, fp", ELEMWISE2("(x[i] - z[i]) * (x[i] - z[i])"), 0,
     "add(subtract(multiply(x, x), multiply(multiply(x, z), 2)), multiply(z, z))", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL}, /* real mode confirms it at x = inf: inf - inf */
    /* (x+z-x)*x is z*x over the reals, NaN at x = inf in IEEE (the keys
     * do not cancel, keys.c, so the two outcomes are not shared), and +0
     * against -0 at x = 5, z = -0 (x + z - x cancels to +0): refuted */
    {"(x+z-x)*x vs z*x", ELEMWISE2("(x[i] + z[i] - x[i]) * x[i]"), 0, "multiply(z, x)",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"(x+z-x)*x vs x*(z+x) - x*x", ELEMWISE2("(x[i] + z[i] - x[i]) * x[i]"), 0,
     "subtract(multiply(x, add(z, x)), multiply(x, x))", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"x-z vs z-x, fp", ELEMWISE2("x[i] - z[i]"), 0, "subtract(z, x)", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    {"x-z vs -(z-x), fp", ELEMWISE2("x[i] - z[i]"), 0, "negate(subtract(z, x))", VERIFY_FP,
     VERIFY_PROVED, 0, NULL},
    {"x-z vs (-z)+x, fp", ELEMWISE2("x[i] - z[i]"), 0, "add(negate(z), x)", VERIFY_FP,
     VERIFY_PROVED, 0, NULL},
    {"-x-z vs -(x+z), fp", ELEMWISE2("-x[i] - z[i]"), 0, "negate(add(z, x))", VERIFY_FP,
     VERIFY_PROVED, 0, NULL},
    {"x*z vs (-x)*(-z), fp", ELEMWISE2("x[i] * z[i]"), 0, "multiply(negate(x), negate(z))",
     VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x*z vs -((-x)*z), fp", ELEMWISE2("x[i] * z[i]"), 0, "negate(multiply(negate(x), z))",
     VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x*z vs (-x)*z, fp", ELEMWISE2("x[i] * z[i]"), 0, "multiply(negate(x), z)", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    {"x*z vs x*z + 0*x, fp", ELEMWISE2("x[i] * z[i]"), 0,
     "add(multiply(x, z), multiply(x, 0))", VERIFY_FP, VERIFY_REFUTED, 0, NULL},
    {"x += (A-y)^2 vs add(x, dot((y-A),(y-A))), fp", SQDEV, 0,
     "add(x, dot_general[batch=(0,0), contract=(1,1)](subtract(y, A), subtract(y, A)))",
     VERIFY_FP, VERIFY_PROVED, 0, NULL},
    {"x += (A-y)^2 vs add(x, dot((A-y),(y-A))), fp", SQDEV, 0,
     "add(x, dot_general[batch=(0,0), contract=(1,1)](subtract(A, y), subtract(y, A)))",
     VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    /* real, tosa: IEEE identities of a tensor program at zero */
    {"sqrt(x) vs 1/rsqrt(x)", FELEM("sqrtf(x[i])"), 0, "reciprocal(rsqrt(x))", VERIFY_REAL,
     VERIFY_PROVED, 0, "tosa"},
    {"sqrt(x) vs 1/(1/x)", FELEM("sqrtf(x[i])"), 0, "reciprocal(reciprocal(x))", VERIFY_REAL,
     VERIFY_REFUTED, 1, "tosa"},
    {"sqrt(x) vs rsqrt(x)", FELEM("sqrtf(x[i])"), 0, "rsqrt(x)", VERIFY_REAL, VERIFY_REFUTED, 1,
     "tosa"},
    {"x vs 1/(1/x)", FELEM("x[i]"), 0, "reciprocal(reciprocal(x))", VERIFY_REAL, VERIFY_PROVED,
     0, "tosa"},
    {"x vs x*(1/x)*x", FELEM("x[i]"), 0, "mul(mul(x, reciprocal(x)), x)", VERIFY_REAL,
     VERIFY_REFUTED, 1, "tosa"},
    /* equal over the reals for x != 0, but IEEE gives 0 (source) and NaN
     * (the candidate's 0*inf*0) at x = 0: their outcome keys differ
     * (keys.c), so the division by zero is no longer shared (it was proved
     * before, under the total division a/0 = 0) */
    {"1/(1/x) vs x*(1/x)*x", FELEM("1 / (1 / x[i])"), 0, "mul(mul(x, reciprocal(x)), x)",
     VERIFY_REAL, VERIFY_REFUTED, 1, "tosa"},
    {"x*(1/x)*x vs 1/(1/x)", FELEM("x[i] * (1 / x[i]) * x[i]"), 0,
     "reciprocal(reciprocal(x))", VERIFY_REAL, VERIFY_REFUTED, 1, "tosa"},
    {"sqrt(x) vs x*rsqrt(x)", FELEM("sqrtf(x[i])"), 0, "mul(x, rsqrt(x))", VERIFY_REAL,
     VERIFY_REFUTED, 1, "tosa"},
    {"x/sqrt(x) vs x*rsqrt(x)", FELEM("x[i] / sqrtf(x[i])"), 0, "mul(rsqrt(x), x)",
     VERIFY_REAL, VERIFY_PROVED, 0, "tosa"},
    /* IEEE: at fn = 0, fn*rsqrt(fn) is 0*inf = NaN where sqrt(fn) is 0
     * (x/0 = inf against NaN); 1/rsqrt(fn) is 0 there */
    {"x/(sqrt(fn)*y) vs x*1/(y*fn*rsqrt(fn))", FSCALE, 0,
     "mul(x, reciprocal(mul(y, " FN1 ")))", VERIFY_REAL, VERIFY_REFUTED, 1, "tosa"},
    {"x/(sqrt(fn)*y) vs x*1/(y*(1/rsqrt(fn)))", FSCALE, 0,
     "mul(x, reciprocal(mul(y, reshape(reciprocal(rsqrt(fn))):f32[1])))", VERIFY_REAL,
     VERIFY_PROVED, 0, "tosa"},
    {"x/(sqrt(fn)*y) vs x*1/(y*rsqrt(fn))", FSCALE, 0,
     "mul(x, reciprocal(mul(y, reshape(rsqrt(fn)):f32[1])))", VERIFY_REAL, VERIFY_REFUTED, 1,
     "tosa"},
    {"x/(sqrt(fn)*y) vs x*1/(y*fn)", FSCALE, 0,
     "mul(x, reciprocal(mul(y, reshape(fn):f32[1])))", VERIFY_REAL, VERIFY_REFUTED, 1, "tosa"},
    {"x/(sqrt(fn)*y) vs x*1/(x*fn*rsqrt(fn))", FSCALE, 0,
     "mul(x, reciprocal(mul(x, " FN1 ")))", VERIFY_REAL, VERIFY_REFUTED, 1, "tosa"},
    /* IEEE special values and casts (issue 12): NaN, infinities, C's
     * fmax/fmin against the NaN-propagating maximum/minimum, division by
     * zero in the source, the rounding of a cast to float */
    {"x == x vs 1", ELEMWISE("x[i] == x[i] ? 1.0 : 0.0"), 0, "1:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"x == x vs 1, fp", ELEMWISE("x[i] == x[i] ? 1.0 : 0.0"), 0, "1:f64[n]", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    {"x == x vs select(x == x)", ELEMWISE("x[i] == x[i] ? 1.0 : 0.0"), 0,
     "select(compare[dir=EQ](x, x), 1:f64[n], 0:f64[n])", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"isnan: x != x vs 0", ELEMWISE("x[i] != x[i] ? 1.0 : 0.0"), 0, "0:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"isnan: x != x vs select(x != x)", ELEMWISE("x[i] != x[i] ? 1.0 : 0.0"), 0,
     "select(compare[dir=NE](x, x), 1:f64[n], 0:f64[n])", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"isinf-like: x - x == 0 vs 1", ELEMWISE("x[i] - x[i] == 0 ? 1.0 : 0.0"), 0, "1:f64[n]",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"(double)(float)x vs x", ELEMWISE("(double)(float)x[i]"), 0, "x", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"(double)(float)x vs x, fp", ELEMWISE("(double)(float)x[i]"), 0, "x", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    {"(double)(float)x vs 0", ELEMWISE("(double)(float)x[i]"), 0, "0:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"fmax(x, 0) vs maximum(x, 0)", ELEMWISE("fmax(x[i], 0.0)"), 0, "maximum(x, 0:f64[n])",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"fmax(x, 0) vs maximum(x, 0), fp", ELEMWISE("fmax(x[i], 0.0)"), 0,
     "maximum(x, 0:f64[n])", VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    {"fmax(x, 0) vs select(x >= 0, x, 0)", ELEMWISE("fmax(x[i], 0.0)"), 0,
     "select(compare[dir=GE](x, 0:f64[n]), x, 0:f64[n])", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"fmin(x, 0) vs minimum(x, 0)", ELEMWISE("fmin(x[i], 0.0)"), 0, "minimum(x, 0:f64[n])",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"fmin(x, 0) vs select(x <= 0, x, 0)", ELEMWISE("fmin(x[i], 0.0)"), 0,
     "select(compare[dir=LE](x, 0:f64[n]), x, 0:f64[n])", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"relu x > 0 ? x : 0 vs select(x < 0, 0, x)", ELEMWISE("x[i] > 0 ? x[i] : 0"), 0,
     "select(compare[dir=LT](x, 0:f64[n]), 0:f64[n], x)", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"relu x > 0 ? x : 0 vs maximum(x, 0)", ELEMWISE("x[i] > 0 ? x[i] : 0"), 0,
     "maximum(x, 0:f64[n])", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"relu x > 0 ? x : 0 vs select(x > 0, x, 0)", ELEMWISE("x[i] > 0 ? x[i] : 0"), 0,
     "select(compare[dir=GT](x, 0:f64[n]), x, 0:f64[n])", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    /* signed zeros: at x = -0, x < 0 ? 0 : x is -0, maximum(-0, 0) is +0
     * (IEEE maximum orders -0 below +0) */
    {"relu x < 0 ? 0 : x vs maximum(x, 0)", ELEMWISE("x[i] < 0 ? 0 : x[i]"), 0,
     "maximum(x, 0:f64[n])", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"relu x < 0 ? 0 : x vs select(x < 0, 0, x)", ELEMWISE("x[i] < 0 ? 0 : x[i]"), 0,
     "select(compare[dir=LT](x, 0:f64[n]), 0:f64[n], x)", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    /* fmax(-0, 0) is -0 (the first operand, glibc), select(x > 0, x, 0) +0 */
    {"relu fmax vs select(x > 0, x, 0)", ELEMWISE("fmax(x[i], 0.0)"), 0,
     "select(compare[dir=GT](x, 0:f64[n]), x, 0:f64[n])", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"x + 0 vs x (-0 + 0 is +0)", ELEMWISE("x[i] + 0.0"), 0, "x", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"x + 0 vs add(x, 0)", ELEMWISE("x[i] + 0.0"), 0, "add(x, 0:f64[n])", VERIFY_REAL,
     VERIFY_PROVED, 0, NULL},
    {"x + 0 vs x, fp", ELEMWISE("x[i] + 0.0"), 0, "x", VERIFY_FP, VERIFY_REFUTED, 1, NULL},
    {"x - 0 vs x (exact)", ELEMWISE("x[i] - 0.0"), 0, "x", VERIFY_REAL, VERIFY_PROVED, 0,
     NULL},
    {"0 - x vs negate(x) (+0 against -0 at x = +0)", ELEMWISE("0.0 - x[i]"), 0, "negate(x)",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"0 - x vs subtract(0, x)", ELEMWISE("0.0 - x[i]"), 0, "subtract(0:f64[n], x)",
     VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"-x vs multiply(x, -1) (exact)", ELEMWISE("-x[i]"), 0, "multiply(x, -1:f64[n])",
     VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"x*z vs z*x, signs", ELEMWISE2("x[i] * z[i]"), 0, "multiply(z, x)", VERIFY_REAL,
     VERIFY_PROVED, 0, NULL},
    /* +0 against -0 at x = z: the sign of an exact cancellation, which the
     * relaxed tier leaves to the outcome key (equal here): proved with
     * the zero-sign assumption (test_verify checks the assumption) */
    {"x - z vs -(z - x) (+0 against -0 at x = z)", ELEMWISE2("x[i] - z[i]"), 0,
     "negate(subtract(z, x))", VERIFY_REAL, VERIFY_PROVED, 0, NULL},
    {"clamp fmin(fmax(x, 0), 1) vs minimum(maximum(x, 0), 1)",
     ELEMWISE("fmin(fmax(x[i], 0.0), 1.0)"), 0, "minimum(maximum(x, 0:f64[n]), 1:f64[n])",
     VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"clamp x < 0 ? 0 : (x > 1 ? 1 : x) vs minimum(maximum(x, 0), 1)",
     ELEMWISE("x[i] < 0 ? 0 : (x[i] > 1 ? 1 : x[i])"), 0,
     "minimum(maximum(x, 0:f64[n]), 1:f64[n])", VERIFY_REAL, VERIFY_REFUTED, 1, NULL},
    {"1/x vs divide(1, x)", ELEMWISE("1.0 / x[i]"), 0, "divide(1:f64[n], x)", VERIFY_REAL,
     VERIFY_PROVED, 0, NULL},
    {"1/x vs divide(1, x), fp", ELEMWISE("1.0 / x[i]"), 0, "divide(1:f64[n], x)", VERIFY_FP,
     VERIFY_PROVED, 0, NULL},
    {"x/x vs 1 (0/0 is NaN)", ELEMWISE("x[i] / x[i]"), 0, "1:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"x/z vs x/z guarded at z == 0", ELEMWISE2("x[i] / z[i]"), 0,
     "select(compare[dir=EQ](z, 0:f64[n]), 0:f64[n], divide(x, z))", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"x/z vs x/z guarded at z == 0, fp", ELEMWISE2("x[i] / z[i]"), 0,
     "select(compare[dir=EQ](z, 0:f64[n]), 0:f64[n], divide(x, z))", VERIFY_FP,
     VERIFY_REFUTED, 1, NULL},
    {"x - x vs 0 (inf - inf is NaN)", ELEMWISE("x[i] - x[i]"), 0, "0:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    {"x * 0 vs 0 (0 * inf is NaN)", ELEMWISE("x[i] * 0.0"), 0, "0:f64[n]", VERIFY_REAL,
     VERIFY_REFUTED, 1, NULL},
    /* the sign of a zero result is not compared: -0 and 0 - 0 agree */
    {"-x vs 0 - x", ELEMWISE("-x[i]"), 0, "subtract(0:f64[n], x)", VERIFY_REAL,
     VERIFY_PROVED, 0, NULL},
    {"abs(x) vs maximum(x, -x)", ELEMWISE("fabs(x[i])"), 0, "maximum(x, negate(x))",
     VERIFY_REAL, VERIFY_UNKNOWN, 0, NULL},
};

static char dir[64];

/* Parse, analyse and check one case; prints its verdict. */
static void run_case(const vcase *c, int idx) {
  char path[128];
  snprintf(path, sizeof path, "%s/k%d.c", dir, idx);
  FILE *f = fopen(path, "w");
  CHECKF(f != NULL, "%s: write %s", c->what, path);
  if (!f) return;
  fputs(c->src, f);
  fclose(f);

  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  ir_kernel *k = fe_parse_file(path, &fe, &arena);
  gram_dialect *d = gram_load(c->dialect ? c->dialect : "hlo", &arena);
  poly_analysis *a = k ? poly_analyze(k, &arena) : NULL;
  CHECKF(k && d && a && !a->error && c->task < a->ntasks, "%s: the kernel parses and analyses",
         c->what);
  if (!k || !d || !a || a->error || c->task >= a->ntasks) goto done;

  pipe_task_setup ts;
  CHECKF(!pipe_task_setup_make(a, c->task, &store, &arena, &ts), "%s: task setup", c->what);
  const poly_task *pt = &a->tasks[c->task];
  int out_var = pt->outputs[0].var;
  ir_tp_syntax syn;
  gram_term_syntax(d, &syn);
  ir_error err = {0};
  const ir_tnode *prog = ir_tp_parse(&store, c->prog, a->kernel, ts.in_args, ts.nin, &syn, &err);
  CHECKF(prog != NULL, "%s: the program parses: %s", c->what, err.msg);
  if (!prog) goto done;

  verify_options vo;
  verify_options_default(&vo); /* bound 3, the default time-out */
  vo.mode = c->mode;
  pipe_verify_state vs;
  memset(&vs, 0, sizeof vs);
  vs.v = verify_new(&vo);
  enum_query q = {a->kernel, a, c->task, ts.mask, ts.nin, ts.in_vars, ts.in_args,
                  out_var, prog, d, 0};
  enum_verify_result r;
  pipe_verify_cb(&vs, &q, &r);
  const verify_result *vr = vs.last;
  /* a task that compares, refuted only on a NaN or -0 input, is proved
   * for inputs without them (pipe_verify_cb): the refutation is kept in
   * vs.shown, and the verdict is not called proved */
  if (c->want == VERIFY_REFUTED && vr->verdict == VERIFY_PROVED &&
      (vr->assumes & VERIFY_ASSUMES_ORDINARY) && vs.shown) {
    printf("  %-40s %-4s %s\n", c->what, verify_mode_name(c->mode),
           verify_verdict_word(vr->verdict, vr->assumes, 0));
    CHECKF(strcmp(verify_verdict_word(vr->verdict, vr->assumes, 1), "proved"),
           "%s: not called proved", c->what);
    vr = vs.shown;
  }
  printf("  %-40s %-4s %s (%.2f s)%s%s\n", c->what, verify_mode_name(c->mode),
         verify_verdict_name(vr->verdict), vr->seconds, vr->reason[0] ? ": " : "", vr->reason);
  CHECKF(vr->verdict == c->want, "%s (%s): %s, expected %s: %s", c->what,
         verify_mode_name(c->mode), verify_verdict_name(vr->verdict),
         verify_verdict_name(c->want), vr->reason);
  /* a refutation of a wrong value carries a counterexample the concrete
   * runs confirm (in fp mode too: real mode supplies it); one about
   * rounding or order only cannot */
  if (vr->verdict == VERIFY_REFUTED)
    CHECKF((vr->cex && vr->cex->confirmed) == c->confirmed,
           "%s: the counterexample is %sconfirmed concretely", c->what,
           c->confirmed ? "" : "not ");
  pipe_verify_state_free(&vs);
  verify_free(vs.v);
done:
  unlink(path);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
}

/* ------------------------------------------------------- saved reports */

#define GEMM_T0 "\"task\": 0, \"outputs\": [\"C\"], \"program\": "
#define GEMM_T1 "\"task\": 1, \"outputs\": [\"C\"], \"program\": "
#define GEMM_P1 "\"add(C, multiply(dot_general[batch=(), contract=(1,0)](A, B), alpha))\""
#define GEMM_REPORT(tasks) \
  "{\"kernel\": \"kernel_gemm\", \"dialect\": \"hlo\", \"tasks\": [" tasks "]}"

typedef struct rcase {
  const char *what, *json;
  pipe_error pe;      /* what pipe_report_load returns */
  ir_err_code code;   /* with pe != PIPE_OK */
  const char *msg;    /* in err.msg and r.why */
  int proved, covered; /* with PIPE_OK: entries proved, task outputs covered */
} rcase;

static const rcase rcases[] = {
    {"a whole report", GEMM_REPORT("{" GEMM_T0 "\"multiply(C, beta)\"}, {" GEMM_T1 GEMM_P1 "}"),
     PIPE_OK, IR_ERR_NONE, NULL, 2, 2},
    {"a task left out", GEMM_REPORT("{" GEMM_T1 GEMM_P1 "}"), PIPE_OK, IR_ERR_NONE, NULL, 1, 1},
    {"a task without its program", GEMM_REPORT("{" GEMM_T0 "null}, {" GEMM_T1 GEMM_P1 "}"),
     PIPE_OK, IR_ERR_NONE, NULL, 1, 2},
    {"a wrong program", GEMM_REPORT("{" GEMM_T0 "\"multiply(C, C)\"}"), PIPE_OK,
     IR_ERR_NONE, NULL, 0, 1},
    {"not JSON", "{\"kernel\":", PIPE_ERR_REPORT, IR_ERR_INPUT, "not a JSON report", 0, 0},
    {"another kernel", "{\"kernel\": \"kernel_2mm\", \"dialect\": \"hlo\", \"tasks\": []}",
     PIPE_ERR_REPORT, IR_ERR_INPUT, "a report for kernel_2mm", 0, 0},
    {"no tasks", "{\"kernel\": \"kernel_gemm\", \"dialect\": \"hlo\"}", PIPE_ERR_REPORT,
     IR_ERR_INPUT, "no \"tasks\" array", 0, 0},
    {"a task the analysis lacks",
     GEMM_REPORT("{\"task\": 7, \"outputs\": [\"C\"], \"program\": null}"), PIPE_ERR_REPORT,
     IR_ERR_RANGE, "task 7 does not exist", 0, 0},
    {"an output the task does not write",
     GEMM_REPORT("{\"task\": 0, \"outputs\": [\"A\"], \"program\": null}"), PIPE_ERR_REPORT,
     IR_ERR_INPUT, "does not write 'A'", 0, 0},
    {"an unknown op", GEMM_REPORT("{" GEMM_T0 "\"no_such_op(C)\"}"), PIPE_ERR_PROGRAM,
     IR_ERR_INPUT, "unknown op 'no_such_op'", 0, 0},
};

static void run_report_case(const rcase *c, int idx, verify_ctx *v) {
  char path[128];
  snprintf(path, sizeof path, "%s/r%d.json", dir, idx);
  FILE *f = fopen(path, "w");
  if (!f) {
    CHECKF(0, "%s: cannot write %s", c->what, path);
    return;
  }
  fputs(c->json, f);
  fclose(f);
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  pipe_report r;
  ir_error err;
  pipe_error pe = pipe_report_load("benchmarks/kernels/gemm.c", path, &fe, &arena, &store, &r,
                                   &err);
  if (c->pe != PIPE_OK) {
    CHECKF(pe == c->pe && err.code == c->code && strstr(err.msg, c->msg) && r.why &&
               !strcmp(r.why, err.msg),
           "report, %s: refused (%d, code %d: %s)", c->what, pe, err.code, err.msg);
  } else if (pe != PIPE_OK) {
    CHECKF(0, "report, %s: loads (%d: %s)", c->what, pe, err.msg);
  } else {
    pipe_verify_state vs;
    memset(&vs, 0, sizeof vs);
    vs.v = v;
    int proved = 0, covered = 0;
    for (int i = 0; i < r.nents; i++) proved += pipe_report_check(&r, i, &vs);
    for (int t = 0; t < r.a->ntasks; t++)
      for (int o = 0; o < r.a->tasks[t].noutputs; o++)
        covered += pipe_report_covers(&r, t, r.a->tasks[t].outputs[o].var);
    CHECKF(proved == c->proved && covered == c->covered,
           "report, %s: %d proved (want %d), %d outputs covered (want %d)", c->what, proved,
           c->proved, covered, c->covered);
    pipe_verify_state_free(&vs);
  }
  pipe_report_free(&r);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  unlink(path);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%.40s/uplift-vfp-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  CHECK("temporary directory", mkdtemp(dir) != NULL);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i], (int)i);
  verify_options vo;
  verify_options_default(&vo);
  verify_ctx *v = verify_new(&vo);
  CHECK("Z3 set up for the reports", v != NULL);
  for (size_t i = 0; v && i < sizeof rcases / sizeof rcases[0]; i++)
    run_report_case(&rcases[i], (int)i, v);
  if (v) verify_free(v);
  rmdir(dir);
  CHECK("no leaked blocks", ir_mem_live() == 0);
  return TEST_REPORT();
}
