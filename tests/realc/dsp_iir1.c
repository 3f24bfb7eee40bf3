/* One-pole IIR low-pass: a recurrence on the output. */
void iir1(const float *x, float *y, float a, int n) {
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + (1.0f - a) * x[i];
}
