/* The same product with a row offset kept in an int local. */
void matmul_row(float *restrict out, const float *restrict in,
                const float *restrict w, int n, int d) {
  for (int i = 0; i < d; i++) {
    int row = i * n;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
      acc += w[row + j] * in[j];
    out[i] = acc;
  }
}
