// expect: 4:12 may be negative
void kernel_p(int n, double *A, double *B) {
  for (int i = 0; i < n; i++)
    B[i] = A[i - 1];
}
