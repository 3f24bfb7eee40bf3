/* window_steps.c - a kept loop whose body writes, and sums over, a strict
 * interior window that moves with the iterator (not PolyBench style): step
 * i damps x[i+1..n-2] (the last element is left out) and adds row i of A
 * to it, then accumulates that window of row i against the new x into
 * y[i].  The loop i is kept (it carries x); i is a size of the body, whose
 * masks (j > i, j < n - 1) bound the window on both sides, so the C writes
 * and sums only inside it.  The elements on either side of the window have
 * values an update would change, so a window cut one element short at
 * either end changes the result.  At the sizes up to 3 the window holds
 * one element at most, where a body with j > i turned into j == i + 1
 * agrees with this one; the size cases add the sizes where a window holds
 * two (docs/verify.md, "Which sizes"), and there that body is refuted. */
void window_steps(int n, float A[n][n], float x[n], float y[n]) {
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n - 1; j++)
      x[j] = 0.5f * x[j] + A[i][j];
    for (int j = i + 1; j < n - 1; j++)
      y[i] = y[i] + A[i][j] * x[j];
  }
}
