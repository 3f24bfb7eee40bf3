/* Dense-layer epilogue: y = max(y + b, 0), batch rows of n features. */
typedef float real_t;
void bias_relu(real_t *y, const real_t *b, int batch, int n) {
  for (int r = 0; r < batch; r++)
    for (int c = 0; c < n; c++) {
      real_t v = y[r * n + c] + b[c];
      y[r * n + c] = v > 0 ? v : 0;
    }
}
