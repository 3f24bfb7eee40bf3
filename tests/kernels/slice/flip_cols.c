/* flip_cols.c - the columns of a matrix in reverse order, scaled, and the
 * rows of another in reverse order added: B[i][j] = s * A[i][m-1-j] +
 * C[n-1-i][j].  Two reversals, of dim 1 and of dim 0 of a rank-2 array. */
void flip_cols(int n, int m, float s, float A[n][m], float B[n][m], float C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = s * A[i][m - 1 - j] + C[n - 1 - i][j];
}
