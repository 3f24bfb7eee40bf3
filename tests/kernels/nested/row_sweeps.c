/* row_sweeps.c - sweeps over the rows of two grids, repeated (not
 * PolyBench style: float data, pointer parameters): at each step s a
 * plain statement relaxes the forcing r towards the step's weight w[s]
 * (a slice of w cut at s), then a kept loop carries u down its rows from
 * row s + 1 (its bounds read s: s is a size of the step's body and an
 * index argument of the item), then a second kept loop carries v up its
 * rows, downward, reading u's row i (a slice cut at i).  The step loop s
 * is kept and its body is a statement, a kept loop and another kept loop:
 * three items (docs/analyze.md, "Nested kept loops"). */
void row_sweeps(int steps, int m, int n, const float *w, float *r, float u[m][n], float v[m][n]) {
  for (int s = 0; s < steps; s++) {
    for (int j = 0; j < n; j++)
      r[j] = 0.5f * r[j] + w[s];
    for (int i = s + 1; i < m; i++)
      for (int j = 0; j < n; j++)
        u[i][j] = 0.5f * u[i - 1][j] + r[j];
    for (int i = m - 2; i >= 0; i--)
      for (int j = 0; j < n; j++)
        v[i][j] = 0.5f * (v[i + 1][j] + u[i][j]);
  }
}
