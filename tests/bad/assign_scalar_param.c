// expect: 3:3 cannot assign to the scalar parameter
void kernel_a(int n, double alpha, double A[n]) {
  alpha = 2.0;
}
