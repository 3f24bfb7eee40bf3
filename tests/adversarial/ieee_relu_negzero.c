/* ieee_relu_negzero.c - x < 0 ? 0 : x keeps -0, maximum(x, 0) gives +0
 * (IEEE maximum orders -0 below +0). */
void kernel_ieee_relu_negzero(int n, double X[n], double Y[n])
{
  for (int i = 0; i < n; i++)
    Y[i] = X[i] < 0.0 ? 0.0 : X[i];
}
