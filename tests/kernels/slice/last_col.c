/* last_col.c - the last column of an [n][4] array minus the first:
 * y[i] = p[i][3] - p[i][0].  With the fixed extent 4 made a size m, p[i][3]
 * is p[i][m - 1]: a column counted from the end of its dim. */
void kernel_last_col(int n, float p[n][4], float y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = p[i][3] - p[i][0];
}
