/*
 * gramschmidt.c - QR decomposition by modified Gram-Schmidt: column k of A
 * is normalised into Q (its norm into R[k][k]), then projected out of the
 * later columns (R[k][j], A[i][j] -= Q[i][k] R[k][j]) (A, Q: M x N;
 * R: N x N).  Polybench/C 4.2.1 style, written from the math.  The column
 * loop k carries the dependence.  Kernel: kernel_gramschmidt.
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

#if !defined(M) && !defined(N)
# ifdef MINI_DATASET
#  define M 20
#  define N 30
# endif
# ifdef SMALL_DATASET
#  define M 60
#  define N 80
# endif
# ifdef MEDIUM_DATASET
#  define M 200
#  define N 240
# endif
# ifdef LARGE_DATASET
#  define M 1000
#  define N 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define M 2000
#  define N 2600
# endif
#endif

#define _PB_M POLYBENCH_LOOP_BOUND(M,m)
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int m, int n,
                       DATA_TYPE POLYBENCH_2D(A, M, N, m, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)m;
  (void)n;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (((DATA_TYPE) ((i * j) % m) / m) * 100) + 10;
}

static void print_array(int m, int n,
                        DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                        DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)m;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("A");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, A[i][j]);
      }
  POLYBENCH_DUMP_END("A");
  POLYBENCH_DUMP_BEGIN("R");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, R[i][j]);
      }
  POLYBENCH_DUMP_END("R");
  POLYBENCH_DUMP_BEGIN("Q");
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, Q[i][j]);
      }
  POLYBENCH_DUMP_END("Q");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_gramschmidt(int m,
                               int n,
                               DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                               DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                               DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE nrm;

#pragma scop
  for (k = 0; k < _PB_N; k++) {
    nrm = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = SQRT_FUN(nrm);
    for (i = 0; i < _PB_M; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < _PB_N; j++) {
      R[k][j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < _PB_M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int m = M;
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, N, m, n);
  POLYBENCH_2D_ARRAY_DECL(R, DATA_TYPE, N, N, n, n);
  POLYBENCH_2D_ARRAY_DECL(Q, DATA_TYPE, M, N, m, n);

  (void)argc; (void)argv;
  init_array(m, n, POLYBENCH_ARRAY(A));

  polybench_start_instruments;
  kernel_gramschmidt(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R), POLYBENCH_ARRAY(Q));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R), POLYBENCH_ARRAY(Q)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(R);
  POLYBENCH_FREE_ARRAY(Q);
  return 0;
}
