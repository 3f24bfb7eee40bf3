/* ieee_x_minus_x.c - x - x is NaN for infinities and NaN, not 0. */
void kernel_ieee_x_minus_x(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] - A[i];
}
