/* aa = aa * bb^T + cc on flat square matrices. */
void transpose_mul_add(double *aa, const double *bb, const double *cc, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      aa[i * n + j] = aa[i * n + j] * bb[j * n + i] + cc[i * n + j];
}
