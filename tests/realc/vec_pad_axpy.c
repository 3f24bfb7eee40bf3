/* y = a x + y over n elements of arrays declared with 8 elements of
 * padding. */
void axpy_pad(int n, double a, double x[n + 8], double y[n + 8]) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
