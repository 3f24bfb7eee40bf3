/* Euclidean norm stored through an output pointer. */
void dnrm2(int n, const double *x, double *norm) {
  double ss = 0.0;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  norm[0] = sqrt(ss);
}
