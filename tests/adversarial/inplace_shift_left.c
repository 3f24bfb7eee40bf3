/* inplace_shift_left.c - A[i] = A[i+1] reads values not yet written. */
void kernel_inplace_shift_left(int n, double A[n])
{
  for (int i = 0; i < n - 1; i++)
    A[i] = A[i + 1];
}
