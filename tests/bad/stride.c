// expect: 4:5 under the assumption 1 <= incx
void scal_strided(int n, double alpha, double *x, int incx) {
  for (int i = 0; i < n; i++)
    x[i * incx] = alpha * x[i * incx];
}
