/*
 * gemv_pb.c - y = alpha * A x + beta * y in Polybench's style, for the
 * header modes of tests/polybench/utilities/polybench.h.
 */
#include <polybench.h>

#define M 24
#define N 20
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void kernel_gemv(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_1D(x, N, n),
                        DATA_TYPE POLYBENCH_1D(y, M, m))
{
  int i, j;
  for (i = 0; i < _PB_M; i++) {
    y[i] = beta * y[i];
    for (j = 0; j < _PB_N; j++)
      y[i] += alpha * A[i][j] * x[j];
  }
}
