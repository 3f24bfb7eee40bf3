/* y = alpha A x + beta y, A m x n row-major in a flat array. */
void gemv_rm(int m, int n, double alpha, const double *a, const double *x,
             double beta, double *y) {
  for (int i = 0; i < m; i++) {
    double t = 0.0;
    for (int j = 0; j < n; j++)
      t += a[i * n + j] * x[j];
    y[i] = alpha * t + beta * y[i];
  }
}
