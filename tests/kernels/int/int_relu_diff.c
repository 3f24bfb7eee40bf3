/* int_relu_diff.c - integer difference of two images, negatives set to 0,
 * and the row maxima of the result. */
void kernel_int_relu_diff(int n, int m, int A[n][m], int B[n][m], int D[n][m],
                          int mx[n]) {
  for (int i = 0; i < n; i++) {
    mx[i] = 0;
    for (int j = 0; j < m; j++) {
      D[i][j] = A[i][j] - B[i][j] > 0 ? A[i][j] - B[i][j] : 0;
      mx[i] = D[i][j] > mx[i] ? D[i][j] : mx[i];
    }
  }
}
