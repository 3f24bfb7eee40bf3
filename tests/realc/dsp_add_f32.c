/* Elementwise add with a block counter and pointer walks. */
#include <stdint.h>
typedef float float32_t;
void dsp_add_f32(const float32_t *pSrcA, const float32_t *pSrcB, float32_t *pDst,
                 uint32_t blockSize) {
  uint32_t blkCnt = blockSize;
  while (blkCnt > 0U) {
    *pDst++ = (*pSrcA++) + (*pSrcB++);
    blkCnt--;
  }
}
