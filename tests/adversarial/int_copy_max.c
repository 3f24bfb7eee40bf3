/* int_copy_max.c - int data compared and copied (no arithmetic). */
void kernel_int_copy_max(int n, int A[n], int B[n], int C[n])
{
  for (int i = 0; i < n; i++)
    C[i] = A[i] > B[i] ? A[i] : B[i];
}
