/* y = L x with L the lower triangle of a flat n x n matrix. */
void trmv_lower(int n, const double *l, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j <= i; j++)
      s += l[i * n + j] * x[j];
    y[i] = s;
  }
}
