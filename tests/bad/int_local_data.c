// expect: 4:13 the int local 'c' holds integer data
void kernel_ild(int n, int A[n], double B[n]) {
  for (int i = 0; i < n; i++) {
    int c = A[i];
    B[i] = c;
  }
}
