// expect: 4:25 may not be evaluated
void kernel_ws(int n, double *x, double *y) {
  while (n--)
    *y++ = *x > 0.0 ? *x++ : 0.0;
}
