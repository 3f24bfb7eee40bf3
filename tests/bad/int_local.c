// expect: 6:7 non-affine subscript
void kernel_il(int n, int A[n], double B[n]) {
  int t = 0;
  for (int i = 0; i < n; i++) {
    t += A[i];
    B[t] = 0;
  }
}
