/* size_empty_outer.c - an outer loop over m that does not index anything:
 * at m = 0, B keeps its values. */
void kernel_size_empty_outer(int n, int m, double A[n], double B[n])
{
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      B[i] = A[i] + 1.0;
}
