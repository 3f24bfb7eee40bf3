// expect: 3:10 pointer variables
void kernel_lp(int n, double A[n]) {
  double *p;
}
