// expect: 6:5 used outside a loop
void kernel_ia(int n, double A[n]) {
  int i;
  for (i = 0; i < n; i++)
    A[i] = 0;
  A[i] = 1;
}
