// uplift: --function matmul_ikj
/*
 * matmul_ikj.c - plain C99 matrix multiply C = A*B (A: n x p, B: p x m,
 * C: n x m) in i-k-j loop order, with C zeroed first.  Uses `for (int ...)`,
 * `++k`, and `x = x + e` instead of `+=`.  The file has a second function,
 * fill_identity, that is not the kernel: select the kernel with
 * --function matmul_ikj.
 */

void fill_identity(int n, double I[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      I[i][j] = i == j ? 1.0 : 0.0;
}

void matmul_ikj(int n, int m, int p, double A[n][p], double B[p][m],
                double C[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] = 0.0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < p; ++k)
      for (int j = 0; j < m; j++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
}
