/* unsup_while.c - while loops are outside the subset. */
void kernel_unsup_while(int n, double A[n])
{
  int i = 0;
  while (i < n) {
    A[i] = 0.0;
    i++;
  }
}
