/*
 * madd_pb.c - C = alpha * A + B in Polybench's style, for the header
 * modes of tests/polybench/utilities/polybench.h (under
 * POLYBENCH_USE_SCALAR_LB its loops run to the constants M and N).
 */
#include <polybench.h>

#define M 6
#define N 5
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void kernel_madd(int m, int n, DATA_TYPE alpha,
                        DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(C, M, N, m, n))
{
  int i, j;
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++)
      C[i][j] = alpha * A[i][j] + B[i][j];
}
