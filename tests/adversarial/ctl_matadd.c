// uplift: --function matadd
/* ctl_matadd.c - C = A + B, a plain function name. */
void matadd(int n, int m, const double A[n][m], const double B[n][m], double C[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] = A[i][j] + B[i][j];
}
