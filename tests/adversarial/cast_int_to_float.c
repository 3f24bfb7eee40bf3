/* cast_int_to_float.c - int data added in int, then rounded to float:
 * 16777217 + 1 is exact in int, not after rounding each operand. */
void kernel_cast_int_to_float(int n, int A[n], int B[n], float C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = A[i] + B[i];
}
