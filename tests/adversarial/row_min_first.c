/* row_min_first.c - a row minimum started at the row's first element
 * (C's `<` skips a later NaN but keeps a first one; m = 1 is the first
 * element alone). */
void kernel_row_min_first(int n, int m, float A[n][m], float mn[n])
{
  for (int i = 0; i < n; i++) {
    mn[i] = A[i][0];
    for (int j = 1; j < m; j++)
      if (A[i][j] < mn[i])
        mn[i] = A[i][j];
  }
}
