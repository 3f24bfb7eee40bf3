/* unsup_pointer.c - pointer parameters (once outside the subset; now shaped from their accesses). */
void kernel_unsup_pointer(int n, double *A, double *B)
{
  for (int i = 0; i < n; i++)
    B[i] = A[i];
}
