// expect: 4:23 integer division
void kernel_id(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = (double)(i / 2);
}
