/* White balance: a gain per channel on an interleaved RGB image whose
 * size is fixed at compile time. */
#define HEIGHT 8
#define WIDTH 12
#define CHANNELS 3
void white_balance(double img[HEIGHT][WIDTH][CHANNELS], const double gain[CHANNELS]) {
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      for (int c = 0; c < CHANNELS; c++)
        img[y][x][c] *= gain[c];
}
