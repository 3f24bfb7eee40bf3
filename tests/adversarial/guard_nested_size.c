// uplift: --function scale_if_big
/* guard_nested_size.c - a plain function name, a guard on the product of
 * two conditions on sizes. */
void scale_if_big(int n, int m, float A[n][m], float B[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (n >= 3 && m >= 5)
        B[i][j] = 0.5f * A[i][j];
      else
        B[i][j] = A[i][j];
}
