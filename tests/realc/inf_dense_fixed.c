/* A dense layer with compile-time feature counts. */
#define IN_FEATURES 8
#define OUT_FEATURES 4
void dense_fixed(int batch, const float in[batch][IN_FEATURES],
                 const float w[IN_FEATURES][OUT_FEATURES], const float bias[OUT_FEATURES],
                 float out[batch][OUT_FEATURES]) {
  for (int b = 0; b < batch; b++)
    for (int o = 0; o < OUT_FEATURES; o++) {
      float acc = bias[o];
      for (int i = 0; i < IN_FEATURES; i++) acc += in[b][i] * w[i][o];
      out[b][o] = acc;
    }
}
