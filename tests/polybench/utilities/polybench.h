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
 *   POLYBENCH_USE_RESTRICT    array parameters are `restrict`
 *   DATA_TYPE_IS_FLOAT / _DOUBLE  the element type (default double)
 *
 * with POLYBENCH_3D/4D, and allocation, dumps and timing from uplift's
 * frontend/include/polybench_support.h, so that whole Polybench-style
 * programs (benchmarks/kernels/) build with it for `--check` and
 * `run --native`.
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

#ifdef POLYBENCH_USE_RESTRICT
#define POLYBENCH_RESTRICT restrict
#else
#define POLYBENCH_RESTRICT
#endif

#define POLYBENCH_1D(v, d1, p1) v[POLYBENCH_RESTRICT POLYBENCH_EXTENT(d1, p1)]
#define POLYBENCH_2D(v, d1, d2, p1, p2) \
  v[POLYBENCH_RESTRICT POLYBENCH_EXTENT(d1, p1)][POLYBENCH_EXTENT(d2, p2)]
#define POLYBENCH_3D(v, d1, d2, d3, p1, p2, p3)                                      \
  v[POLYBENCH_RESTRICT POLYBENCH_EXTENT(d1, p1)][POLYBENCH_EXTENT(d2, p2)]           \
   [POLYBENCH_EXTENT(d3, p3)]
#define POLYBENCH_4D(v, d1, d2, d3, d4, p1, p2, p3, p4)                              \
  v[POLYBENCH_RESTRICT POLYBENCH_EXTENT(d1, p1)][POLYBENCH_EXTENT(d2, p2)]           \
   [POLYBENCH_EXTENT(d3, p3)][POLYBENCH_EXTENT(d4, p4)]

/* Arrays in main, dumps and instruments: the mode-independent part that
 * uplift's own header has too (polybench_support.h), given the extents
 * above: an array in main is allocated at the constant, or with C99
 * prototypes at the parameter, plus the padding. */
#ifdef POLYBENCH_USE_C99_PROTO
#define POLYBENCH_C99_SELECT(x, y) y
#else
#define POLYBENCH_C99_SELECT(x, y) x
#endif
#define POLYBENCH_DIM_(dim, ddim) POLYBENCH_EXTENT(dim, ddim)
#include "../../../frontend/include/polybench_support.h"

#ifdef DATA_TYPE_IS_FLOAT
#define DATA_TYPE float
#define DATA_PRINTF_MODIFIER "%0.2f "
#define SCALAR_VAL(x) x##f
#define SQRT_FUN(x) sqrtf(x)
#define EXP_FUN(x) expf(x)
#define POW_FUN(x, y) powf(x, y)
#else
#define DATA_TYPE double
#define DATA_PRINTF_MODIFIER "%0.2lf "
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#define EXP_FUN(x) exp(x)
#define POW_FUN(x, y) pow(x, y)
#endif

#endif
