/* carried_running_max.c - the running maximum (a scan). */
void kernel_carried_running_max(int n, double A[n + 1], double B[n + 1])
{
  double m = A[0];
  for (int i = 0; i <= n; i++) {
    if (A[i] > m)
      m = A[i];
    B[i] = m;
  }
}
