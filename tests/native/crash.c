/* crash.c - the native kernel dies of a signal (only in the -O2 build, the
 * interpreter sees a harmless kernel): `uplift run --native` must report
 * the crash (exit 3), not crash itself. */
void kernel_crash(int n, double A[n]) {
#ifdef __OPTIMIZE__
  *(volatile double *)0 = (double)n;
#endif
  for (int i = 0; i < n; i++)
    A[i] = 2.0 * A[i];
}
