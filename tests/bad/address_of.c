// expect: 3:10 taking an address
void kernel_p(int n, double A[n], double B[n]) {
  B[0] = &A[0] == 0;
}
