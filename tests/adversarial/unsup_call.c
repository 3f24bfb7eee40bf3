#include <math.h>
/* unsup_call.c - a math function outside the subset (sin). */
void kernel_unsup_call(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = sin(A[i]);
}
