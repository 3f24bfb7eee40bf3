/* mirror_ptr.c - a signal blended with its mirror image through pointers:
 * y[i] = x[i] + w * x[n-1-i].  The read x[n-1-i] is x reversed (a loop
 * iterator of coefficient -1 in the subscript): the reverse op. */
void mirror_ptr(int n, float w, const float *restrict x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + w * x[n - 1 - i];
}
