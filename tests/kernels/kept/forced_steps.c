/* forced_steps.c - a time loop whose body reads arrays at its iterator (not
 * PolyBench style): each step relaxes u towards the step's forcing row
 * f[s], smoothed with its left neighbour f[s][i - 1], plus an offset taken
 * from g in reverse order (g[steps - 1 - s]).  The step loop is kept (it
 * carries u); the body's reads f[s][i], f[s][i - 1] and g[steps - 1 - s]
 * are slices cut at each iteration (f[s][:] a row read twice,
 * g[steps - 1 - s] one element), so the raised body does not read s. */
void forced_steps(int steps, int n, float u[n], float f[steps][n], float g[steps]) {
  for (int s = 0; s < steps; s++)
    for (int i = 1; i < n; i++)
      u[i] = 0.5f * u[i] + 0.25f * f[s][i] + 0.25f * f[s][i - 1] + g[steps - 1 - s];
}
