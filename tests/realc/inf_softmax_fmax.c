/* Row softmax over flat row-major data with fmaxf: each row's maximum in a
 * local scalar started at -FLT_MAX. */
#include <math.h>
#include <float.h>
void softmax2d(int n, int m, const float *in, float *out) {
  for (int i = 0; i < n; i++) {
    float mx = -FLT_MAX;
    for (int j = 0; j < m; j++)
      mx = fmaxf(mx, in[i * m + j]);
    float s = 0.0f;
    for (int j = 0; j < m; j++) {
      out[i * m + j] = expf(in[i * m + j] - mx);
      s += out[i * m + j];
    }
    for (int j = 0; j < m; j++)
      out[i * m + j] = out[i * m + j] / s;
  }
}
