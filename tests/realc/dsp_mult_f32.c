/* Elementwise product, the counter itself counted down. */
void dsp_mult_f32(const float *a, const float *b, float *out, unsigned int count) {
  while (count-- > 0)
    *out++ = *a++ * *b++;
}
