/* Row softmax over flat row-major data, out of place: each row's maximum in
 * a local scalar started at -INFINITY, a conditional update, the sum of the
 * exponentials in another local. */
#include <math.h>
void softmax_rows_local(const float *logits, float *probs, int batch, int classes) {
  for (int b = 0; b < batch; b++) {
    float mx = -INFINITY;
    for (int c = 0; c < classes; c++) {
      float v = logits[b * classes + c];
      if (v > mx)
        mx = v;
    }
    float sum = 0.0f;
    for (int c = 0; c < classes; c++) {
      probs[b * classes + c] = expf(logits[b * classes + c] - mx);
      sum += probs[b * classes + c];
    }
    float inv = 1.0f / sum;
    for (int c = 0; c < classes; c++)
      probs[b * classes + c] *= inv;
  }
}
