/* A linear layer out = W in + bias whose weight rows are ldw floats apart
 * (a slice of a wider weight matrix). */
void linear_ld(float *out, const float *w, int ldw, const float *in, const float *bias,
               int nout, int nin) {
  for (int o = 0; o < nout; o++) {
    float acc = bias[o];
    for (int i = 0; i < nin; i++)
      acc += w[o * ldw + i] * in[i];
    out[o] = acc;
  }
}
