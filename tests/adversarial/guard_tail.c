/* guard_tail.c - only the elements below n - 3 are written; the last three
 * (all of them for n <= 3) keep their values. */
void kernel_guard_tail(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    if (i < n - 3)
      B[i] = A[i] * 3.0;
}
