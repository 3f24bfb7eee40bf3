/* shift_transposed.c - a read shifted along a transposed dim: B[i][j] =
 * 2 * A[j-1][i] over 1 <= j < n.  No aligned operand reads it (the
 * write's iterators occur in A's subscripts out of order), so the search
 * moves a value by one with a pad op (the shift attribute, issue 14):
 * pad[sh=(1,-1,0,0)](A) is A[i-1][j], transposed.  Before the pad ops no
 * program was found within the time budget. */
void kernel_shift_transposed(int n, float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 1; j < n; j++)
      B[i][j] = 2.0f * A[j - 1][i];
}
