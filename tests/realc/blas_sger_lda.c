/* Rank-1 update A += alpha x y^T of an m x n block stored with leading
 * dimension lda (single precision). */
void sger_lda(int m, int n, float alpha, const float *x, const float *y, float *a, int lda) {
  for (int i = 0; i < m; i++) {
    float ax = alpha * x[i];
    for (int j = 0; j < n; j++)
      a[i * lda + j] += ax * y[j];
  }
}
