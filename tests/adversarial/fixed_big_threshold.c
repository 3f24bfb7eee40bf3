/* fixed_big_threshold.c - fixed size 30000 (searched over a size standing
 * for it) with a threshold at 25000, past every size the verifier can
 * check: a program that ignores the threshold must not be proved. */
#define N 30000
void kernel_fixed_big_threshold(const double x[N], double y[N])
{
  for (int i = 0; i < N; i++)
    y[i] = i < 25000 ? x[i] : 0.0;
}
