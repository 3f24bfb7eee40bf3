/* Dot product with pointer walks, result through a pointer. */
#include <stdint.h>
void dsp_dot_prod_f32(const float *pSrcA, const float *pSrcB, uint32_t blockSize,
                      float *result) {
  float sum = 0.0f;
  uint32_t blkCnt = blockSize;
  while (blkCnt > 0U) {
    sum += (*pSrcA++) * (*pSrcB++);
    blkCnt--;
  }
  *result = sum;
}
