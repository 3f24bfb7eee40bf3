// expect: 4:11 bitwise operators
void kernel_bw(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    if (i & 1) A[i] = 0;
}
