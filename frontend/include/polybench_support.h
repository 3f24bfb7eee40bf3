/*
 * polybench_support.h - the parts of a Polybench/C 4.2.1 common header that
 * do not depend on its modes: allocation (POLYBENCH_ALLOC_nD_ARRAY,
 * POLYBENCH_nD_ARRAY_DECL, POLYBENCH_ARRAY, POLYBENCH_FREE_ARRAY), the
 * dead-code guard and array dumps (polybench_prevent_dce,
 * POLYBENCH_DUMP_*) and the instruments (timing).  Shared by uplift's own
 * polybench.h and the tests' stand-in for the upstream header
 * (tests/polybench/utilities/polybench.h), which differ in their array
 * declarators.  The includer defines, before including it:
 *   POLYBENCH_PADDING_FACTOR        extra elements per dimension
 *   POLYBENCH_DIM_(dim, ddim)       one dimension of an array declared in
 *                                   main: the constant or the parameter
 *   POLYBENCH_C99_SELECT(x, y)      x (the constant) or y (the parameter),
 *                                   the extent an array is allocated with
 * Written for uplift from the documented interface of Polybench 4.2.1.
 */
#ifndef UPLIFT_POLYBENCH_SUPPORT_H
#define UPLIFT_POLYBENCH_SUPPORT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- allocation ------------------------------------------------------ */

/* Allocate n elements of elt_size bytes each, zero-filled; exits with a
 * message when memory runs out.  Free with polybench_free_data (or free). */
static inline void *polybench_alloc_data(unsigned long long n, int elt_size)
{
  size_t bytes = (size_t)n * (size_t)elt_size;
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p) {
    fprintf(stderr, "polybench: cannot allocate %llu bytes\n",
            (unsigned long long)bytes);
    exit(1);
  }
  return p;
}

static inline void polybench_free_data(void *p) { free(p); }

/* A pointer to a freshly allocated array of the given shape. */
#define POLYBENCH_ALLOC_1D_ARRAY(n1, type)                               \
  (type(*)[n1 + POLYBENCH_PADDING_FACTOR])polybench_alloc_data(          \
      (n1 + POLYBENCH_PADDING_FACTOR), sizeof(type))
#define POLYBENCH_ALLOC_2D_ARRAY(n1, n2, type)                           \
  (type(*)[n1 + POLYBENCH_PADDING_FACTOR][n2 + POLYBENCH_PADDING_FACTOR]) \
      polybench_alloc_data((unsigned long long)(n1 + POLYBENCH_PADDING_FACTOR) * \
                           (n2 + POLYBENCH_PADDING_FACTOR), sizeof(type))
#define POLYBENCH_ALLOC_3D_ARRAY(n1, n2, n3, type)                       \
  (type(*)[n1 + POLYBENCH_PADDING_FACTOR][n2 + POLYBENCH_PADDING_FACTOR] \
          [n3 + POLYBENCH_PADDING_FACTOR])                               \
      polybench_alloc_data((unsigned long long)(n1 + POLYBENCH_PADDING_FACTOR) * \
                           (n2 + POLYBENCH_PADDING_FACTOR) *             \
                           (n3 + POLYBENCH_PADDING_FACTOR), sizeof(type))
#define POLYBENCH_ALLOC_4D_ARRAY(n1, n2, n3, n4, type)                   \
  (type(*)[n1 + POLYBENCH_PADDING_FACTOR][n2 + POLYBENCH_PADDING_FACTOR] \
          [n3 + POLYBENCH_PADDING_FACTOR][n4 + POLYBENCH_PADDING_FACTOR]) \
      polybench_alloc_data((unsigned long long)(n1 + POLYBENCH_PADDING_FACTOR) * \
                           (n2 + POLYBENCH_PADDING_FACTOR) *             \
                           (n3 + POLYBENCH_PADDING_FACTOR) *             \
                           (n4 + POLYBENCH_PADDING_FACTOR), sizeof(type))

/* The same declarators without `restrict`, for arrays declared in main. */
#define POLYBENCH_1D_F_(var, dim1, ddim1) var[POLYBENCH_DIM_(dim1, ddim1)]
#define POLYBENCH_2D_F_(var, dim1, dim2, ddim1, ddim2) \
  var[POLYBENCH_DIM_(dim1, ddim1)][POLYBENCH_DIM_(dim2, ddim2)]
#define POLYBENCH_3D_F_(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
  var[POLYBENCH_DIM_(dim1, ddim1)][POLYBENCH_DIM_(dim2, ddim2)]     \
     [POLYBENCH_DIM_(dim3, ddim3)]
#define POLYBENCH_4D_F_(var, dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4) \
  var[POLYBENCH_DIM_(dim1, ddim1)][POLYBENCH_DIM_(dim2, ddim2)]                  \
     [POLYBENCH_DIM_(dim3, ddim3)][POLYBENCH_DIM_(dim4, ddim4)]

/* Arrays in main: POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
 * then POLYBENCH_ARRAY(A) is what to pass to a POLYBENCH_2D parameter and
 * POLYBENCH_FREE_ARRAY(A) releases it. */
