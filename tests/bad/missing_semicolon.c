// expect: 4:13 expected ';'
void kernel_ms(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = 0
}
