/* thresh_loop_start.c - a loop from a constant: nothing happens below
 * n = 31, and B[0..29] always keep their values. */
void kernel_thresh_loop_start(int n, double A[n], double B[n])
{
  for (int k = 30; k < n; k++)
    B[k] = A[k] + 1.0;
}
