/* y += A x with a leading dimension lda (A is m x k inside m x lda). */
void gemv_lda(int m, int k, const double *a, int lda, const double *x, double *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < k; j++)
      y[i] += a[i * lda + j] * x[j];
}
