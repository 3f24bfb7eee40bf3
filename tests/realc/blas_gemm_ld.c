/* C = alpha A B + beta C with leading dimensions. */
void gemm_ld(int m, int n, int k, double alpha, const double *a, int lda,
             const double *b, int ldb, double beta, double *c, int ldc) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int p = 0; p < k; p++)
        s += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = alpha * s + beta * c[i * ldc + j];
    }
}
