/* Running maximum written with ?: (an inference helper's max pass). */
#include <float.h>
void max_pass(const float *logits, int vocab, float *out) {
  float m = -FLT_MAX;
  for (int v = 0; v < vocab; v++)
    m = logits[v] > m ? logits[v] : m;
  out[0] = m;
}
