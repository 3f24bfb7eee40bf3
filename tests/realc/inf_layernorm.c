/* Layer normalization over the rows of a 2-D activation, inference-helper
 * style: per row the mean, the variance, then
 * y = (x - mean) / sqrt(var + eps), the mean's divisor passed in. */
void layernorm(int rows, int cols, float inv_n, float eps, float x[rows][cols],
               float mean[rows], float var[rows], float y[rows][cols]) {
  for (int i = 0; i < rows; i++) {
    mean[i] = 0.0f;
    for (int j = 0; j < cols; j++)
      mean[i] += x[i][j];
    mean[i] *= inv_n;
    var[i] = 0.0f;
    for (int j = 0; j < cols; j++)
      var[i] += (x[i][j] - mean[i]) * (x[i][j] - mean[i]);
    var[i] *= inv_n;
    for (int j = 0; j < cols; j++)
      y[i][j] = (x[i][j] - mean[i]) / sqrtf(var[i] + eps);
  }
}
