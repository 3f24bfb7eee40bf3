// expect: 2:16 'unsigned' is not supported
void kernel_up(unsigned n, double A[n]) {
}
