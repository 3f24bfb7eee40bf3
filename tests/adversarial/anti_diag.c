/* anti_diag.c - the anti-diagonal i + j = n - 1 is copied; the rest of C
 * keeps its values. */
void kernel_anti_diag(int n, double A[n][n], double C[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i + j == n - 1)
        C[i][j] = A[i][j];
}
