/* Scale a block: while (n--) *dst++ = *src++ * scale. */
#include <stdint.h>
void dsp_scale_f32(const float *pSrc, float scale, float *pDst, uint32_t blockSize) {
  uint32_t n = blockSize;
  while (n--)
    *pDst++ = *pSrc++ * scale;
}
