// expect: 4:16 non-affine subscript: the '%' operator
void kernel_sm(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++)
    A[i] = B[i % 2];
}
