/* inplace_shift_down.c - the same shift downward: a real shift. */
void kernel_inplace_shift_down(int n, double A[n])
{
  for (int i = n - 1; i >= 1; i--)
    A[i] = A[i - 1];
}
