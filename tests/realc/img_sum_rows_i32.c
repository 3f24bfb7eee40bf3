/* img_sum_rows_i32.c - the sum of each row of an int image (flat, row
 * length w) into a local int accumulator, stored per row. */
void img_sum_rows_i32(int *sums, const int *img, int h, int w) {
  for (int y = 0; y < h; y++) {
    int s = 0;
    for (int x = 0; x < w; x++)
      s += img[y * w + x];
    sums[y] = s;
  }
}
