/* crout_flat.c - Crout's LU factorisation and the two triangular solves
 * (not PolyBench style: a typedef'd double, pointer parameters, a flat
 * row-major matrix a[i*n + j], C99 loop declarations).  Every dot product
 * goes through a local accumulator declared in the loop, started from the
 * element it ends in (or from the right-hand side) and stored back once:
 * column j of L (a[i][j] for i >= j) with no division, then row j of U
 * (a[j][i] for i > j) divided by the pivot a[j][j] of the column just
 * computed; then L z = r forward and U x = z backward, U's diagonal 1.
 * The accumulators are folded into the elements they end in
 * (docs/analyze.md, "Accumulators folded into their element"); the
 * factorisation's pivot loop j is kept, the solves' row loops are kept. */
typedef double real;

void crout_flat(int n, real *restrict a, const real *r, real *z, real *x) {
  for (int j = 0; j < n; j++) {
    for (int i = j; i < n; i++) {
      real acc = a[i * n + j];
      for (int k = 0; k < j; k++)
        acc -= a[i * n + k] * a[k * n + j];
      a[i * n + j] = acc;
    }
    for (int i = j + 1; i < n; i++) {
      real acc = a[j * n + i];
      for (int k = 0; k < j; k++)
        acc -= a[j * n + k] * a[k * n + i];
      a[j * n + i] = acc / a[j * n + j];
    }
  }
  for (int i = 0; i < n; i++) {
    real acc = r[i];
    for (int k = 0; k < i; k++)
      acc -= a[i * n + k] * z[k];
    z[i] = acc / a[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    real acc = z[i];
    for (int k = i + 1; k < n; k++)
      acc -= a[i * n + k] * x[k];
    x[i] = acc;
  }
}
