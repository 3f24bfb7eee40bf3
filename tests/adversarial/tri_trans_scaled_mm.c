/* tri_trans_scaled_mm.c - trmm's shape: C[i][j] gains alpha * A[k][i] *
 * B[k][j] for k past i only (A read transposed, below its diagonal).  A
 * program that multiplies a masked A by B gives NaN where an infinite B
 * element meets a masked-out zero, and one that scales the sum gives NaN
 * for an infinite alpha where the sum is empty (i = n - 1), where the C
 * code adds nothing. */
void kernel_tri_trans_scaled_mm(int n, int m, double alpha, double A[n][n], double B[n][m],
                                double C[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = i + 1; k < n; k++)
        C[i][j] += alpha * A[k][i] * B[k][j];
}
