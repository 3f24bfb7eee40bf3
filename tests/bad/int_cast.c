// expect: 4:27 converting a floating value to 'unsigned char' data is not yet supported
void kernel_ic(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = (unsigned char)A[i];
}
