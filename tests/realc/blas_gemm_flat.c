/* C = A B + C, A m x k, B k x n, C m x n, all row-major flat arrays. */
void gemm_flat(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float acc = c[i * n + j];
      for (int p = 0; p < k; p++)
        acc += a[i * k + p] * b[p * n + j];
      c[i * n + j] = acc;
    }
}
