/* Dot product, returned. */
double ddot(int n, const double *x, const double *y) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
