// expect: 4:23 non-affine loop bound
void kernel_ild(int n, int A[n], double B[n]) {
  int c = A[0];
  for (int i = 0; i < c; i++)
    B[i] = c;
}
