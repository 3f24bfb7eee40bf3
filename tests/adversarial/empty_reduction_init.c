/* empty_reduction_init.c - B = C + row sums: B = C when m = 0. */
void kernel_empty_reduction_init(int n, int m, double A[n][m], double B[n], double C[n])
{
  for (int i = 0; i < n; i++) {
    B[i] = C[i];
    for (int j = 0; j < m; j++)
      B[i] += A[i][j];
  }
}
