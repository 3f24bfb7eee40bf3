/* inplace_prefix.c - an in-place running sum. */
void kernel_inplace_prefix(int n, double A[n])
{
  for (int i = 1; i < n; i++)
    A[i] = A[i] + A[i - 1];
}
