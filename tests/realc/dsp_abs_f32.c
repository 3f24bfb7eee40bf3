/* Absolute value of a block with pointer walks. */
void dsp_abs_f32(const float *pSrc, float *pDst, unsigned blockSize) {
  unsigned blkCnt = blockSize;
  while (blkCnt > 0U) {
    *pDst++ = fabsf(*pSrc++);
    blkCnt--;
  }
}
