/* carried_final.c - the last value of a scalar after the loop: A[n-1],
 * or 0 when n = 0. */
void kernel_carried_final(int n, double A[n], double out[1])
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = A[i];
  out[0] = s;
}
