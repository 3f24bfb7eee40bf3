/* size_value_only.c - m is used only as a value. */
void kernel_size_value_only(int n, int m, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] * m;
}
