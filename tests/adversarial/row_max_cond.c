/* row_max_cond.c - a row maximum kept in an array, started at -INFINITY and
 * updated by a comparison (C's `>` skips a NaN and keeps the first of equal
 * zeros; an empty row leaves -inf). */
#include <math.h>
void kernel_row_max_cond(int n, int m, double A[n][m], double mx[n])
{
  for (int i = 0; i < n; i++) {
    mx[i] = -INFINITY;
    for (int j = 0; j < m; j++)
      if (A[i][j] > mx[i])
        mx[i] = A[i][j];
  }
}
