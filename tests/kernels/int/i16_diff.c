/* i16_diff.c - 16-bit differences: short data computed in int, the result
 * converted back to int16_t (wraps where it does not fit). */
#include <stdint.h>
void kernel_i16_diff(int n, const int16_t a[n], const short b[n], int16_t d[n]) {
  for (int i = 0; i < n; i++)
    d[i] = a[i] - 2 * b[i];
}
