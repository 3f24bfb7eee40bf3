/* slice_edge_diff.c - a backward difference from the second element on:
 * y[0] keeps its value; a program that lets the shifted operand's zero
 * padding into y[0] (x[-1] as 0) is wrong there. */
void kernel_slice_edge_diff(int n, float x[n], float y[n]) {
  for (int i = 1; i < n; i++)
    y[i] = x[i] - x[i - 1];
}
