#include <math.h>
/* ieee_fminf_pair.c - fminf of two arrays, NaN ignored. */
void kernel_ieee_fminf_pair(int n, float A[n], float B[n], float C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = fminf(A[i], B[i]);
}
