/* thresh_band.c - a band far from the diagonal (j - i > 3). */
void kernel_thresh_band(int n, double A[n][n], double C[n][n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (j - i > 3)
        C[i][j] = A[i][j];
}
