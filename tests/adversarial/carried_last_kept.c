/* carried_last_kept.c - s keeps the last element above -100 (NaN, -inf and
 * -1e300 are not above it): scalar expansion to A is wrong. */
void kernel_carried_last_kept(int n, double A[n], double B[n])
{
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (A[i] > -100.0)
      s = A[i];
    B[i] = s;
  }
}
