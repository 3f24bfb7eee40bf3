// expect: 2:29 pointer parameters
void kernel_p(int n, double *A) {
  A[0] = 1;
}
