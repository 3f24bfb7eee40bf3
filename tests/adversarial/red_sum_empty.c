/* red_sum_empty.c - a total into a one-element array: 0 when n = 0. */
void kernel_red_sum_empty(int n, double A[n], double out[1])
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += A[i];
  out[0] = s;
}
