// expect: 3:6 no function named 'kernel_three'
// args: --function kernel_three
void kernel_one(int n, double A[n]) {
  for (int i = 0; i < n; i++) A[i] = 0;
}
