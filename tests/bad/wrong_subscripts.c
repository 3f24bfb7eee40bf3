// expect: 5:13 has 2 dimensions but 1 subscript
void kernel_ws(int n, double A[n][n]) {
  double x;
  for (int i = 0; i < n; i++)
    x = A[i];
}
