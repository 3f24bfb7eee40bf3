/* carried_cond_reset.c - the accumulator restarts after a negative
 * element. */
void kernel_carried_cond_reset(int n, double A[n], double B[n])
{
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = s + A[i];
    if (A[i] < 0.0)
      s = 0.0;
    B[i] = s;
  }
}
