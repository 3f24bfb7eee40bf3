/* u8_gain.c - an 8-bit image scaled by a float gain: C converts the float
 * product back to uint8_t at the store, truncating toward zero. */
#include <stdint.h>
void kernel_u8_gain(int n, float gain, uint8_t src[n], uint8_t dst[n]) {
  for (int i = 0; i < n; i++)
    dst[i] = gain * src[i];
}
