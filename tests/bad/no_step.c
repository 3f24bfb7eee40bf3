// expect: 3:23 needs a lower bound
void kernel_ns(int n, double A[n]) {
  for (int i = n - 1; i < n; i--)
    A[i] = 0;
}
