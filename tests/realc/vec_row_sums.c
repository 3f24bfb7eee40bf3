/* Row sums of a flat m x n matrix. */
void row_sums(const double *aa, double *s, int m, int n) {
  for (int i = 0; i < m; i++) {
    s[i] = 0.0;
    for (int j = 0; j < n; j++)
      s[i] += aa[i * n + j];
  }
}
