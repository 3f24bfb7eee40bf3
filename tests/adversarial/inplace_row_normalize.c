/* inplace_row_normalize.c - dividing a row by its first element in place:
 * A[i][0] becomes 1 first, so the rest are divided by 1. */
void kernel_inplace_row_normalize(int n, int m, double A[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] / A[i][0];
}
