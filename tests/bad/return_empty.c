// expect: 4:3 'return;' without a value in a kernel that returns float
float kernel_re(int n, float *x) {
  x[0] = 1;
  return;
}
