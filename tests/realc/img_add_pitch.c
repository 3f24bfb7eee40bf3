/* Sum of two float images of width w and height h whose rows are pitch
 * pixels apart (rows padded for alignment). */
void add_pitch(float *dst, const float *a, const float *b, int w, int h, int pitch) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      dst[y * pitch + x] = a[y * pitch + x] + b[y * pitch + x];
}
