// expect: 5:37 two different row lengths
void kernel_rl(int m, int n, int k, double *a, double *b) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      b[i * n + j] = a[i * k + j] + a[i * n + j];
}
