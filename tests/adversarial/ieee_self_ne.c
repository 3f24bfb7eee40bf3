/* ieee_self_ne.c - NaN replaced by 0. */
void kernel_ieee_self_ne(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (A[i] != A[i]) ? 0.0 : A[i];
}
