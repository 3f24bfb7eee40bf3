/* red_cond_index.c - row sums that skip the first four columns. */
void kernel_red_cond_index(int n, int m, double A[n][m], double B[n])
{
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      if (j >= 4)
        s += A[i][j];
    B[i] = s;
  }
}
