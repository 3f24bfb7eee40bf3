/* Add an offset to a block. */
#include <stdint.h>
void dsp_offset_f32(const float *pSrc, float offset, float *pDst, uint32_t blockSize) {
  for (uint32_t i = 0; i < blockSize; i++)
    *pDst++ = *pSrc++ + offset;
}
