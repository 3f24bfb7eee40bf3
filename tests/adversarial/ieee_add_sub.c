/* ieee_add_sub.c - (a + c) - c is not a: a cancellation, wrong at an
 * infinite c (NaN against a) and, by absorption, at c = 1e300.  The
 * reassociation a + (c - c) is allowed (real mode ignores rounding, and
 * IEEE gives NaN on both sides at an infinite c); the two round apart at
 * huge values, so EXPECTED asks the default value sets only (special
 * catches a). */
void kernel_ieee_add_sub(int n, double A[n], double C[n], double B[n])
{
  for (int i = 0; i < n; i++)
    B[i] = (A[i] + C[i]) - C[i];
}
