/* empty_stencil.c - a three-point average over the interior: empty below
 * n = 3; the two ends keep their values. */
void kernel_empty_stencil(int n, double A[n], double B[n])
{
  for (int i = 1; i < n - 1; i++)
    B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
}
