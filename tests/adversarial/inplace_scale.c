/* inplace_scale.c - an in-place scaling (no dependence between
 * elements). */
void kernel_inplace_scale(int n, double A[n])
{
  for (int i = 0; i < n; i++)
    A[i] = 2.0 * A[i];
}
