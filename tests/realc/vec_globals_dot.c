/* A dot product over file-scope arrays, returned: the globals are the
 * kernel's inputs, the sum its result. */
#define N 64
static float xs[N], ys[N];
float dot_globals(void) {
  float s = 0.0f;
  for (int i = 0; i < N; i++)
    s += xs[i] * ys[i];
  return s;
}
