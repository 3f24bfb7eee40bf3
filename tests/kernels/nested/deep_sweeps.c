/* deep_sweeps.c - kept loops three deep (not PolyBench style: float data,
 * pointer parameters).  The repeat loop q is kept; its body is the step
 * loop s, a kept loop holding a statement that reads the slice w[q] (cut
 * by the outermost loop, read two levels down) and a kept loop whose
 * bound reads s, then a downward kept loop: two items, the first nested
 * in turn (docs/analyze.md, "Nested kept loops"); the MLIR and the C nest
 * the same way, each kept loop a function around calls of its items'. */
void deep_sweeps(int reps, int steps, int n, const float *w, float *r, float *x, float *y) {
  for (int q = 0; q < reps; q++) {
    for (int s = 0; s < steps; s++) {
      for (int j = 0; j < n; j++)
        r[j] = 0.25f * r[j] + w[q];
      for (int i = s; i < n; i++) {
        x[i] = r[i] + y[i];
        for (int j = 0; j < i; j++)
          x[i] -= x[j];
        x[i] = 0.125f * x[i];
      }
    }
    for (int i = n - 1; i >= 0; i--) {
      y[i] = x[i];
      for (int j = i + 1; j < n; j++)
        y[i] += y[j];
      y[i] = 0.0625f * y[i];
    }
  }
}
