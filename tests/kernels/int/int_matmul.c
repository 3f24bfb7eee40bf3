/* int_matmul.c - integer matrix product C = A * B + 3 * C. */
void kernel_int_matmul(int ni, int nj, int nk, int A[ni][nk], int B[nk][nj],
                       int C[ni][nj]) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      C[i][j] = 3 * C[i][j];
      for (int k = 0; k < nk; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}
