// expect: 5:10 unsupported while loop
void kernel_w(int n, double A[n]) {
  double x;
  x = 0;
  while (x < 1.0)
    x += 1.0;
}
