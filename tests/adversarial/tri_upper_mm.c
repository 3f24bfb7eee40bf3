/* tri_upper_mm.c - an upper-triangular matrix times a matrix, the
 * triangle walked by the loop bounds: the C code never reads U below the
 * diagonal.  A program that multiplies a masked U by B gives NaN where an
 * infinite B element meets a masked-out zero: it may be proved only for
 * finite inputs, never plainly proved; the exact program masks the
 * products before the sum. */
void kernel_tri_upper_mm(int n, int m, double U[n][n], double B[n][m], double C[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      C[i][j] = 0.0;
      for (int k = i; k < n; k++)
        C[i][j] += U[i][k] * B[k][j];
    }
}