#ifndef POLYBENCH_STACK_ARRAYS
# define POLYBENCH_ARRAY(x) *x
# define POLYBENCH_FREE_ARRAY(x) free((void *)x);
# define POLYBENCH_DECL_VAR(x) (*x)
# define POLYBENCH_1D_ARRAY_DECL(var, type, dim1, ddim1)                  \
  type POLYBENCH_1D_F_(POLYBENCH_DECL_VAR(var), dim1, ddim1);               \
  var = POLYBENCH_ALLOC_1D_ARRAY(POLYBENCH_C99_SELECT(dim1, ddim1), type);
# define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2)     \
  type POLYBENCH_2D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, ddim1, ddim2);  \
  var = POLYBENCH_ALLOC_2D_ARRAY(POLYBENCH_C99_SELECT(dim1, ddim1),      \
                                 POLYBENCH_C99_SELECT(dim2, ddim2), type);
# define POLYBENCH_3D_ARRAY_DECL(var, type, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
  type POLYBENCH_3D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, dim3, ddim1, ddim2, ddim3); \
  var = POLYBENCH_ALLOC_3D_ARRAY(POLYBENCH_C99_SELECT(dim1, ddim1),      \
                                 POLYBENCH_C99_SELECT(dim2, ddim2),      \
                                 POLYBENCH_C99_SELECT(dim3, ddim3), type);
# define POLYBENCH_4D_ARRAY_DECL(var, type, dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4) \
  type POLYBENCH_4D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4); \
  var = POLYBENCH_ALLOC_4D_ARRAY(POLYBENCH_C99_SELECT(dim1, ddim1),      \
                                 POLYBENCH_C99_SELECT(dim2, ddim2),      \
                                 POLYBENCH_C99_SELECT(dim3, ddim3),      \
                                 POLYBENCH_C99_SELECT(dim4, ddim4), type);
#else
# define POLYBENCH_ARRAY(x) x
# define POLYBENCH_FREE_ARRAY(x)
# define POLYBENCH_DECL_VAR(x) x
# define POLYBENCH_1D_ARRAY_DECL(var, type, dim1, ddim1) \
  type POLYBENCH_1D_F_(POLYBENCH_DECL_VAR(var), dim1, ddim1);
# define POLYBENCH_2D_ARRAY_DECL(var, type, dim1, dim2, ddim1, ddim2) \
  type POLYBENCH_2D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, ddim1, ddim2);
# define POLYBENCH_3D_ARRAY_DECL(var, type, dim1, dim2, dim3, ddim1, ddim2, ddim3) \
  type POLYBENCH_3D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, dim3, ddim1, ddim2, ddim3);
# define POLYBENCH_4D_ARRAY_DECL(var, type, dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4) \
  type POLYBENCH_4D_F_(POLYBENCH_DECL_VAR(var), dim1, dim2, dim3, dim4, ddim1, ddim2, ddim3, ddim4);
#endif

/* ---- dead-code elimination guard and array dumps ---------------------- */
#ifdef POLYBENCH_DUMP_ARRAYS
# define POLYBENCH_DCE_ONLY_CODE
#else
# define POLYBENCH_DCE_ONLY_CODE if (argc > 42 && !strcmp(argv[0], ""))
#endif
/* Used in main (needs argc and argv): polybench_prevent_dce(print_array(..)); */
#define polybench_prevent_dce(func) \
  POLYBENCH_DCE_ONLY_CODE           \
  func

#define POLYBENCH_DUMP_TARGET stderr
#define POLYBENCH_DUMP_START \
  fprintf(POLYBENCH_DUMP_TARGET, "==BEGIN DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_FINISH \
  fprintf(POLYBENCH_DUMP_TARGET, "==END   DUMP_ARRAYS==\n")
#define POLYBENCH_DUMP_BEGIN(s) \
  fprintf(POLYBENCH_DUMP_TARGET, "begin dump: %s", s)
#define POLYBENCH_DUMP_END(s) \
  fprintf(POLYBENCH_DUMP_TARGET, "\nend   dump: %s\n", s)

/* ---- instruments (timing) -------------------------------------------- */

/* Seconds on a monotonic clock where available, else processor time. */
static inline double polybench_now_(void)
{
#if defined(CLOCK_MONOTONIC)
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
  return (double)clock() / CLOCKS_PER_SEC;
#endif
}

/* The timer's state: [0] start, [1] stop. */
static inline double *polybench_timer_state_(void)
{
  static double t[2];
  return t;
}

static inline void polybench_timer_start(void)
{
  polybench_timer_state_()[0] = polybench_now_();
}

static inline void polybench_timer_stop(void)
{
  polybench_timer_state_()[1] = polybench_now_();
}

/* Prints the elapsed seconds between start and stop on stdout. */
static inline void polybench_timer_print(void)
{
  double *t = polybench_timer_state_();
  printf("%0.6f\n", t[1] - t[0]);
}

#ifdef POLYBENCH_TIME
# define polybench_start_instruments polybench_timer_start();
# define polybench_stop_instruments polybench_timer_stop();
# define polybench_print_instruments polybench_timer_print();
#else
# define polybench_start_instruments
# define polybench_stop_instruments
# define polybench_print_instruments
#endif

#endif /* UPLIFT_POLYBENCH_SUPPORT_H */
