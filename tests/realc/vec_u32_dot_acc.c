/* vec_u32_dot_acc.c - a dot product of 32-bit unsigned data accumulated in
 * a local, as fixed-point and hashing code writes it: the products and the
 * sum wrap modulo 2^32, as C defines for unsigned arithmetic. */
#include <stdint.h>
void vec_u32_dot_acc(uint32_t *out, const uint32_t *a, const uint32_t *b, int n) {
  uint32_t acc = 0;
  for (int i = 0; i < n; i++)
    acc += a[i] * b[i];
  *out = acc;
}
