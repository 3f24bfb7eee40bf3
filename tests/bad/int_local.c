// expect: 6:5 int locals that change (accumulators, counters) are integer data
void kernel_il(int n, double A[n]) {
  int t = 0;
  for (int i = 0; i < n; i++) {
    A[i] = 0;
    t += 1;
  }
}
