// expect: 4:21 'continue' is not supported
void kernel_c(int n, double A[n]) {
  for (int i = 0; i < n; i++) {
    if (A[i] > 1.0) continue;
    A[i] = 0;
  }
}
