// expect: 5:3 'while' is not supported
void kernel_w(int n, double A[n]) {
  double x;
  x = 0;
  while (x < 1.0)
    x += 1.0;
}
