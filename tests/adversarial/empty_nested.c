/* empty_nested.c - a triangle that starts at row 3. */
void kernel_empty_nested(int n, double A[n][n], double C[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i - 2; j++)
      C[i][j] = A[i][j] + 1.0;
}
