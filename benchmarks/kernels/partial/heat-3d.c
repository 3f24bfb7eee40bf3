/*
 * heat-3d.c - explicit time steps of the heat equation on a 3-D grid: the
 * second difference along each axis, scaled by 1/8, is added to every
 * interior point (A into B, then B into A; A, B: N x N x N).  Polybench/C
 * 4.2.1 style, written from the math.  The time loop carries the
 * dependence.  Kernel: kernel_heat_3d.
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
#  define N 10
# endif
# ifdef SMALL_DATASET
#  define TSTEPS 40
#  define N 20
# endif
# ifdef MEDIUM_DATASET
#  define TSTEPS 100
#  define N 40
# endif
# ifdef LARGE_DATASET
#  define TSTEPS 500
#  define N 120
# endif
# ifdef EXTRALARGE_DATASET
#  define TSTEPS 1000
#  define N 200
# endif
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS,tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int tsteps, int n,
                       DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                       DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        A[i][j][k] = (DATA_TYPE) (i + j + (n - k)) * 10 / n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        B[i][j][k] = (DATA_TYPE) (i + j + (n - k)) * 10 / n;
}

static void print_array(int tsteps, int n,
                        DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                        DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)tsteps;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        {
          if (c++ % 20 == 0)
            fprintf(POLYBENCH_DUMP_TARGET, "\n");
          fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j][k]);
        }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        {
          if (c++ % 20 == 0)
            fprintf(POLYBENCH_DUMP_TARGET, "\n");
          fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j][k]);
        }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_heat_3d(int tsteps,
                           int n,
                           DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                           DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
  int t, i, j, k;

#pragma scop
  for (t = 1; t <= _PB_TSTEPS; t++) {
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        for (k = 1; k < _PB_N - 1; k++)
          B[i][j][k] = SCALAR_VAL(0.125) * (A[i + 1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i - 1][j][k])
                       + SCALAR_VAL(0.125) * (A[i][j + 1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j - 1][k])
                       + SCALAR_VAL(0.125) * (A[i][j][k + 1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k - 1])
                       + A[i][j][k];
    for (i = 1; i < _PB_N - 1; i++)
      for (j = 1; j < _PB_N - 1; j++)
        for (k = 1; k < _PB_N - 1; k++)
          A[i][j][k] = SCALAR_VAL(0.125) * (B[i + 1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i - 1][j][k])
                       + SCALAR_VAL(0.125) * (B[i][j + 1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j - 1][k])
                       + SCALAR_VAL(0.125) * (B[i][j][k + 1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k - 1])
                       + B[i][j][k];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tsteps = TSTEPS;
  int n = N;
  POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, N, N, N, n, n, n);
  POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, N, N, N, n, n, n);

  (void)argc; (void)argv;
  init_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_heat_3d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
