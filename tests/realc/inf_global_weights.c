/* A model's weights as file-scope arrays (as a small inference file keeps
 * them), the activations as parameters: out = W x + b for a batch. */
#define DIM_IN 6
#define DIM_OUT 5
float W[DIM_OUT][DIM_IN];
float bvec[DIM_OUT];
void forward(int batch, const float x[batch][DIM_IN], float out[batch][DIM_OUT]) {
  for (int n = 0; n < batch; n++)
    for (int o = 0; o < DIM_OUT; o++) {
      float acc = bvec[o];
      for (int i = 0; i < DIM_IN; i++)
        acc += W[o][i] * x[n][i];
      out[n][o] = acc;
    }
}
