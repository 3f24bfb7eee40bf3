// expect: 4:13 casting a floating value to 'unsigned char' is not supported
void kernel_ic(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = (unsigned char)A[i];
}
