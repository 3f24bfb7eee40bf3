/* FIR filter: y[n] = sum_k h[k] x[n + k] over a history of taps samples. */
void fir(const float *x, const float *h, float *y, int nout, int taps) {
  for (int n = 0; n < nout; n++) {
    float acc = 0.0f;
    for (int k = 0; k < taps; k++)
      acc += h[k] * x[n + k];
    y[n] = acc;
  }
}
