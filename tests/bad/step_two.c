// expect: 3:26 step must be +1 or -1
void kernel_s2(int n, double A[n]) {
  for (int i = 0; i < n; i += 2)
    A[i] = 0;
}
