/* Horizontal 3-tap box filter on a flat image (width w, interior only). */
void box_row(const float *in, float *out, int h, int w) {
  for (int y = 0; y < h; y++)
    for (int x = 1; x < w - 1; x++)
      out[y * w + x] = (in[y * w + x - 1] + in[y * w + x] + in[y * w + x + 1]) * (1.0f / 3.0f);
}
