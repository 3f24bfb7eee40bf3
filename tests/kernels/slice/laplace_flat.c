/* laplace_flat.c - a 5-point Laplacian on a flat row-major image of h rows
 * of w pixels, interior only: out[y*w + x] = the four neighbours of in at
 * (y, x) minus 4 times in[y*w + x].  out's rows reach h - 1 (padded to h),
 * in's reach h. */
void laplace_flat(const float *in, float *out, int h, int w) {
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++)
      out[y * w + x] = in[(y - 1) * w + x] + in[(y + 1) * w + x] + in[y * w + x - 1] +
                       in[y * w + x + 1] - 4.0f * in[y * w + x];
}
