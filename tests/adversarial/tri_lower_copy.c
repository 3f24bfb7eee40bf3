/* tri_lower_copy.c - the lower triangle is copied; the rest of B keeps
 * its values. */
void kernel_tri_lower_copy(int n, double A[n][n], double B[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      B[i][j] = A[i][j];
}
