/* Alpha blend of two 8-bit images with a float weight. */
#include <stdint.h>
void alpha_blend(const uint8_t *fg, const uint8_t *bg, uint8_t *out, float alpha,
                 int w, int h) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[y * w + x] = alpha * fg[y * w + x] + (1.0f - alpha) * bg[y * w + x];
}
