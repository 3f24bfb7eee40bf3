/* spin.c - the native kernel never returns (only in the -O2 build): the CPU
 * limit ends it and `uplift run --native` reports a time-out (exit 3). */
void kernel_spin(int n, double A[n]) {
#ifdef __OPTIMIZE__
  for (volatile unsigned long t = 0;; t++)
    ;
#endif
  for (int i = 0; i < n; i++)
    A[i] = A[i] + 1.0;
}
