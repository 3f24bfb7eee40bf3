/* ctl_axpy.c - y = a x + y. */
void kernel_ctl_axpy(int n, double a, double x[n], double y[n])
{
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
