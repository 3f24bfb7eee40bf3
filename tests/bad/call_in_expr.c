// expect: 5:12 call to 'helper' is not supported
double helper(double x) { return x; }
void kernel_c(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = helper(A[i]) + 1.0;
}
