// expect: 5:15 reaches k + 1, past its row length k
void sum_cols(int m, int k, const double *a, double *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= k; j++)
      y[i] += a[i * k + j];
}
