/* smooth_steps.c - a time loop around a 3-tap smoothing through pointers
 * (not PolyBench style): each step smooths the interior of u into w, then
 * copies it back, for `steps` steps.  The step loop is kept (it carries u
 * from one step to the next); the two statements of its body are raised. */
void smooth_steps(int steps, int n, float *u, float *w) {
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.25f * u[i - 1] + 0.5f * u[i] + 0.25f * u[i + 1];
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }
}
