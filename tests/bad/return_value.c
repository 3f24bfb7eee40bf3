// expect: 4:3 return with a value
void kernel_r(int n, double A[n]) {
  A[0] = 1;
  return 1;
}
