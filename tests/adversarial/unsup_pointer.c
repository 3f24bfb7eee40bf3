/* unsup_pointer.c - pointer parameters. */
void kernel_unsup_pointer(int n, double *A, double *B)
{
  for (int i = 0; i < n; i++)
    B[i] = A[i];
}
