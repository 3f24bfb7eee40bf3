/* Conditional update: a[i] = b[i] > 0 ? b[i] : c[i] * d[i]. */
void cond_select(float *a, const float *b, const float *c, const float *d, int n) {
  for (int i = 0; i < n; i++) {
    if (b[i] > 0.0f)
      a[i] = b[i];
    else
      a[i] = c[i] * d[i];
  }
}
