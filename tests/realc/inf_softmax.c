/* Numerically stable softmax in place: max from the first element, a
 * conditional max update, exponentials and a normalization. */
void softmax(float *x, int size) {
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++) {
    x[i] = expf(x[i] - max_val);
    sum += x[i];
  }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}
