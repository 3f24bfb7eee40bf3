// expect: 5:18 non-affine subscript
#define SQ(x) A[(x) * (x)]
void kernel_mc(int n, double A[n], double B[n]) {
  for (int i = 0; i < n; i++)
    B[i] = 2.0 * SQ(i);
}
