/* offset_shift.c - B[i] = A[i-1] from 1: B[0] keeps its value. */
void kernel_offset_shift(int n, double A[n], double B[n])
{
  for (int i = 1; i < n; i++)
    B[i] = A[i - 1];
}
