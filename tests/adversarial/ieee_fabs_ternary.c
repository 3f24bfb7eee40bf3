/* ieee_fabs_ternary.c - x < 0 ? -x : x keeps NaN and -0 (as fabs would,
 * up to the sign of zero). */
void kernel_ieee_fabs_ternary(int n, float A[n], float B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] < 0.0f ? -A[i] : A[i];
}
