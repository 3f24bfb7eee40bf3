/* steps_then_scale.c - a time-step loop (kept) between a statement before
 * it and one after it: a boundary set, relaxation sweeps, then a scaling
 * of the result (not PolyBench style: float, the sweep written as one
 * statement per element).  The kernel is a sequence of three items, each
 * raised on its own and run on the arrays as the one before leaves them. */
void steps_then_scale(int steps, int n, float A[n], float B[n], float s) {
  A[0] = 0.0f;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.5f * (A[i - 1] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
  for (int i = 0; i < n; i++)
    A[i] = s * A[i];
}
