#include <math.h>
/* ieee_sqrt_square.c - sqrt(x*x) overflows to inf for |x| = 1e300, where
 * fabs(x) does not. */
void kernel_ieee_sqrt_square(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = sqrt(A[i] * A[i]);
}
