/* Brighten a 32-bit integer image by a constant. */
void brighten(int *img, int add, int npix) {
  for (int i = 0; i < npix; i++)
    img[i] = img[i] + 10;
}
