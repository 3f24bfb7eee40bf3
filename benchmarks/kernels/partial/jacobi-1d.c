/*
 * jacobi-1d.c - a 3-point Jacobi stencil in one dimension: each of TSTEPS
 * time steps averages every interior point of A with its two neighbours
 * into B, then B's back into A (A, B: N).  Polybench/C 4.2.1 style, written
 * from the math.  The time loop carries the dependence (A of step t is read
 * at step t + 1); inside it both sweeps are elementwise.  Kernel:
 * kernel_jacobi_1d.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include <polybench.h>

/* ---- header section: datasets and loop bounds ---- */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && \
    !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(TSTEPS) && !defined(N)
# ifdef MINI_DATASET
#  define TSTEPS 20
#  define N 30
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 40
#  define N 120
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 100
#  define N 400
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 500
#  define N 2000
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 1000
#  define N 4000
# endif
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int tsteps, int n,
                       DATA_TYPE POLYBENCH_1D(A, N, n),
                       DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  for (i = 0; i < n; i++)
    A[i] = ((DATA_TYPE) i + 2) / n;
  for (i = 0; i < n; i++)
    B[i] = ((DATA_TYPE) i + 3) / n;
}

static void print_array(int tsteps, int n,
                        DATA_TYPE POLYBENCH_1D(A, N, n),
                        DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    {
      if (c++ % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i]);
    }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < n; i++)
    {
      if (c++ % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i]);
    }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_jacobi_1d(int tsteps,
                             int n,
                             DATA_TYPE POLYBENCH_1D(A, N, n),
                             DATA_TYPE POLYBENCH_1D(B, N, n))
{
  int t, i;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      B[i] = SCALAR_VAL(0.33333) * (A[i - 1] + A[i] + A[i + 1]);
    for (i = 1; i < _PB_N - 1; i++)
      A[i] = SCALAR_VAL(0.33333) * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tsteps = TSTEPS;
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(A, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(B, DATA_TYPE, N, n);

  (void)argc; (void)argv;
  init_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_jacobi_1d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
