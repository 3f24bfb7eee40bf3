/* carried_prefix_sum.c - the running sum (a scan). */
void kernel_carried_prefix_sum(int n, double A[n], double B[n])
{
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += A[i];
    B[i] = s;
  }
}
