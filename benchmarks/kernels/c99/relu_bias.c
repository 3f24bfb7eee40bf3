/*
 * relu_bias.c - plain C99 dense-layer epilogue Y = max(X + b, 0) with the
 * bias b broadcast along rows (X, Y: n x m, b: m).  The sum is a local
 * scalar declared inside the inner loop and the clamp is a ternary.
 * Kernel: kernel_relu_bias.
 */

void kernel_relu_bias(int n, int m, double X[n][m], double b[m],
                      double Y[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double v = X[i][j] + b[j];
      Y[i][j] = v > 0.0 ? v : 0.0;
    }
}
