/*
 * polybench.h - uplift's own stand-in for the Polybench/C 4.2.1 common
 * header, so that unmodified Polybench linear-algebra and data-mining kernel
 * files compile, link and run without polybench.c, and so that uplift's
 * front end (which preprocesses kernels with `cc -E`) sees plain C.
 *
 * Everything is a macro or a `static inline` function: no global state, no
 * separate object file.  Written for uplift from the documented interface of
 * Polybench 4.2.1 (macro names, argument orders and the dump format), not
 * from its sources.
 *
 * Configuration macros understood (all optional, set with -D):
 *   DATA_TYPE_IS_DOUBLE | DATA_TYPE_IS_FLOAT | DATA_TYPE_IS_INT
 *                           element type (default double; a kernel file
 *                           may define one before including this header to
 *                           change its own default); selects DATA_TYPE,
 *                           DATA_PRINTF_MODIFIER, SCALAR_VAL, SQRT_FUN,
 *                           EXP_FUN, POW_FUN (spelled token for token as a
 *                           kernel's own header spells them, so redefining
 *                           them there is harmless)
 *   POLYBENCH_USE_C99_PROTO  POLYBENCH_2D(A,NI,NK,ni,nk) declares A[ni][nk]
 *                           (variable-length array parameters); otherwise
 *                           A[NI + POLYBENCH_PADDING_FACTOR][NK + ...]
 *   POLYBENCH_USE_SCALAR_LB  accepted; loop bounds _PB_N are the size
 *                           parameter `n` either way (see below)
 *   POLYBENCH_PADDING_FACTOR extra elements per array dimension (default 0)
 *   POLYBENCH_STACK_ARRAYS   arrays in main are automatic, not heap
 *   POLYBENCH_USE_RESTRICT   array parameters are declared `restrict`
 *   POLYBENCH_TIME           polybench_*_instruments time the kernel and
 *                           print the seconds on stdout
 *   POLYBENCH_DUMP_ARRAYS    polybench_prevent_dce(print_array(...)) always
 *                           runs (otherwise only when argc > 42 and argv[0]
 *                           is empty, i.e. never, but the compiler can't
 *                           tell, so the kernel is not dead code)
 *
 * Loop bounds: a kernel defines `#define _PB_N POLYBENCH_LOOP_BOUND(N,n)`.
 * For uplift the bound must be the size parameter `n` so that raised programs
 * are symbolic in the sizes; this header always selects the parameter.
 * (Upstream Polybench selects the constant N under POLYBENCH_USE_SCALAR_LB;
 * a kernel compiled either way computes the same thing, since main passes
 * n == N.)
 */
#ifndef UPLIFT_POLYBENCH_H
#define UPLIFT_POLYBENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Kernels mark their loops with #pragma scop / #pragma endscop, which
 * compilers do not know: do not warn about them. */
#if defined(__GNUC__)
# pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

/* ---- element type ---------------------------------------------------- */
/* Default double.  The default deliberately does not define
 * DATA_TYPE_IS_DOUBLE: an upstream kernel header included after this one
 * (floyd-warshall.h, nussinov.h) may still pick its own default (int); it
 * then redefines DATA_TYPE, and the compiler warns but uses int. */
#if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && \
    !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE double
# define DATA_PRINTF_MODIFIER "%0.2lf "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x,y) pow(x,y)
#endif
#ifdef DATA_TYPE_IS_INT
# define DATA_TYPE int
# define DATA_PRINTF_MODIFIER "%d "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x,y) pow(x,y)
#endif
#ifdef DATA_TYPE_IS_FLOAT
# define DATA_TYPE float
# define DATA_PRINTF_MODIFIER "%0.2f "
# define SCALAR_VAL(x) x##f
# define SQRT_FUN(x) sqrtf(x)
# define EXP_FUN(x) expf(x)
# define POW_FUN(x,y) powf(x,y)
#endif
#ifdef DATA_TYPE_IS_DOUBLE
# define DATA_TYPE double
# define DATA_PRINTF_MODIFIER "%0.2lf "
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x,y) pow(x,y)
#endif

/* ---- array shapes ---------------------------------------------------- */
#ifndef POLYBENCH_PADDING_FACTOR
# define POLYBENCH_PADDING_FACTOR 0
#endif

#ifdef POLYBENCH_USE_RESTRICT
# define POLYBENCH_RESTRICT restrict
#else
# define POLYBENCH_RESTRICT
#endif

/* POLYBENCH_LOOP_BOUND(CONSTANT, parameter): always the parameter (see the
 * comment at the top). */
#define POLYBENCH_LOOP_BOUND(x,y) y

/* One dimension of an array parameter: `ddim` (a size parameter) with C99
 * prototypes, else the constant `dim` plus padding.  UPLIFT_DECLARED_EXTENTS
 * gives the constant `dim` (no padding): uplift parses the kernel once more
 * with it to read the dataset's extents (static MLIR shapes). */
#if defined(UPLIFT_DECLARED_EXTENTS)
# define POLYBENCH_C99_SELECT(x,y) y
# define POLYBENCH_DIM_(dim, ddim) dim
#elif defined(POLYBENCH_USE_C99_PROTO)
# define POLYBENCH_C99_SELECT(x,y) y
# define POLYBENCH_DIM_(dim, ddim) ddim
#else
# define POLYBENCH_C99_SELECT(x,y) x
# define POLYBENCH_DIM_(dim, ddim) dim + POLYBENCH_PADDING_FACTOR
#endif

/* Array parameter declarators: DATA_TYPE POLYBENCH_2D(A,NI,NK,ni,nk). */
#define POLYBENCH_1D(var, dim1, ddim1) \
  var[POLYBENCH_RESTRICT POLYBENCH_DIM_(dim1, ddim1)]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) \
  var[POLYBENCH_RESTRICT POLYBENCH_DIM_(dim1, ddim1)][POLYBENCH_DIM_(dim2, ddim2)]
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
  var[POLYBENCH_RESTRICT POLYBENCH_DIM_(dim1, ddim1)]            \
     [POLYBENCH_DIM_(dim2, ddim2)][POLYBENCH_DIM_(dim3, ddim3)]
#define POLYBENCH_4D(var, dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4) \
  var[POLYBENCH_RESTRICT POLYBENCH_DIM_(dim1, ddim1)]                         \
     [POLYBENCH_DIM_(dim2, ddim2)][POLYBENCH_DIM_(dim3, ddim3)]               \
     [POLYBENCH_DIM_(dim4, ddim4)]

/* ---- allocation, dumps, instruments: the mode-independent part -------- */
#include "polybench_support.h"

#endif /* UPLIFT_POLYBENCH_H */
