/* Scale an 8-bit image by a float gain; the store truncates toward zero. */
#include <stddef.h>
#include <stdint.h>
void gain_u8(uint8_t *dst, const uint8_t *src, float gain, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = gain * src[i];
}
