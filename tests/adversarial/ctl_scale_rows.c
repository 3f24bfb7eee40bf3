/* ctl_scale_rows.c - every row scaled by its own factor. */
void kernel_ctl_scale_rows(int n, int m, double A[n][m], double x[n], double B[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] * x[i];
}
