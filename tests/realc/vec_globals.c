/* Vectorization-suite style loop over file-scope arrays (the suite sets
 * LEN at build time; 256 by default). */
#ifndef LEN
#define LEN 256
#endif
float a[LEN], b[LEN], c[LEN];
void loop_vpvtv(void) {
  for (int i = 0; i < LEN; i++)
    a[i] += b[i] * c[i];
}
