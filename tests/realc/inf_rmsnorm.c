/* RMS normalization of an activation vector, inference-helper style:
 * o = w * x / sqrt(mean(x^2) + eps). */
void rmsnorm(float *o, const float *x, const float *weight, int size) {
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf(ss);
  for (int j = 0; j < size; j++)
    o[j] = weight[j] * (ss * x[j]);
}
