// expect: 4:3 'do' is not supported
void kernel_d(int n, double A[n]) {
  double x = 0;
  do { x += 1.0; } while (x < 3.0);
}
