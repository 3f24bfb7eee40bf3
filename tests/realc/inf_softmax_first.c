/* Row softmax, Polybench style, the row maximum in an array started at the
 * row's first element and updated from the second on. */
#include <math.h>
void kernel_softmax_first(int n, int m, float A[n][m], float mx[n], float s[n]) {
  int i, j;
  for (i = 0; i < n; i++) {
    mx[i] = A[i][0];
    for (j = 1; j < m; j++)
      if (A[i][j] > mx[i])
        mx[i] = A[i][j];
    s[i] = 0.0f;
    for (j = 0; j < m; j++) {
      A[i][j] = expf(A[i][j] - mx[i]);
      s[i] += A[i][j];
    }
    for (j = 0; j < m; j++)
      A[i][j] /= s[i];
  }
}
