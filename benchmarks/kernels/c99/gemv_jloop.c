/*
 * gemv_jloop.c - plain C99 y := beta*y + A x with the column loop j outside
 * the row loop i (column-oriented traversal; A: n x m, x: m, y: n), in
 * `y = y + e` form.  Kernel: kernel_gemv_jloop.
 */

void kernel_gemv_jloop(int n, int m, double beta, double A[n][m],
                       double x[m], double y[n])
{
  for (int i = 0; i < n; i++)
    y[i] = beta * y[i];
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      y[i] = y[i] + A[i][j] * x[j];
}
