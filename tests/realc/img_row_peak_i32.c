/* img_row_peak_i32.c - the brightest pixel of each row of an int image
 * (flat, row length cols): a running maximum by C's `>` started at
 * INT_MIN.  On integers `>` and a max op agree on every input (no NaN,
 * no signed zero), and INT_MIN is where each dialect's integer maximum
 * starts (tosa's reduce_max on i32 too), so it is proved outright. */
#include <limits.h>
void img_row_peak_i32(int *peak, const int *img, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    peak[r] = INT_MIN;
    for (int c = 0; c < cols; c++)
      if (img[r * cols + c] > peak[r]) peak[r] = img[r * cols + c];
  }
}
