/* loop_const_start.c - B[i] = A[i] + A[i-2] from i = 2. */
void kernel_loop_const_start(int n, double A[n], double B[n])
{
  for (int i = 2; i < n; i++)
    B[i] = A[i] + A[i - 2];
}
