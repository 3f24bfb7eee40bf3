/* guard_loop.c - a whole loop under a size guard: at n <= 2 nothing is
 * written and B keeps its values. */
void kernel_guard_loop(int n, double A[n], double B[n])
{
  if (n > 2)
    for (int i = 0; i < n; i++)
      B[i] = 2.0 * A[i];
}
