// expect: 4:14 non-affine subscript
void kernel_si(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++)
    A[i] = A[B[i]];
}
