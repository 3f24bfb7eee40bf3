/* first_copy.c - a scalar taken from the first element (x[0]), then used
 * over the whole array: y[i] = x[i] - x0.  Task 0 reads the region
 * x: i0 == 0 into a rank-0 value. */
void kernel_first_copy(int n, float x[n], float y[n]) {
  float x0 = x[0];
  for (int i = 0; i < n; i++)
    y[i] = x[i] - x0;
}
