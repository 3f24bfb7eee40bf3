// expect: 2:32 needs a size in every dimension
void kernel_ans(int n, double A[][n]) {
}
