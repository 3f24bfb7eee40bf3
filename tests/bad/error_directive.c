// expect: 3:2 #error
#ifndef UPLIFT_OK
#error this kernel needs UPLIFT_OK
#endif
void kernel_ed(int n, double A[n]) {
}
