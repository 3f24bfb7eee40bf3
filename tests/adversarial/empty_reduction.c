/* empty_reduction.c - row sums over m columns: 0 when m = 0. */
void kernel_empty_reduction(int n, int m, double A[n][m], double B[n])
{
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      s += A[i][j];
    B[i] = s;
  }
}
