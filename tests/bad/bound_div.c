// expect: 3:25 non-affine loop bound: integer division
void kernel_bd(int n, double A[n]) {
  for (int i = 0; i < n / 2; i++)
    A[i] = 0;
}
