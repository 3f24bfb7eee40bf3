#include <math.h>
/* ieee_fmax_zero.c - fmax ignores a NaN operand: fmax(NaN, 0) = 0. */
void kernel_ieee_fmax_zero(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = fmax(A[i], 0.0);
}
