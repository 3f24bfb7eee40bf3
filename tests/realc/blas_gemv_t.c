/* y = A^T x, A m x n row-major. */
void gemv_t(int m, int n, const float *a, const float *x, float *y) {
  for (int j = 0; j < n; j++)
    y[j] = 0.0f;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[j] += a[i * n + j] * x[i];
}
