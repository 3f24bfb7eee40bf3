/* Maximum of a block (no index) with a pointer walk and a conditional
 * update of the running maximum. */
#include <float.h>
#include <stdint.h>
typedef float float32_t;
void dsp_max_no_idx_f32(const float32_t *pSrc, uint32_t blockSize, float32_t *pResult) {
  float32_t maxVal = -FLT_MAX;
  uint32_t blkCnt = blockSize;
  while (blkCnt > 0U) {
    float32_t cur = *pSrc++;
    if (cur > maxVal)
      maxVal = cur;
    blkCnt--;
  }
  *pResult = maxVal;
}
