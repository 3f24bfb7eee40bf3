/* ieee_recip_square.c - x * (1/x) * x is x over the reals for x != 0, but
 * NaN at 0 (0 * inf * 0) and at the infinities (inf * 0 * inf). */
void kernel_ieee_recip_square(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] * (1.0 / A[i]) * A[i];
}
