/* uninit.c - reads a local array before writing it: the interpreter marks
 * the output as poison (uninitialized), so `uplift run --native` must refuse
 * to compare and exit 3; without --native it warns and exits 0. */
void kernel_uninit(int n, double A[n]) {
  double tmp[n];
  for (int i = 0; i < n; i++)
    A[i] = tmp[i] + 1.0;
}
