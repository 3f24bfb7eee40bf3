/* SwiGLU gate: h1 = silu(h1) * h3 elementwise. */
void swiglu(float *h1, const float *h3, int hidden) {
  for (int i = 0; i < hidden; i++) {
    float v = h1[i];
    v *= 1.0f / (1.0f + expf(-v));
    h1[i] = v * h3[i];
  }
}
