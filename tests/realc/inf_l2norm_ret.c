/* Euclidean norm of a vector, returned (an inference helper's l2 norm). */
#include <math.h>
static float l2_norm(const float *restrict x, int size) {
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  return sqrtf(ss);
}
