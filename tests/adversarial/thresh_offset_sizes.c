/* thresh_offset_sizes.c - a loop from one size to another: empty unless
 * m > n + 2. */
void kernel_thresh_offset_sizes(int n, int m, double A[m], double B[m])
{
  for (int i = n + 2; i < m; i++)
    B[i] = A[i] * A[i];
}
