/* thresh_select.c - a threshold on the index beyond small sizes. */
void kernel_thresh_select(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (i >= 30) ? 2.0 * A[i] : A[i];
}
