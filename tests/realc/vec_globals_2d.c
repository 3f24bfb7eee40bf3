/* Vectorization-suite style 2-D loop over file-scope arrays: a matrix
 * update aa[i][j] = aa[i][j] + bb[i][j] * cc[i][j] on globals, the sizes
 * constants (a build may set LEN2 with -D). */
#ifndef LEN2
#define LEN2 8
#endif
double aa[LEN2][LEN2], bb[LEN2][LEN2], cc[LEN2][LEN2];
void s2233_like(void) {
  for (int i = 0; i < LEN2; i++)
    for (int j = 0; j < LEN2; j++)
      aa[i][j] = aa[i][j] + bb[i][j] * cc[i][j];
}
