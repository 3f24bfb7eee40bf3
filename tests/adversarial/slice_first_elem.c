/* slice_first_elem.c - a scalar read from the first element, then used
 * over the array: at n = 0 the source reads outside x (undefined), and a
 * program that takes x[0] from anything but x is wrong at every n. */
void kernel_slice_first_elem(int n, float x[n], float y[n]) {
  float m = x[0];
  for (int i = 0; i < n; i++)
    y[i] = x[i] * m;
}
