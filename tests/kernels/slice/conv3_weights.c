/* conv3_weights.c - a 3-tap filter with its weights in an array over the
 * interior 1 <= i < n-1: y[i] = w[0]*x[i-1] + w[1]*x[i] + w[2]*x[i+1].
 * linalg raises it as one same convolution, conv_1d(x, w) under the
 * interior's mask (issue 14; 14 ops of slices, maps and broadcasts
 * before); hlo and tosa, which have no convolution op yet, as the sum of
 * the aligned operands' products. */
void kernel_conv3_weights(int n, const float w[3], const float x[n], float y[n]) {
  for (int i = 1; i < n - 1; i++)
    y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
}
