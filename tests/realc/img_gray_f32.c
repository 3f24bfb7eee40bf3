/* RGB (interleaved) to gray on float pixels. */
void rgb_to_gray(const float *rgb, float *gray, int npix) {
  for (int i = 0; i < npix; i++)
    gray[i] = 0.299f * rgb[3 * i] + 0.587f * rgb[3 * i + 1] + 0.114f * rgb[3 * i + 2];
}
