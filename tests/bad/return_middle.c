// expect: 3:3 only as the last statement
void kernel_r(int n, double A[n]) {
  return;
  A[0] = 1;
}
