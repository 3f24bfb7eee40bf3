/* Attention scores of one query against every cached key (keys of one
 * head stored row by row, head_size floats each). */
void attn_scores(float *att, const float *q, const float *k_cache, float scale,
                 int seq_len, int head_size) {
  for (int t = 0; t < seq_len; t++) {
    float score = 0.0f;
    for (int i = 0; i < head_size; i++)
      score += q[i] * k_cache[t * head_size + i];
    att[t] = score * scale;
  }
}
