/* ieee_fabs_negzero.c - fabs(-0) is +0: a program that negates where
 * x < 0 and keeps x elsewhere gives -0 at x = -0. */
void kernel_ieee_fabs_negzero(int n, double X[n], double Y[n])
{
  for (int i = 0; i < n; i++)
    Y[i] = fabs(X[i]);
}
