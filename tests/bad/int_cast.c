// expect: 4:13 casts to 'int'
void kernel_ic(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = (int)A[i];
}
