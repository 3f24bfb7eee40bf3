/* differs.c - native behaviour that differs from what the front end sees:
 * uplift's front end preprocesses without optimization, the native build
 * uses -O2, which defines __OPTIMIZE__.  The cross-check must catch the
 * difference (exit 3, naming the first differing element). */
void kernel_differs(int n, double A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
#ifdef __OPTIMIZE__
      A[i][j] = A[i][j] + (i == n - 1 && j == 1 ? 2.0 : 1.0);
#else
      A[i][j] = A[i][j] + 1.0;
#endif
}
