/* stencil1d.c - a 3-point stencil over the interior 1 <= i < n-1:
 * B[i] = (A[i-1] + A[i] + A[i+1]) / 3; B keeps its values at 0 and n-1. */
void kernel_stencil1d(int n, float A[n], float B[n]) {
  for (int i = 1; i < n - 1; i++)
    B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0f;
}
