// expect: 4:7 pointer dereference
void kernel_p(int n, double A[n]) {
  double x;
  x = *A;
}
