/* doolittle_flat.c - Doolittle's LU factorisation and the two triangular
 * solves (not PolyBench style: a typedef'd element, pointer parameters, a
 * flat row-major matrix a[i*n + j], C99 loop declarations, a local
 * accumulator declared in each loop).  Every dot product goes through its
 * accumulator, started from the element it ends in (or from the
 * right-hand side) and stored back once: row i of L (a[i][j] for j < i)
 * divided by the pivots a[j][j] of the rows before, then row i of U
 * (a[i][j] for j >= i); then L z = r forward, L's diagonal 1, and U x = z
 * backward, divided by U's diagonal.  The accumulators are folded into the
 * elements they end in (docs/analyze.md, "Accumulators folded into their
 * element"); the row loop i is kept, and inside it the sweep over L's row,
 * whose every element reads the ones before it; the solves' row loops are
 * kept. */
typedef double real;

void doolittle_flat(int n, real *restrict a, const real *r, real *z, real *x) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      real acc = a[i * n + j];
      for (int k = 0; k < j; k++)
        acc -= a[i * n + k] * a[k * n + j];
      a[i * n + j] = acc / a[j * n + j];
    }
    for (int j = i; j < n; j++) {
      real acc = a[i * n + j];
      for (int k = 0; k < i; k++)
        acc -= a[i * n + k] * a[k * n + j];
      a[i * n + j] = acc;
    }
  }
  for (int i = 0; i < n; i++) {
    real acc = r[i];
    for (int k = 0; k < i; k++)
      acc -= a[i * n + k] * z[k];
    z[i] = acc;
  }
  for (int i = n - 1; i >= 0; i--) {
    real acc = z[i];
    for (int k = i + 1; k < n; k++)
      acc -= a[i * n + k] * x[k];
    x[i] = acc / a[i * n + i];
  }
}
