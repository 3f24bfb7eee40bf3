/* guard_else.c - the branch taken depends on the size only: -A below 4. */
void kernel_guard_else(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++) {
    if (n >= 4)
      B[i] = A[i];
    else
      B[i] = -A[i];
  }
}
