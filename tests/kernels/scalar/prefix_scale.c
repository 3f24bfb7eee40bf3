/* At each step, a damped prefix recurrence over a float pointer, then a
 * tensor scaling that feeds the next step: x[i] = x[i - 1] * 0.5f + y[i]
 * reads what its loop wrote one iteration before (a true recurrence: a
 * scalar item), y[i] = c * x[i] is raised. */
void kernel_prefix_scale(int steps, int n, float c, float *x, float *y) {
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n; i++)
      x[i] = x[i - 1] * 0.5f + y[i];
    for (int i = 0; i < n; i++)
      y[i] = c * x[i] * 0.25f;
  }
}
