/* fixed_threshold.c - fixed size 40 with a threshold at 35. */
void kernel_fixed_threshold(double A[40], double B[40])
{
  for (int i = 0; i < 40; i++)
    B[i] = (i >= 35) ? A[i] : 0.0;
}
