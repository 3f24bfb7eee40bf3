/* row_sweeps.c - forward and backward sweeps, repeated (not PolyBench
 * style: float data, pointer parameters): at each step s a plain
 * statement relaxes the forcing r towards the step's weight w[s] (a slice
 * of w cut at s), then a kept loop sweeps x forward from element s on
 * (its bound reads s: s is a size of the step's body and an index
 * argument of the item), each x[i] from r[i] and the x[j] before it, then
 * a second kept loop sweeps y backward, each y[i] from x[i] and the y[j]
 * after it.  The step loop s is kept and its body is a statement, a kept
 * loop and another kept loop: three items (docs/analyze.md, "Nested kept
 * loops").  The scalings keep the values small. */
void row_sweeps(int steps, int n, const float *w, float *r, float *x, float *y) {
  for (int s = 0; s < steps; s++) {
    for (int j = 0; j < n; j++)
      r[j] = 0.5f * r[j] + w[s];
    for (int i = s; i < n; i++) {
      x[i] = r[i];
      for (int j = 0; j < i; j++)
        x[i] += x[j];
      x[i] = 0.0625f * x[i];
    }
    for (int i = n - 1; i >= 0; i--) {
      y[i] = x[i];
      for (int j = i + 1; j < n; j++)
        y[i] -= y[j];
      y[i] = 0.25f * y[i];
    }
  }
}
