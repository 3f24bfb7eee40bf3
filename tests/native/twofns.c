// uplift: --function scale
/* twofns.c - a plain C99 file with two candidate functions; the first-line
 * comment names the kernel, as benchmark files may. */
void scale(int n, int m, float alpha, float A[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] *= alpha;
}
void shift(int n, float A[n]) {
  for (int i = n - 1; i >= 1; i--)
    A[i] = A[i - 1];
}
