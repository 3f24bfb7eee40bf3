/*
 * absdiff.c - plain C99 elementwise absolute difference D = |A - B| and the
 * per-column maximum of it, mx[j] = max_i D[i][j] (A, B, D: n x m, mx: m).
 * Uses fabs and fmax calls; mx is reset in its own loop first.
 * Kernel: kernel_absdiff.
 */
#include <math.h>

void kernel_absdiff(int n, int m, double A[n][m], double B[n][m],
                    double D[n][m], double mx[m])
{
  for (int j = 0; j < m; j++)
    mx[j] = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      D[i][j] = fabs(A[i][j] - B[i][j]);
      mx[j] = fmax(mx[j], D[i][j]);
    }
}
