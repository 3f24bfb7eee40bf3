/* carried_prev.c - differences with the previous element, 0 before the
 * first. */
void kernel_carried_prev(int n, double A[n], double B[n])
{
  double p = 0.0;
  for (int i = 0; i < n; i++) {
    B[i] = A[i] - p;
    p = A[i];
  }
}
