/*
 * jacobi-2d.c - a 5-point Jacobi stencil in two dimensions: each time step
 * sets every interior point of B to the mean of the point of A and its four
 * neighbours, then A from B the same way (A, B: N x N).  Polybench/C 4.2.1
 * style, written from the math.  The time loop carries the dependence.
 * Kernel: kernel_jacobi_2d.
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
#  define N 90
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 100
#  define N 250
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 500
#  define N 1300
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 1000
#  define N 2800
# endif
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int tsteps, int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = ((DATA_TYPE) i * (j + 2) + 2) / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][j] = ((DATA_TYPE) i * (j + 3) + 3) / n;
}

static void print_array(int tsteps, int n,
                        DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
      }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j]);
      }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_jacobi_2d(int tsteps,
                             int n,
                             DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                             DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j - 1] + A[i][j + 1]
                                     + A[i - 1][j] + A[i + 1][j]);
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j - 1] + B[i][j + 1]
                                     + B[i - 1][j] + B[i + 1][j]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tsteps = TSTEPS;
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);

  (void)argc; (void)argv;
  init_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_jacobi_2d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
