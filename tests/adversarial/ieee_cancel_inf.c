/* ieee_cancel_inf.c - (x + z - x) * x is z * x over the reals, but NaN
 * at an infinite x (inf - inf), where z * x is an infinity. */
void kernel_ieee_cancel_inf(int n, double A[n], double C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (A[i] + C[i] - A[i]) * A[i];
}
