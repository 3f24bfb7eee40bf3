/* carried_across_rows.c - the accumulator is not reset per row: B[i] is
 * the sum of rows 0..i. */
void kernel_carried_across_rows(int n, int m, double A[n][m], double B[n])
{
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      s += A[i][j];
    B[i] = s;
  }
}
