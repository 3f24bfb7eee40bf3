/* thresh_if_iter.c - an affine if on the iterator with a constant beyond 3. */
void kernel_thresh_if_iter(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++) {
    if (i > 5)
      B[i] = A[i];
    else
      B[i] = 0.0;
  }
}
