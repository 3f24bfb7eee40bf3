/* ieee_zero_minus.c - 0.0 - a is not -a: 0 - (+0) is +0, -(+0) is -0. */
void kernel_ieee_zero_minus(int n, const double *a, double *out)
{
  for (int i = 0; i < n; i++)
    out[i] = 0.0 - a[i];
}
