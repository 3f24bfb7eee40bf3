/* Rotary position embedding: needs cosf and sinf. */
void rope(float *q, const float *freq, float pos, int dim) {
  for (int i = 0; i < dim; i += 2) {
    float a = pos * freq[i / 2];
    float c = cosf(a), s = sinf(a);
    float q0 = q[i], q1 = q[i + 1];
    q[i] = q0 * c - q1 * s;
    q[i + 1] = q0 * s + q1 * c;
  }
}
