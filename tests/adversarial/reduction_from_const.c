/* reduction_from_const.c - row sums from column 3: 0 when m <= 3. */
void kernel_reduction_from_const(int n, int m, double A[n][m], double B[n])
{
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 3; j < m; j++)
      s += A[i][j];
    B[i] = s;
  }
}
