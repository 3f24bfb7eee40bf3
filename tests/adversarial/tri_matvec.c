/* tri_matvec.c - a lower-triangular matrix-vector product: x[j] for j > i
 * is never read for row i (an inf there does not matter). */
void kernel_tri_matvec(int n, double L[n][n], double x[n], double y[n])
{
  for (int i = 0; i < n; i++) {
    y[i] = 0.0;
    for (int j = 0; j <= i; j++)
      y[i] += L[i][j] * x[j];
  }
}
