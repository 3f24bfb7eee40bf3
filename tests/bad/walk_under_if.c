// expect: 4:7 incremented under an if
void kernel_wi(int n, double *x, double *y) {
  if (n > 2)
    *y++ = 1.0;
  y[0] = x[0];
}
