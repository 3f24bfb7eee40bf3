/* unsup_while.c - a counted while loop (once outside the subset; now made a for loop). */
void kernel_unsup_while(int n, double A[n])
{
  int i = 0;
  while (i < n) {
    A[i] = 0.0;
    i++;
  }
}
