/* carried_count.c - how many positive elements so far. */
void kernel_carried_count(int n, double A[n], double B[n])
{
  double c = 0.0;
  for (int i = 0; i < n; i++) {
    if (A[i] > 0.0)
      c = c + 1.0;
    B[i] = c;
  }
}
