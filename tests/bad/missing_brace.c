// expect: 5:2 expected '}'
void kernel_mb(int n, double A[n]) {
  for (int i = 0; i < n; i++) {
    A[i] = 0;
}
