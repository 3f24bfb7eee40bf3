/* Per-channel gain on interleaved RGB pixels through pointers: the flat
 * index 3*i + c is the row i, column c of a [npix][3] array. */
void rgb_gain_ptr(const float *src, float *dst, const float *gain, int npix) {
  for (int i = 0; i < npix; i++)
    for (int c = 0; c < 3; c++)
      dst[3 * i + c] = src[3 * i + c] * gain[c];
}
