/*
 * ludcmp.c - solve A x = b: LU decomposition of A in place (with a scalar
 * accumulator w), then forward substitution L y = b and back substitution
 * U x = y (A: N x N; b, x, y: N).  Polybench/C 4.2.1 style, written from
 * the math.  The decomposition's pivot loop and both substitutions carry
 * dependences.  Kernel: kernel_ludcmp.
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

#if !defined(N)
# ifdef MINI_DATASET
#  define N 40
# endif
# ifdef SMALL_DATASET
#  define N 120
# endif
# ifdef MEDIUM_DATASET
#  define N 400
# endif
# ifdef LARGE_DATASET
#  define N 2000
# endif
# ifdef EXTRALARGE_DATASET
#  define N 4000
# endif
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE) (i == j ? n + 1 : 1) / n + (DATA_TYPE) ((i + j) % 3) / (4 * n);
  for (i = 0; i < n; i++)
    b[i] = (DATA_TYPE) (i + 1) / n / 2 + 4;
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++)
    {
      if (c++ % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
    }
  POLYBENCH_DUMP_END("x");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_ludcmp(int n,
                          DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                          DATA_TYPE POLYBENCH_1D(b, N, n),
                          DATA_TYPE POLYBENCH_1D(x, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i, j, k;
  DATA_TYPE w;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < _PB_N; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
  for (i = 0; i < _PB_N; i++) {
    w = b[i];
    for (j = 0; j < i; j++)
      w -= A[i][j] * y[j];
    y[i] = w;
  }
  for (i = _PB_N - 1; i >= 0; i--) {
    w = y[i];
    for (j = i + 1; j < _PB_N; j++)
      w -= A[i][j] * x[j];
    x[i] = w / A[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b));

  polybench_start_instruments;
  kernel_ludcmp(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(b);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(y);
  return 0;
}
