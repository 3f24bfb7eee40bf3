/*
 * gemvt_pb.c - x = x + beta * A^T y in Polybench's style, for the header
 * modes of tests/polybench/utilities/polybench.h, with the update written
 * out (`x[i] = x[i] + ...`, not `+=`, the same in C) as Polybench's own
 * files often write it.
 */
#include <polybench.h>

#define M 24
#define N 20
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

static void kernel_gemvt(int m, int n, DATA_TYPE beta,
                         DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                         DATA_TYPE POLYBENCH_1D(y, M, m),
                         DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i, j;
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
}
