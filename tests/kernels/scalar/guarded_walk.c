/* A walk whose read of the element before is guarded: C evaluates the
 * right side of `&&` and one side of `?:` only when it must, so it never
 * reads x[-1]; neither may the program (a scalar item: its MLIR computes
 * such a side under scf.if, where arith.select would read both). */
void kernel_guarded_walk(int n, float x[n], const float a[n]) {
  for (int i = 0; i < n; i++)
    x[i] = (i > 0 && x[i - 1] > 0.0f) ? x[i - 1] * 0.5f + a[i] : a[i];
}
