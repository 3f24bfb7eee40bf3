/* unsup_int_cast.c - a cast to int (truncation). */
void kernel_unsup_int_cast(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (int)A[i];
}
