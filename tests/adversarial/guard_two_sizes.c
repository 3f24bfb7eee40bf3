/* guard_two_sizes.c - a guard comparing two sizes, one of them used only
 * by the guard. */
void kernel_guard_two_sizes(int n, int m, double A[n], double B[n], double C[n])
{
  if (m > n) {
    for (int i = 0; i < n; i++)
      C[i] = A[i];
  } else {
    for (int i = 0; i < n; i++)
      C[i] = B[i];
  }
}
