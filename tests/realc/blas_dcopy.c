/* y = x. */
void dcopy(unsigned n, const double *x, double *y) {
  for (unsigned i = 0; i < n; i++)
    y[i] = x[i];
}
