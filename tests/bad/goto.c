// expect: 4:3 'goto' is not supported
void kernel_g(int n, double A[n]) {
  double x = 0;
  goto end;
}
