/* int_mul.c - int data multiplied (overflow is undefined in C). */
void kernel_int_mul(int n, int A[n], int B[n], int C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = A[i] * B[i] + 1;
}
