/* cast_float_store.c - a double stored into a float array, doubled. */
void kernel_cast_float_store(int n, double A[n], float B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] * 2.0;
}
