/* diff_ptr.c - a forward difference through pointers: d[i] = x[i+1] - x[i]
 * for i < n-1.  d's accesses reach n - 1 elements: the pointer is padded to
 * [n] (the kernel never touches d[n-1]), x is [n]. */
void diff_ptr(int n, const float *x, float *d) {
  for (int i = 0; i < n - 1; i++)
    d[i] = x[i + 1] - x[i];
}
