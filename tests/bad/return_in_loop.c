// expect: 5:7 'return' is supported only as the last statement of the kernel
float first_negative(const float *x, int n) {
  for (int i = 0; i < n; i++)
    if (x[i] < 0)
      return x[i];
}
