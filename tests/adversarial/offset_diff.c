/* offset_diff.c - forward differences; B[n-1] keeps its value, and at
 * n = 1 nothing is written. */
void kernel_offset_diff(int n, double A[n], double B[n])
{
  for (int i = 0; i < n - 1; i++)
    B[i] = A[i + 1] - A[i];
}
