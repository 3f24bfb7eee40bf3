/* bound_steps.c - a time loop whose body reads its iterator in a loop
 * bound and in a condition (not PolyBench style): step s relaxes the tail
 * u[s..n-1] towards v, then adds u into the head of v (v[i], i < s).  The
 * step loop is kept (it carries u and v); s is a size of the raised body,
 * the bound and the condition masks in it. */
void bound_steps(int steps, int n, float u[n], float v[n]) {
  for (int s = 0; s < steps; s++) {
    for (int i = s; i < n; i++)
      u[i] = 0.5f * u[i] + 0.5f * v[i];
    for (int i = 0; i < n; i++)
      if (i < s)
        v[i] = v[i] + u[i];
  }
}
