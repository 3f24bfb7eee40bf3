/* stencil2d.c - a 5-point stencil over the interior of an n x m grid:
 * B[i][j] = 0.2 * (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
 * B keeps its border. */
void kernel_stencil2d(int n, int m, float A[n][m], float B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
