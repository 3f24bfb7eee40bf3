// expect: 3:23 struct types
struct pt { double x, y; };
void kernel_st(int n, struct pt P[n]) {
}
