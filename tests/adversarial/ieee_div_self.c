/* ieee_div_self.c - x / x is NaN for 0, infinities and NaN. */
void kernel_ieee_div_self(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] / A[i];
}
