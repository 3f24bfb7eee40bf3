/* thresh_min_bound.c - the loop stops at min(n, 10). */
void kernel_thresh_min_bound(int n, double A[n], double B[n])
{
  for (int i = 0; i < n && i < 10; i++)
    B[i] = 3.0 * A[i];
}
