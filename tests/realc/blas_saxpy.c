/* y = alpha x + y, unit strides, size after the arrays. */
#include <stddef.h>
void saxpy(float *restrict y, const float *restrict x, float alpha, size_t n) {
  for (size_t i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];
}
