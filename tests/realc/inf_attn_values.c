/* Weighted sum of cached values: out = sum_t att[t] * v[t]. */
void attn_values(float *out, const float *att, const float *v_cache,
                 int seq_len, int head_size) {
  for (int i = 0; i < head_size; i++)
    out[i] = 0.0f;
  for (int t = 0; t < seq_len; t++) {
    float a = att[t];
    for (int i = 0; i < head_size; i++)
      out[i] += a * v_cache[t * head_size + i];
  }
}
