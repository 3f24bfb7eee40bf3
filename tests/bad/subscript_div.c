// expect: 4:16 non-affine subscript: integer division
void kernel_sd(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++)
    A[i] = B[i / 2];
}
