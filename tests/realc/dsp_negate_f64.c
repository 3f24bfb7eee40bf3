/* Negate a block of doubles. */
void dsp_negate_f64(const double *src, double *dst, int len) {
  int k = 0;
  while (k < len) {
    dst[k] = -src[k];
    k++;
  }
}
