/* alpha * x.y, returned (a BLAS-1 helper with a scalar factor). */
double ddot_scaled(int n, double alpha, const double *x, const double *y) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return alpha * s;
}
