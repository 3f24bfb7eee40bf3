/* inplace_two_arrays.c - two statements: the second reads A after the
 * first updated it. */
void kernel_inplace_two_arrays(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++) {
    A[i] = A[i] + 1.0;
    B[i] = A[i] * B[i];
  }
}
