/* red_product.c - a product reduction: 1 when n = 0. */
void kernel_red_product(int n, double A[n], double out[1])
{
  double p = 1.0;
  for (int i = 0; i < n; i++)
    p *= A[i];
  out[0] = p;
}
