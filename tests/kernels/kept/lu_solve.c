/* lu_solve.c - solve L U x = b given the two triangular factors packed in
 * one flat row-major matrix (unit lower L below the diagonal, U on and
 * above it), as a LAPACK-style getrs does: a prelude scales b, then a
 * forward substitution (y = L^-1 b) and a back substitution (x = U^-1 y),
 * two kept loops in sequence, the second running downward (not PolyBench
 * style: flat pointers, a[i * n + j]).  Each item is raised on its own and
 * run on the arrays as the one before leaves them. */
void lu_solve(int n, const double *a, const double *b, double s, double *y, double *x) {
  for (int i = 0; i < n; i++)
    y[i] = s * b[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      y[i] -= a[i * n + j] * y[j];
  for (int i = n - 1; i >= 0; i--) {
    x[i] = y[i];
    for (int j = i + 1; j < n; j++)
      x[i] -= a[i * n + j] * x[j];
    x[i] = x[i] / a[i * n + i];
  }
}
