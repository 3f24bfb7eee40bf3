/* Vectorization-suite style loop over file-scope arrays. */
#define LEN 256
float a[LEN], b[LEN], c[LEN];
void loop_vpvtv(void) {
  for (int i = 0; i < LEN; i++)
    a[i] += b[i] * c[i];
}
