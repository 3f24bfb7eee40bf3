/* deep_sweeps.c - row_sweeps.c repeated reps times: kept loops three deep
 * (not PolyBench style: float data, pointer parameters).  The repeat loop
 * q is kept and its body is one kept loop, the step loop s, raised inside
 * in turn: a statement reading the slice w[s], a kept loop whose bound
 * reads s, and a downward kept loop (docs/analyze.md, "Nested kept
 * loops"); the MLIR and the C nest the same way, each kept loop a function
 * around a call of its items'. */
void deep_sweeps(int reps, int steps, int n, const float *w, float *r, float *x, float *y) {
  for (int q = 0; q < reps; q++) {
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
}
