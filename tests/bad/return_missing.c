// expect: 6:1 returns double but does not end with 'return EXPR;'
double kernel_nr(int n, double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    x[i] = s;
}
