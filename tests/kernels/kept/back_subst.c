/* back_subst.c - back substitution: solve U x = b for an upper-triangular
 * U, x[i] from x[i+1..n-1], i running downward (not PolyBench style; the
 * mirror of trisolv).  The loop i is kept and runs downward
 * (ir_tloop.down); its body reads i in a bound (j > i) and writes x[i],
 * i a size of the body. */
void back_subst(int n, float U[n][n], float x[n], float b[n]) {
  for (int i = n - 1; i >= 0; i--) {
    x[i] = b[i];
    for (int j = i + 1; j < n; j++)
      x[i] -= U[i][j] * x[j];
    x[i] = x[i] / U[i][i];
  }
}
