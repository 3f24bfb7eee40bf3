/* lu_solve.c - solve L U x = b given the two triangular factors packed in
 * one flat row-major matrix (unit lower L below the diagonal, U on and
 * above it), as a LAPACK-style getrs does: a prelude scales b, then a
 * forward substitution (y = L^-1 b) and a back substitution (x = U^-1 y),
 * two kept loops in sequence, the second running downward (not PolyBench
 * style: flat pointers, a[i * n + j], and one accumulator w that each
 * substitution writes before it reads it, so no value of it passes from
 * one item to the next).  Each item is raised on its own and run on the
 * arrays as the one before leaves them. */
void lu_solve(int n, const double *a, const double *b, double s, double *y, double *x) {
  double w;
  for (int i = 0; i < n; i++)
    y[i] = s * b[i];
  for (int i = 0; i < n; i++) {
    w = y[i];
    for (int j = 0; j < i; j++)
      w -= a[i * n + j] * y[j];
    y[i] = w;
  }
  for (int i = n - 1; i >= 0; i--) {
    w = y[i];
    for (int j = i + 1; j < n; j++)
      w -= a[i * n + j] * x[j];
    x[i] = w / a[i * n + i];
  }
}
