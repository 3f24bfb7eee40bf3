/* ieee_finite_test.c - x - x == 0 holds only for finite x. */
void kernel_ieee_finite_test(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (A[i] - A[i] == 0.0) ? A[i] : 0.0;
}
