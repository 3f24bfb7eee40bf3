/* conv3x3_weights.c - a 3x3 filter with its weights in an array over the
 * interior: y[i][j] = the sum of w[a][b] * x[i+a-1][j+b-1], written out.
 * linalg raises it as conv_2d(x, w) under the interior mask (issue 14);
 * before, its search ran out of the memory budget (5.4 GB after 26 s), as
 * hlo's and tosa's, which have no convolution op yet, still do: only
 * linalg raises it (tests/e2e_raise.sh). */
void kernel_conv3x3_weights(int n, int m, const float w[3][3], const float x[n][m], float y[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      y[i][j] = w[0][0] * x[i-1][j-1] + w[0][1] * x[i-1][j] + w[0][2] * x[i-1][j+1]
              + w[1][0] * x[i][j-1] + w[1][1] * x[i][j] + w[1][2] * x[i][j+1]
              + w[2][0] * x[i+1][j-1] + w[2][1] * x[i+1][j] + w[2][2] * x[i+1][j+1];
}
