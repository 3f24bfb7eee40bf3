// expect: 3:25 non-affine loop bound
void kernel_bn(int n, double A[n]) {
  for (int i = 0; i < n * n; i++)
    A[0] += 1;
}
