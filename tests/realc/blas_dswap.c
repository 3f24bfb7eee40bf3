/* Swap two vectors through a temporary. */
void dswap(int n, double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double t = x[i];
    x[i] = y[i];
    y[i] = t;
  }
}
