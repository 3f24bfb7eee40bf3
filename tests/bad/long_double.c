// expect: 2:23 long double
void kernel_ld(int n, long double A[n]) {
}
