/* inplace_transpose.c - A[i][j] = A[j][i] in place: the lower triangle
 * reads the already updated upper one and stays as it was. */
void kernel_inplace_transpose(int n, double A[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = A[j][i];
}
