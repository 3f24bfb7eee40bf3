/* ieee_relu_gt.c - A > 0 ? A : 0 gives 0 for NaN. */
void kernel_ieee_relu_gt(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] > 0 ? A[i] : 0;
}
