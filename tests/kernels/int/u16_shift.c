/* u16_shift.c - shifts of 16-bit data: x << 3 in int, truncated to
 * uint16_t, and a logical shift of unsigned 32-bit words. */
#include <stdint.h>
void kernel_u16_shift(int n, const uint16_t x[n], const uint32_t w[n], uint16_t y[n],
                      uint32_t z[n]) {
  for (int i = 0; i < n; i++) {
    y[i] = (uint16_t)(x[i] << 3);
    z[i] = w[i] >> 4;
  }
}
