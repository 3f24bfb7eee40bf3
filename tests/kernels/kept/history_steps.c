/* history_steps.c - a time loop whose body writes at its iterator and
 * reads back what it wrote there (not PolyBench style): step s relaxes u,
 * then accumulates it into row s of the history h (h[s][i] += u[i]) and
 * takes the step's norm into norm[s].  The step loop is kept (it carries
 * u); h[s][i] and norm[s] stay accesses of the body, s a size of it, a mask
 * in s selecting the row written. */
void history_steps(int steps, int n, float u[n], float h[steps][n], float norm[steps]) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      u[i] = 0.5f * u[i] + 1.0f;
    for (int i = 0; i < n; i++)
      h[s][i] = h[s][i] + u[i];
    norm[s] = 0.0f;
    for (int i = 0; i < n; i++)
      norm[s] += h[s][i] * h[s][i];
  }
}
