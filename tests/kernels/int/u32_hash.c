/* u32_hash.c - unsigned arithmetic wraps modulo 2^32 (defined in C, unlike
 * int overflow): a multiplicative mix of two words. */
#include <stdint.h>
void kernel_u32_hash(int n, const uint32_t x[n], const unsigned y[n], uint32_t h[n]) {
  for (int i = 0; i < n; i++)
    h[i] = x[i] * 2654435761u + y[i];
}
