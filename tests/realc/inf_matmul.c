/* W (d,n) @ x (n) -> xout (d), weights stored row-major in a flat array. */
void matmul(float *xout, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float val = 0.0f;
    for (int j = 0; j < n; j++)
      val += w[i * n + j] * x[j];
    xout[i] = val;
  }
}
