/* Dot product stored through an output pointer. */
void ddot_out(int n, const double *x, const double *y, double *result) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  *result = s;
}
