/*
 * row_norms.c - plain C99 single-precision Euclidean norm of each row of A
 * (A: n x m, nrm: n).  Loops use `<=` bounds and `++i`; the accumulator s is
 * a local scalar declared inside the row loop; the square root is the
 * double-precision sqrt call with a cast back to float.
 * Kernel: kernel_row_norms.
 */
#include <math.h>

void kernel_row_norms(int n, int m, float A[n][m], float nrm[n])
{
  for (int i = 0; i <= n - 1; ++i) {
    float s = 0.0f;
    for (int j = 0; j <= m - 1; ++j)
      s = s + A[i][j] * A[i][j];
    nrm[i] = (float)sqrt(s);
  }
}
