/* Row softmax, Polybench style: a row maximum in an array accumulator
 * initialised to -INFINITY and updated by a conditional, exponentials and a
 * normalization. */
#include <math.h>
void kernel_softmax(int n, int m, float x[n][m], float mx[n], float sum[n], float y[n][m]) {
  int i, j;
  for (i = 0; i < n; i++) {
    mx[i] = -INFINITY;
    for (j = 0; j < m; j++)
      if (x[i][j] > mx[i])
        mx[i] = x[i][j];
    sum[i] = 0.0f;
    for (j = 0; j < m; j++) {
      y[i][j] = expf(x[i][j] - mx[i]);
      sum[i] += y[i][j];
    }
    for (j = 0; j < m; j++)
      y[i][j] = y[i][j] / sum[i];
  }
}
