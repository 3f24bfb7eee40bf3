/* Sum of absolute values. */
void dasum(int n, const double *x, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += fabs(x[i]);
  *out = s;
}
