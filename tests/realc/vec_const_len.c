/* Fixed-length vector helper as in small DSP and graphics code: a 4-vector
 * multiply-add, out = x * w + b, the length a constant. */
#define VLEN 4
void madd4(float out[VLEN], const float x[VLEN], const float w[VLEN], const float b[VLEN]) {
  for (int i = 0; i < VLEN; i++)
    out[i] = x[i] * w[i] + b[i];
}
