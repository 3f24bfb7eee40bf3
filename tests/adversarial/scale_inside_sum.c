/* scale_inside_sum.c - y += alpha * A x with alpha inside every product:
 * at m = 0 the loops leave y as it is, whatever alpha; a program that
 * scales the (empty) sum afterwards gives inf * 0 = NaN for an infinite
 * alpha. */
void kernel_scale_inside_sum(int n, int m, double alpha, double A[n][m], double x[m],
                             double y[n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i] += alpha * A[i][j] * x[j];
}
