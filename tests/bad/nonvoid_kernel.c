// expect: 2:1 must return void
int kernel_nv(int n, double A[n]) {
  A[0] = 1;
}
