// expect: 5:10 counted down by a while loop above
void kernel_sac(int n, double *y, double *z) {
  while (n--)
    *y++ = 1.0;
  z[0] = n;
}
