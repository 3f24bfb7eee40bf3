// expect: 5:15 under the assumption k <= lda
void gemv_lda(int m, int k, int lda, const double *a, const double *x, double *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < k; j++)
      y[i] += a[i * lda + j] * x[j];
}
