/* ieee_self_eq.c - x == x is false for NaN. */
void kernel_ieee_self_eq(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] == A[i] ? 1.0 : 0.0;
}
