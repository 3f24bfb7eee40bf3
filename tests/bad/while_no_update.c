// expect: 4:10 does not update its counter 'k'
void kernel_wn(int n, double *y) {
  int k = 0;
  while (k < n) {
    y[k] = 0.0;
  }
}
