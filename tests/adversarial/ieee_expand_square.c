/* ieee_expand_square.c - (x - z)^2 is x*x - 2*x*z + z*z over the reals,
 * but at x = inf the expanded form is inf - inf = NaN. */
void kernel_ieee_expand_square(int n, double A[n], double C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] * A[i] - 2.0 * A[i] * C[i] + C[i] * C[i];
}
