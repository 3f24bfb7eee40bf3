// expect: 4:5 'switch' is not supported
void kernel_s(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    switch (i) { default: A[i] = 0; }
}
