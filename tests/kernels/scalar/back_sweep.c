/* A downward recurrence over a float pointer: each x[i] reads the x[i + 1]
 * the loop wrote one iteration before (a scalar item, a downward scalar
 * loop), then an upward scaling of the result into y (raised). */
void kernel_back_sweep(int n, float *x, float *y) {
  for (int i = n - 2; i >= 0; i--)
    x[i] = x[i + 1] * 0.5f - x[i];
  for (int i = 0; i < n; i++)
    y[i] = x[i] + y[i];
}
