/* Mean-squared-error numerator of a prediction against its target: the
 * sum of squared differences, returned. */
typedef float real_t;
real_t sq_error(const real_t *pred, const real_t *target, unsigned n) {
  real_t err = 0;
  for (unsigned i = 0; i < n; i++) {
    real_t d = pred[i] - target[i];
    err += d * d;
  }
  return err;
}
