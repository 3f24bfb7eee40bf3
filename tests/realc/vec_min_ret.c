/* Vectorization-suite style minimum search, returned. */
#include <float.h>
double vmin(const double *x, int n) {
  double m = DBL_MAX;
  for (int i = 0; i < n; i++) {
    if (x[i] < m)
      m = x[i];
  }
  return m;
}
