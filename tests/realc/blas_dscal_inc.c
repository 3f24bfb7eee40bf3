/* x = alpha x over every incx-th element (BLAS dscal with a stride). */
void dscal_inc(int n, double alpha, double *x, int incx) {
  for (int i = 0; i < n; i++)
    x[i * incx] = alpha * x[i * incx];
}
