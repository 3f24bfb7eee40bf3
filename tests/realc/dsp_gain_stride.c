/* Take one channel of an interleaved signal (every stride-th sample) and
 * apply a gain. */
void gain_stride(const float *src, int stride, float gain, float *dst, int count) {
  for (int i = 0; i < count; i++)
    dst[i] = gain * src[i * stride];
}
