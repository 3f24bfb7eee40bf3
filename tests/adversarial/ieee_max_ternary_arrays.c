/* ieee_max_ternary_arrays.c - a >= b ? a : b: with a NaN operand, b. */
void kernel_ieee_max_ternary_arrays(int n, double A[n], double B[n], double C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = A[i] >= B[i] ? A[i] : B[i];
}
