/* a[i] = b[i] + c[i/2] * d[i]: an integer division in a subscript. */
void half_gather(float *a, const float *b, const float *c, const float *d, int n) {
  for (int i = 0; i < n; i++)
    a[i] = b[i] + c[i / 2] * d[i];
}
