/* slice_last_col.c - the last column of a [n][4] array minus the first:
 * a column taken at the wrong constant, or a shifted row, is wrong. */
void kernel_slice_last_col(int n, float p[n][4], float y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = p[i][3] - p[i][0];
}
