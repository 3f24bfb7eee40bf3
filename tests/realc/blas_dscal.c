/* x = alpha x. */
void dscal(int n, double alpha, double *x) {
  for (int i = 0; i < n; i++)
    x[i] *= alpha;
}
