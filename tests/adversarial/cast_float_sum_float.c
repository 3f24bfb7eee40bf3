/* cast_float_sum_float.c - the same sum rounded to float before it is
 * widened: differs from the double sum. */
void kernel_cast_float_sum_float(int n, float A[n], float C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (double)(A[i] + C[i]);
}
