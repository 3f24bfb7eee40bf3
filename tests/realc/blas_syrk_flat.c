/* C = A A^T + C (full square), A n x k flat. */
void syrk_flat(int n, int k, const double *a, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int p = 0; p < k; p++)
        c[i * n + j] += a[i * k + p] * a[j * k + p];
}
