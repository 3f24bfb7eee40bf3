/* oob.c - an out-of-bounds write (undefined behaviour in C): the
 * interpreter stops with a positioned runtime error naming the index and the
 * shape (exit 2), natively it would silently corrupt memory. */
void kernel_oob(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++)
    A[i + 1] = B[i];
}
