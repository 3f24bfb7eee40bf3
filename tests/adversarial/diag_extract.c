/* diag_extract.c - the diagonal of a matrix. */
void kernel_diag_extract(int n, double A[n][n], double d[n])
{
  for (int i = 0; i < n; i++)
    d[i] = A[i][i];
}
