/* Clip a block to [low, high]. */
void dsp_clip_f32(const float *src, float *dst, float low, float high, int n) {
  for (int i = 0; i < n; i++)
    dst[i] = fminf(fmaxf(src[i], low), high);
}
