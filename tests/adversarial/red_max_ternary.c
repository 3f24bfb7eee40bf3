/* red_max_ternary.c - a maximum by ?: from A[0]: a NaN is dropped by the
 * next comparison, it does not propagate. */
void kernel_red_max_ternary(int n, double A[n + 1], double out[1])
{
  double m = A[0];
  for (int i = 1; i <= n; i++)
    m = m > A[i] ? m : A[i];
  out[0] = m;
}
