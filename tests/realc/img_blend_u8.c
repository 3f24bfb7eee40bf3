/* Average of two 8-bit images. */
#include <stdint.h>
#include <stddef.h>
void blend_avg(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t npix) {
  for (size_t i = 0; i < npix; i++)
    out[i] = (uint8_t)((a[i] + b[i]) >> 1);
}
