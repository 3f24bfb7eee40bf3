/* unsup_indirect.c - an indirect subscript (a gather). */
void kernel_unsup_indirect(int n, int idx[n], double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[idx[i]];
}
