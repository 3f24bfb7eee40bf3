/* Decimation by two with a gain: keep every other sample, x[2*i], a
 * constant stride (the column 0 of x seen as [n][2]). */
void decimate2(const double *x, double *y, double gain, int n) {
  for (int i = 0; i < n; i++)
    y[i] = gain * x[2 * i];
}
