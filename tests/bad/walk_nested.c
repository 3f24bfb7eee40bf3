// expect: 5:9 incremented in a nested loop
void kernel_wk(int m, int n, double *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      *y++ = 0.0;
}
