/* cast_float_sum_double.c - float inputs summed in double. */
void kernel_cast_float_sum_double(int n, float A[n], float C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (double)A[i] + (double)C[i];
}
