/* red_min_rows.c - row minima by an if, from the first column. */
void kernel_red_min_rows(int n, int m, double A[n][m + 1], double B[n])
{
  for (int i = 0; i < n; i++) {
    double v = A[i][0];
    for (int j = 1; j <= m; j++)
      if (A[i][j] < v)
        v = A[i][j];
    B[i] = v;
  }
}
