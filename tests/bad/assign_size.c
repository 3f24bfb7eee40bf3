// expect: 3:3 cannot assign to the size parameter
void kernel_a(int n, double A[n]) {
  n = 4;
  for (int i = 0; i < n; i++)
    A[i] = 0;
}
