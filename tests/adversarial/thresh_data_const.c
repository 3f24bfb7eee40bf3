/* thresh_data_const.c - a data threshold: NaN > 0.5 is false, so NaN
 * gives 0.5 (a NaN-propagating maximum would give NaN). */
void kernel_thresh_data_const(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i] > 0.5 ? A[i] : 0.5;
}
