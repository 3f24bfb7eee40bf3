/* y = alpha x + y with strides incx and incy. */
void daxpy_inc(int n, double alpha, const double *x, int incx, double *y, int incy) {
  for (int i = 0; i < n; i++)
    y[i * incy] += alpha * x[i * incx];
}
