/* cast_iter_value.c - the iterator as a value. */
void kernel_cast_iter_value(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (double)i * A[i];
}
