// expect: 6:19 the file-scope variable 'taps' is used by the kernel: file-scope scalars, const arrays
#define LEN 32
static const float taps[4] = {0.25f, 0.5f, 0.125f, 0.125f};
void smooth(float y[LEN], const float x[LEN + 3]) {
  for (int i = 0; i < LEN; i++)
    y[i] = x[i] * taps[0] + x[i + 1] * taps[1] + x[i + 2] * taps[2] + x[i + 3] * taps[3];
}
