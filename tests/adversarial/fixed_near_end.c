/* fixed_near_end.c - fixed size 40, a threshold three from the end. */
#define N 40
void kernel_fixed_near_end(const double x[N], double y[N])
{
  for (int i = 0; i < N; i++)
    y[i] = i >= N - 3 ? -x[i] : x[i];
}
