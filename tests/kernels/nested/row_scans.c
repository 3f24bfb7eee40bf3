/* row_scans.c - a batch of independent first-order recurrences, one per
 * row, repeated (not PolyBench style: a typedef'd float, flat pointer
 * parameters y[r*m + j]): at each step s, every row r of y restarts from
 * its first element of z and runs y[r][j] = a y[r][j-1] + z[r][j] along
 * the row, then z is relaxed towards y (the scalings keep the values small).  The step loop s is kept (z feeds
 * y feeds z); inside it the row loop r carries nothing and holds the kept
 * recurrence j, so it is distributed over its items and moved inside j:
 * at each j the body is the whole column, y[:, j] = a y[:, j-1] + z[:, j]
 * (docs/analyze.md, "Batched loops"). */
typedef float real;

void row_scans(int steps, int nr, int m, real a, real *y, real *z) {
  for (int s = 0; s < steps; s++) {
    for (int r = 0; r < nr; r++) {
      y[r * m] = z[r * m];
      for (int j = 1; j < m; j++)
        y[r * m + j] = a * y[r * m + j - 1] + z[r * m + j];
    }
    for (int r = 0; r < nr; r++)
      for (int j = 0; j < m; j++)
        z[r * m + j] = 0.5f * z[r * m + j] + 0.0078125f * y[r * m + j];
  }
}
