/* offset_size_shift.c - a subscript shifted by another size. */
void kernel_offset_size_shift(int n, int m, double A[n + m], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i + m];
}
