/* FIR filter of fixed length: y[n] = sum_k h[k] x[n + k], NTAPS taps. */
#define NTAPS 5
void fir_fixed(int nout, const float h[NTAPS], const float x[nout + NTAPS - 1], float y[nout]) {
  for (int n = 0; n < nout; n++) {
    float acc = 0.0f;
    for (int k = 0; k < NTAPS; k++)
      acc += h[k] * x[n + k];
    y[n] = acc;
  }
}
