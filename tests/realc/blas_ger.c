/* Rank-1 update A += alpha x y^T. */
void dger(int m, int n, double alpha, const double *x, const double *y, double *a) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] += alpha * x[i] * y[j];
}
