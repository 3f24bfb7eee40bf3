/* thresh_half.c - the first half (2i < n): at n <= 4 this is i <= 1, so a
 * constant threshold agrees with it on small sizes only. */
void kernel_thresh_half(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (2 * i < n) ? A[i] : 0.0;
}
