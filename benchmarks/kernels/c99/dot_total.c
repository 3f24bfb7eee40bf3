/*
 * dot_total.c - plain C99 dot product of x and y into the one-element array
 * out (x, y: n, out: 1).  The initialisation out[0] = 0 is a statement
 * outside any loop.  Kernel: kernel_dot_total.
 */

void kernel_dot_total(int n, double x[n], double y[n], double out[1])
{
  out[0] = 0.0;
  for (int i = 0; i < n; i++)
    out[0] += x[i] * y[i];
}
