/* size_guard_only.c - m is used only by a guard. */
void kernel_size_guard_only(int n, int m, double A[n], double B[n])
{
  if (m > 1)
    for (int i = 0; i < n; i++)
      B[i] = A[i];
}
