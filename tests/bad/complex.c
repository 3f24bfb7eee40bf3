// expect: 2:30 complex types
void kernel_cx(int n, double _Complex A[n]) {
}
