/* Remove the DC offset of a block: subtract its mean, computed with the
 * block length converted explicitly. */
#include <stdint.h>
void dsp_dc_remove(const double *src, double *dst, uint32_t len) {
  double mean = 0.0;
  for (uint32_t i = 0; i < len; i++)
    mean += src[i];
  mean = mean / (double)len;
  for (uint32_t i = 0; i < len; i++)
    dst[i] = src[i] - mean;
}
