/* Luma of npix pixels with a channel dimension of 3: a weighted sum over
 * the channels with the weights in a small array. */
void luma(int npix, const float px[npix][3], const float wts[3], float out[npix]) {
  for (int i = 0; i < npix; i++) {
    float s = 0.0f;
    for (int c = 0; c < 3; c++)
      s += wts[c] * px[i][c];
    out[i] = s;
  }
}
