/* RMS normalization with the mean's divisor and epsilon passed in. */
void rmsnorm_eps(float *o, const float *x, const float *weight, float inv_n,
                 float eps, int size) {
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss = ss * inv_n + eps;
  float r = 1.0f / sqrtf(ss);
  for (int j = 0; j < size; j++)
    o[j] = weight[j] * (r * x[j]);
}
