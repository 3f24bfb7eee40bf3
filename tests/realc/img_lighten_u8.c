/* img_lighten_u8.c - the "lighten" blend of two 8-bit images: each pixel
 * the brighter of the two.  C compares the pixels as int (promoted), so
 * the comparison is of zero-extended values. */
#include <stdint.h>
void lighten_u8(const uint8_t *a, const uint8_t *b, uint8_t *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = a[i] > b[i] ? a[i] : b[i];
}
