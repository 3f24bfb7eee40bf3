/* mirror_steps.c - a growing prefix correlated with its own reversal, one
 * order at a time: at step k the first k taps of w are correlated with the
 * reversed window a[k], ..., a[1] (a[k - i] against w[i], i < k), the
 * result c[k] feeds a reflection of w against its mirror
 * image w[k - 1 - i] into t, which is copied back, and w grows by one
 * tap.  Float, pointer parameters, a typedef'd element type and a local
 * accumulator; the order loop k is kept, its reads at k - i are reversed
 * windows whose offset moves with k (docs/enumerator.md). */
typedef float real;

void mirror_steps(int n, const real *restrict a, real *restrict c, real *restrict w,
                  real *restrict t) {
  for (int k = 1; k < n; k++) {
    real acc = 0.0f;
    for (int i = 0; i < k; i++)
      acc += a[k - i] * w[i];
    c[k] = acc;
    for (int i = 0; i < k; i++)
      t[i] = w[i] - 0.25f * acc * w[k - 1 - i];
    for (int i = 0; i < k; i++)
      w[i] = t[i];
    w[k] = 0.5f * acc;
  }
}
