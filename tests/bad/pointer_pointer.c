// expect: 2:31 pointers to pointers
void kernel_pp(int n, double **A) {
  A[0][0] = 1;
}
