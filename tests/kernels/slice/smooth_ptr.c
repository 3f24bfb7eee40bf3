/* smooth_ptr.c - a weighted 3-tap smoothing through pointers, interior
 * only: y[i] = 0.25*x[i-1] + 0.5*x[i] + 0.25*x[i+1] for 1 <= i < n-1
 * (y padded from n - 1 elements to [n]). */
void smooth_ptr(int n, const float *x, float *y) {
  for (int i = 1; i < n - 1; i++)
    y[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
}
