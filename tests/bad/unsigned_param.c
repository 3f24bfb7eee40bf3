// expect: 4:17 the '%' operator is not supported
void kernel_up(unsigned n, const unsigned char A[n], double B[n]) {
  for (unsigned i = 0; i < n; i++)
    B[i] = A[i] % 3;
}
