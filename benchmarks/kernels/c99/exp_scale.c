/*
 * exp_scale.c - plain C99 single-precision B = alpha * exp(A) elementwise
 * (A, B: n x m), computed in double via a cast and stored back with a cast.
 * Kernel: kernel_exp_scale.
 */
#include <math.h>

void kernel_exp_scale(int n, int m, float alpha, float A[n][m], float B[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = (float)(alpha * exp((double)A[i][j]));
}
