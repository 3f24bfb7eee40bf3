/* diag_set.c - ones on the diagonal, in place. */
void kernel_diag_set(int n, double A[n][n])
{
  for (int i = 0; i < n; i++)
    A[i][i] = 1.0;
}
