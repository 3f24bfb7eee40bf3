/* i64_scale_abs.c - 64-bit integer data (int64_t, long): column sums of
 * 3*A, and |A| element by element. */
#include <stdint.h>
void kernel_i64_scale_abs(int n, int m, int64_t A[n][m], long s[m], long B[n][m]) {
  for (int j = 0; j < m; j++) {
    s[j] = 0;
    for (int i = 0; i < n; i++)
      s[j] += A[i][j] * 3;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] > 0 ? A[i][j] : -A[i][j];
}
