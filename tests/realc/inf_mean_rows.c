/* Mean of each row of a row-major matrix (an average-pooling helper):
 * mean[r] = (x[r][0] + ... + x[r][cols-1]) / cols, the column count used
 * as a value. */
void row_mean(const float *x, float *mean, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++)
      s += x[r * cols + c];
    mean[r] = s / cols;
  }
}
