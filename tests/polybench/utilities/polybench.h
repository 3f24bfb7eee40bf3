/*
 * polybench.h - a test stand-in for the upstream Polybench/C 4.2.1 common
 * header, written for uplift's tests from the header's documented
 * behaviour (not from its code), to check that the front end follows the
 * upstream macros in each of their modes when a user passes
 * `-I utilities` (tests/e2e_realc.sh):
 *
 *   POLYBENCH_USE_SCALAR_LB   POLYBENCH_LOOP_BOUND(N, n) is the constant N
 *                             (scalar loop bounds); otherwise the parameter n
 *   POLYBENCH_USE_C99_PROTO   array parameters POLYBENCH_2D(A,NI,NJ,ni,nj)
 *                             take the parameters ni, nj as extents;
 *                             otherwise the constants NI, NJ
 *   POLYBENCH_PADDING_FACTOR  added to every array extent (default 0)
 *   DATA_TYPE_IS_FLOAT / _DOUBLE  the element type (default double)
 *
 * Only what kernel files use is here (no allocation or timing: the test
 * kernels have no main).
 */
#ifndef UPLIFT_TEST_POLYBENCH_H
#define UPLIFT_TEST_POLYBENCH_H

#include <math.h>

#ifndef POLYBENCH_PADDING_FACTOR
#define POLYBENCH_PADDING_FACTOR 0
#endif

#ifdef POLYBENCH_USE_SCALAR_LB
#define POLYBENCH_LOOP_BOUND(constant, parameter) constant
#else
#define POLYBENCH_LOOP_BOUND(constant, parameter) parameter
#endif

#ifdef POLYBENCH_USE_C99_PROTO
#define POLYBENCH_EXTENT(constant, parameter) (parameter) + POLYBENCH_PADDING_FACTOR
#else
#define POLYBENCH_EXTENT(constant, parameter) (constant) + POLYBENCH_PADDING_FACTOR
#endif

#define POLYBENCH_1D(v, d1, p1) v[POLYBENCH_EXTENT(d1, p1)]
#define POLYBENCH_2D(v, d1, d2, p1, p2) \
  v[POLYBENCH_EXTENT(d1, p1)][POLYBENCH_EXTENT(d2, p2)]

#ifdef DATA_TYPE_IS_FLOAT
#define DATA_TYPE float
#define SCALAR_VAL(x) x##f
#define SQRT_FUN(x) sqrtf(x)
#else
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#endif

#endif
