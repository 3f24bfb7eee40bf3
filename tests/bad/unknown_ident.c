// expect: 4:12 unknown identifier 'beta'
void kernel_u(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = beta * 2.0;
}
