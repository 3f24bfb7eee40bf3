/* Per-channel statistics scale of a batch-norm layer over a [batch][ch]
 * activation: sum over the batch, times 1 / (batch * spatial). */
void bn_mean(int batch, int ch, int spatial, const double act[batch][ch], double mean[ch]) {
  for (int c = 0; c < ch; c++) {
    double s = 0.0;
    for (int b = 0; b < batch; b++)
      s += act[b][c];
    mean[c] = s * (1.0 / (batch * spatial));
  }
}
