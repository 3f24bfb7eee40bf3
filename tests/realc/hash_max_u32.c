/* hash_max_u32.c - the element-wise maximum of two tables of 32-bit
 * unsigned hashes: the comparison is unsigned (no promotion past
 * unsigned int), which a signed comparison gets wrong above 2^31. */
#include <stdint.h>
void hash_max_u32(uint32_t *dst, const uint32_t *x, const uint32_t *y, int n) {
  for (int i = 0; i < n; i++)
    dst[i] = x[i] > y[i] ? x[i] : y[i];
}
