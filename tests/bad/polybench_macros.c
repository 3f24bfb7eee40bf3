// expect: 10:43 non-affine subscript
#include <polybench.h>
#define N 20
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
static void kernel_pm(int n, DATA_TYPE alpha,
                      DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i, j;
  for (i = 0; i < _PB_N; i++)
    x[i] = SCALAR_VAL(0.5) * alpha + A[i][SQRT_FUN(x[i])];
}
