/* cast_float_roundtrip.c - a double rounded through float is not the
 * double (0.1), and overflows to inf above 3.4e38. */
void kernel_cast_float_roundtrip(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (double)(float)A[i];
}
