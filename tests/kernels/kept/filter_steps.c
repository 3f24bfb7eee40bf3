/* filter_steps.c - a running filter with a scalar state: at each step the
 * energy of y feeds a state e carried from one step to the next (a local
 * written in step s, read in step s + 1, started by a prelude from the
 * data), which damps y before the mirror image of x is added, and is
 * recorded in h[s]; after the steps y is scaled by the last state.  The
 * step loop is kept; the kernel is three items in sequence (the prelude,
 * the loop, the scaling), e a value of its own passed from each to the
 * next and carried by the loop (an argument and a result of each item;
 * at each step it is damped, then accumulates the energy), and
 * x[n - 1 - i] a reversed read (the reverse op). */
void filter_steps(int steps, int n, const float *restrict x, float *restrict y,
                  float *restrict h) {
  float e;
  e = x[0] * x[0];
  for (int s = 0; s < steps; s++) {
    e = 0.5f * e;
    for (int i = 0; i < n; i++)
      e += y[i] * y[i];
    h[s] = e;
    for (int i = 0; i < n; i++)
      y[i] = y[i] / (1.0f + e) + x[n - 1 - i];
  }
  for (int i = 0; i < n; i++)
    y[i] = y[i] / (1.0f + e);
}
