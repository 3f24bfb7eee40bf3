/*
 * lu.c - LU decomposition without pivoting, in place (Doolittle): row i of
 * L (left of the diagonal, unit diagonal implied) and of U (from the
 * diagonal on) are computed from the rows above (A: N x N).  Polybench/C
 * 4.2.1 style, written from the math.  The pivot loop i carries the
 * dependence.  Kernel: kernel_lu.
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
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE) (i == j ? n + 1 : 1) / n + (DATA_TYPE) ((i + j) % 3) / (4 * n);
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
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
  POLYBENCH_DUMP_FINISH;
}

static void kernel_lu(int n,
                      DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < _PB_N; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(A));

  polybench_start_instruments;
  kernel_lu(n, POLYBENCH_ARRAY(A));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(A)));

  POLYBENCH_FREE_ARRAY(A);
  return 0;
}
