// expect: 4:3 return with a value in a kernel that returns void
void kernel_r(int n, double A[n]) {
  A[0] = 1;
  return 1;
}
