/* Vectorization-suite style: the sum over a matrix, returned. */
double sum2d(int n, int m, double a[n][m]) {
  double total = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      total += a[i][j];
  return total;
}
