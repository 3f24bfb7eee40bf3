/* Signal energy: sum of squares with a pointer walk, stored. */
void dsp_energy(const double *x, int n, double *e) {
  double acc = 0.0;
  while (n--) {
    double v = *x++;
    acc += v * v;
  }
  e[0] = acc;
}
