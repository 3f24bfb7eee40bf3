/* Chained assignment into two outputs. */
void twin_set(double *a, double *b, const double *c, int n) {
  for (int i = 0; i < n; i++)
    a[i] = b[i] = 2.0 * c[i];
}
