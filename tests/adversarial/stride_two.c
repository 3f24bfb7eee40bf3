/* stride_two.c - every other element (a constant stride in the
 * subscript). */
void kernel_stride_two(int n, double A[2 * n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[2 * i] + A[2 * i + 1];
}
