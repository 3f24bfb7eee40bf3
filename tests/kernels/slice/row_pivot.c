/* row_pivot.c - each row divided by its first element, plus a weight read
 * one row further down: A[i][0] is a column (the output's first dim) and
 * w[i + 1] a shifted vector, both slices of fewer dims than the output. */
void kernel_row_pivot(int n, int m, float B[n][m], float A[n][m], float w[n]) {
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] / A[i][0] + w[i + 1];
}
