// expect: 5:6 several kernel functions
void kernel_one(int n, double A[n]) {
  for (int i = 0; i < n; i++) A[i] = 0;
}
void kernel_two(int n, double A[n]) {
  for (int i = 0; i < n; i++) A[i] = 1;
}
