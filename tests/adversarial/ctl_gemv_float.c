/* ctl_gemv_float.c - y = A x in float, with a scalar reset per row. */
void kernel_ctl_gemv_float(int n, int m, float A[n][m], float x[m], float y[n])
{
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}
