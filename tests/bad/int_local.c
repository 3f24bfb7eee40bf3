// expect: 3:7 integer locals that are not loop iterators
void kernel_il(int n, double A[n]) {
  int t = 0;
  for (int i = 0; i < n; i++)
    A[i] = 0;
}
