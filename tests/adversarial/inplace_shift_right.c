/* inplace_shift_right.c - A[i] = A[i-1] upward reads what the loop just
 * wrote: every element becomes A[0]. */
void kernel_inplace_shift_right(int n, double A[n])
{
  for (int i = 1; i < n; i++)
    A[i] = A[i - 1];
}
