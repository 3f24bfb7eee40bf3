/* carried_uninit.c - an uninitialized carried scalar: B[i] is the last
 * element above -100 up to i (undefined before the first one). */
void kernel_carried_uninit(int n, double A[n], double B[n])
{
  double s;
  for (int i = 0; i < n; i++) {
    if (A[i] > -100.0)
      s = A[i];
    B[i] = s;
  }
}
