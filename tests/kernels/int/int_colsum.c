/* int_colsum.c - column sums of an integer matrix, s[j] = sum_i A[i][j]. */
void kernel_int_colsum(int n, int m, int A[n][m], int s[m]) {
  for (int j = 0; j < m; j++) {
    s[j] = 0;
    for (int i = 0; i < n; i++)
      s[j] += A[i][j];
  }
}
