/* ieee_times_zero.c - 0 * x is NaN for infinities and NaN. */
void kernel_ieee_times_zero(int n, double A[n], double B[n], double C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = A[i] * 0.0 + B[i];
}
