/* inplace_reverse.c - A[i] = A[n-1-i] in place: the second half reads the
 * new first half (a palindrome, not a reversal). */
void kernel_inplace_reverse(int n, double A[n])
{
  for (int i = 0; i < n; i++)
    A[i] = A[n - 1 - i];
}
