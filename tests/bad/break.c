// expect: 5:21 'break' is not supported
void kernel_b(int n, double A[n]) {
  for (int i = 0; i < n; i++) {
    A[i] = 0;
    if (A[i] > 1.0) break;
  }
}
