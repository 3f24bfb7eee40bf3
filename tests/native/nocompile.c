/* nocompile.c - the native build fails (only with -O2, which the front end
 * does not use): `uplift run --native` reports the compiler's message
 * (exit 3). */
#ifdef __OPTIMIZE__
#error "this kernel does not compile natively"
#endif
void kernel_nocompile(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = A[i] * 3.0;
}
