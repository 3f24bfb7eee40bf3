// expect: 4:17 comma operator
void kernel_cm(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = (A[i], 1.0);
}
