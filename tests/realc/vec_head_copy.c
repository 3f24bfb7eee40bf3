/* Scale the first m elements of x (an array of n) into y (also of n). */
void scale_head(int n, int m, double s, double x[n], double y[n]) {
  for (int i = 0; i < m; i++)
    y[i] = s * x[i];
}
