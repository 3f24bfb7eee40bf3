/* flat_solve_steps.c - repeated unit-triangular solves on a flat matrix:
 * at each step s, x from the strictly lower triangle of the row-major a (x[i] =
 * b[i] - sum of a[i*n + j] x[j] for j < i), then every b[i] damped and fed
 * with it (not PolyBench style: one flat pointer, a[i*n + j]).  The step
 * loop s is kept and its body keeps the row loop i: a kept loop holding a
 * kept loop, then a plain loop (docs/analyze.md, "Nested kept loops"). */
void flat_solve_steps(int steps, int n, const double *a, double *x, double *b) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double t = b[i];
      for (int j = 0; j < i; j++)
        t -= a[i * n + j] * x[j];
      x[i] = t;
    }
    for (int i = 0; i < n; i++)
      b[i] = 0.25 * b[i] + 0.5 * x[i];
  }
}
