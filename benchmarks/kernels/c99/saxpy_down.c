/*
 * saxpy_down.c - plain C99 single-precision y := a*x + y, traversed
 * downwards (`for (i = n - 1; i >= 0; i--)`) with `x = x + e` form.
 * Kernel: kernel_saxpy_down.
 */

void kernel_saxpy_down(int n, float a, float x[n], float y[n])
{
  int i;

  for (i = n - 1; i >= 0; i--)
    y[i] = a * x[i] + y[i];
}
