// expect: 6:5 cannot assign to the loop iterator
void kernel_a(int n, double A[n]) {
  int i;
  for (i = 0; i < n; i++) {
    A[i] = 0;
    i = i + 1;
  }
}
