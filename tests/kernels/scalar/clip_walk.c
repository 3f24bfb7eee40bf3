/* A walk along a row that clips each value against the one before it
 * (a select, fabs, sqrt, fmax, a comparison under an if, an int count):
 * every statement reads what the loop wrote one iteration before, so the
 * whole loop stays scalar. */
typedef double real;

void kernel_clip_walk(int n, real *a, const real *w, int *cnt) {
  for (int i = 1; i < n; i++) {
    a[i] = sqrt(fabs(a[i - 1] < w[i] ? a[i - 1] : w[i])) + fmax(a[i], 0.5 * w[i]);
    if (a[i] > 1.0 && cnt[i - 1] < 40)
      cnt[i] = cnt[i - 1] + (a[i] > 2.0 ? 2 : 1);
    else
      cnt[i] = -cnt[i - 1];
  }
}
