/* fixed_last_write.c - a copy, then the last element set: its subscript
 * N - 1 is counted from the end when the kernel is searched over a size. */
#define N 50
void kernel_fixed_last_write(const double x[N], double y[N])
{
  for (int i = 0; i < N; i++)
    y[i] = x[i];
  y[N - 1] = 0.0;
}
