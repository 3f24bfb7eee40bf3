// expect: 5:12 not the iterator of an enclosing loop
void kernel_il(int n, double A[n]) {
  int i, t;
  for (i = 0; i < n; i++)
    A[i] = t;
}
