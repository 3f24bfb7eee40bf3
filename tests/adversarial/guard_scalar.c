/* guard_scalar.c - a scalar set under a size guard, then used everywhere:
 * s is 1 only when n > 2. */
void kernel_guard_scalar(int n, double A[n], double B[n])
{
  double s = 0.0;
  if (n > 2)
    s = 1.0;
  for (int i = 0; i < n; i++)
    B[i] = A[i] + s;
}
