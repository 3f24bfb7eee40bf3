/* ieee_recip_recip.c - 1 / (1 / x) is x in IEEE (1/+-0 = +-inf, 1/+-inf =
 * +-0), while x * (1/x) * x, equal to it over the reals, is NaN at 0. */
void kernel_ieee_recip_recip(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = 1.0 / (1.0 / A[i]);
}
