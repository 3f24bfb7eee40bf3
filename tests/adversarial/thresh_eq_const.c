/* thresh_eq_const.c - one element past the small sizes is cleared. */
void kernel_thresh_eq_const(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (i == 5) ? 0.0 : A[i];
}
