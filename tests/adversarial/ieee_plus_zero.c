/* ieee_plus_zero.c - a + 0.0 is not a: -0 + 0 is +0.  A program `A` is
 * wrong at A[i] = -0 (e2e_sizes.sh checks the raised program). */
void kernel_ieee_plus_zero(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] + 0.0;
}
