/* fixed_interior.c - a loop over the interior 1 .. N-2 of fixed arrays: the
 * bound N - 2 is counted from the end; the first and last elements of b
 * keep their old values. */
#define N 64
void kernel_fixed_interior(const double a[N], double b[N])
{
  for (int i = 1; i < N - 1; i++)
    b[i] = a[i] * 2.0;
}
