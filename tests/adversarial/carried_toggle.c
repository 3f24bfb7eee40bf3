/* carried_toggle.c - alternating signs through a carried scalar. */
void kernel_carried_toggle(int n, double A[n], double B[n])
{
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    B[i] = s * A[i];
    s = -s;
  }
}
