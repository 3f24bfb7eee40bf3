/* Layer normalization over the last dim of a 3-D activation (batch, tokens,
 * features): per (b, t) the mean, the variance, then
 * y = (x - mean) / sqrt(var + eps). */
void layernorm3d(int nb, int nt, int nf, float eps, float x[nb][nt][nf],
                 float mean[nb][nt], float var[nb][nt],
                 float y[nb][nt][nf]) {
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++) {
      float s = 0.0f;
      for (int f = 0; f < nf; f++)
        s += x[b][t][f];
      mean[b][t] = s / nf;
      float v = 0.0f;
      for (int f = 0; f < nf; f++)
        v += (x[b][t][f] - mean[b][t]) * (x[b][t][f] - mean[b][t]);
      var[b][t] = v / nf;
      for (int f = 0; f < nf; f++)
        y[b][t][f] = (x[b][t][f] - mean[b][t]) / sqrtf(var[b][t] + eps);
    }
}
