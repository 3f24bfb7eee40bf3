/* Row softmax in place over a flat row-major array, the max held in a local
 * scalar inside the row loop and started at the row's first element. */
#include <math.h>
void softmax_rows(float *x, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    float mx = x[r * cols];
    for (int c = 1; c < cols; c++)
      if (x[r * cols + c] > mx)
        mx = x[r * cols + c];
    float s = 0.0f;
    for (int c = 0; c < cols; c++) {
      x[r * cols + c] = expf(x[r * cols + c] - mx);
      s += x[r * cols + c];
    }
    for (int c = 0; c < cols; c++)
      x[r * cols + c] /= s;
  }
}
