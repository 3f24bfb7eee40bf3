/* a[i] += b[ip[i]]: an indirect gather. */
void gather_add(float *a, const float *b, const int *ip, int n) {
  for (int i = 0; i < n; i++)
    a[i] += b[ip[i]];
}
