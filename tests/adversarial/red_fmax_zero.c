#include <math.h>
/* red_fmax_zero.c - fmax from 0: NaN ignored, 0 when n = 0. */
void kernel_red_fmax_zero(int n, double A[n], double out[1])
{
  double m = 0.0;
  for (int i = 0; i < n; i++)
    m = fmax(m, A[i]);
  out[0] = m;
}
