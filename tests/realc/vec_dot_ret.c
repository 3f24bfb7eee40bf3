/* Vectorization-suite dot product returning its value. */
float vdotr(const float *a, const float *b, int n) {
  float dot = 0.0f;
  for (int i = 0; i < n; i++)
    dot += a[i] * b[i];
  return dot;
}
