/* u8_blend.c - the rounded average of two 8-bit images: C adds the pixels
 * as int (no carry is lost), and the store converts back to uint8_t. */
#include <stdint.h>
void kernel_u8_blend(int h, int w, const uint8_t a[h][w], const uint8_t b[h][w],
                     uint8_t out[h][w]) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[i][j] = (uint8_t)((a[i][j] + b[i][j] + 1) >> 1);
}
