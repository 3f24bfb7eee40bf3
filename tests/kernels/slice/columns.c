/* columns.c - the three columns of an [n][3] array, weighted:
 * y[i] = 0.5*p[i][0] + 0.25*p[i][1] + 0.125*p[i][2] (each column an [n]
 * operand, read at a constant column). */
void kernel_columns(int n, float p[n][3], float y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = 0.5f * p[i][0] + 0.25f * p[i][1] + 0.125f * p[i][2];
}
