// expect: 2:1 returns an integer ('int'): integer results are not yet supported
int kernel_nv(int n, double A[n]) {
  A[0] = 1;
  return 0;
}
