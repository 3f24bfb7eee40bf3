/* solve_steps.c - repeated forward substitution: at each step s, solve
 * (L D^-1) x = b for the strictly lower part of L over a diagonal D taken
 * from L's (x[i] from x[0..i-1], as trisolv, scaled by L[i][i] rather than
 * divided, so the values stay in f32's range over many steps), then feed
 * the solution back into the right-hand side (not PolyBench style).
 * The step loop s is kept, and its body keeps the substitution loop i:
 * a kept loop holding a kept loop followed by a plain statement, raised
 * as a nested sequence of items (pipeline/raise.c, raise_nested). */
void solve_steps(int steps, int n, double L[n][n], double x[n], double b[n]) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      x[i] = b[i];
      for (int j = 0; j < i; j++)
        x[i] -= L[i][j] * x[j];
      x[i] = x[i] * L[i][i];
    }
    for (int i = 0; i < n; i++)
      b[i] = 0.5 * b[i] + x[i];
  }
}
