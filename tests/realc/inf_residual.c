/* Residual connection: x += delta. */
void residual_add(float *x, const float *delta, int dim) {
  for (int i = 0; i < dim; i++)
    x[i] += delta[i];
}
