/* Signal power (sum of squares) with a counted pointer walk, returned. */
#include <stdint.h>
typedef float float32_t;
float32_t power_f32(const float32_t *pSrc, uint32_t blockSize) {
  float32_t sum = 0.0f;
  uint32_t blkCnt = blockSize;
  while (blkCnt > 0U) {
    float32_t in = *pSrc++;
    sum += in * in;
    blkCnt--;
  }
  return sum;
}
