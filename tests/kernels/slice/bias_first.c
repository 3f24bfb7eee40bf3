/* bias_first.c - every element minus one element of another array, read
 * at a constant index (s[0], a scale or bias passed by pointer): the
 * aligned operand is the rank-0 slice of s, which the search broadcasts
 * (before, only slices of the output's whole shape were made, and linalg
 * spent its budget without finding the program). */
void kernel_bias_first(int n, float *restrict y, const float *s) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] - s[0];
}
