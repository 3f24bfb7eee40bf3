/* tri_strict_upper_sum.c - sums right of the diagonal: the last row's is
 * empty (0). */
void kernel_tri_strict_upper_sum(int n, double A[n][n], double B[n])
{
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = i + 1; j < n; j++)
      s += A[i][j];
    B[i] = s;
  }
}
