/* ieee_relu_lt.c - A < 0 ? 0 : A keeps NaN. */
void kernel_ieee_relu_lt(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] < 0 ? 0 : A[i];
}
