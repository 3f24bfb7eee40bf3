/* unsup_int_div.c - integer division in a subscript. */
void kernel_unsup_int_div(int n, double A[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = A[i / 2];
}
