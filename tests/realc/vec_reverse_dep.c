/* A loop-carried dependence: a[i+1] = a[i] + b[i]. */
void carried(float *a, const float *b, int n) {
  for (int i = 0; i < n - 1; i++)
    a[i + 1] = a[i] + b[i];
}
