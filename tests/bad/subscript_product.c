// expect: 5:22 non-affine subscript
void kernel_sp(int n, double A[n][n], double B[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i] += A[i][i * j];
}
