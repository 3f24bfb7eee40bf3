/* ieee_add_sub.c - (a + c) - c is not a: absorption (1e300 + 0.1) and
 * infinities. */
void kernel_ieee_add_sub(int n, double A[n], double C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (A[i] + C[i]) - C[i];
}
