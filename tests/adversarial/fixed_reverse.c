/* fixed_reverse.c - fixed-size arrays, no size parameter. */
void kernel_fixed_reverse(double A[8], double B[8])
{
  for (int i = 0; i < 8; i++)
    B[i] = A[7 - i];
}
