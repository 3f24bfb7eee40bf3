/* unsup_break.c - an early exit. */
void kernel_unsup_break(int n, double A[n])
{
  for (int i = 0; i < n; i++) {
    if (A[i] < 0.0)
      break;
    A[i] = 1.0;
  }
}
