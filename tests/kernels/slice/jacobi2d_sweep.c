// uplift: -DDATA_TYPE_IS_FLOAT
/* jacobi2d_sweep.c - one time step of a 2-D Jacobi stencil, Polybench
 * style: B gets the 5-point average of A's interior, then A gets B's.  The
 * second sweep reads what the first wrote (two tasks); no time loop. */
#include <polybench.h>
#define N 40
#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void kernel_jacobi_2d_sweep(int n, DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
                                   DATA_TYPE POLYBENCH_2D(B,N,N,n,n))
{
  int i, j;

#pragma scop
  for (i = 1; i < _PB_N - 1; i++)
    for (j = 1; j < _PB_N - 1; j++)
      B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
  for (i = 1; i < _PB_N - 1; i++)
    for (j = 1; j < _PB_N - 1; j++)
      A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
#pragma endscop
}
