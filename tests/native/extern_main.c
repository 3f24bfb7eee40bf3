/* extern_main.c - a whole program whose main (and a helper only main calls)
 * uses functions defined in another file that uplift does not compile, as
 * a benchmark's main uses the allocation and timing helpers of its
 * support library: the native build must still load (main is not needed to
 * call the kernel), and the kernel must agree with the interpreter. */
#include <stdlib.h>

extern void *bench_alloc(unsigned long long n, int elt_size);
extern void bench_timer_start(void);
extern double bench_total_flops;

static void init(int n, double x[n]) {
  for (int i = 0; i < n; i++)
    x[i] = (double)i / n;
}

static void kernel_axpy(int n, double a, double x[n], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  int n = 100;
  double(*x)[n] = (double(*)[n])bench_alloc((unsigned long long)n, sizeof(double));
  double(*y)[n] = (double(*)[n])bench_alloc((unsigned long long)n, sizeof(double));
  init(n, *x);
  init(n, *y);
  bench_timer_start();
  kernel_axpy(n, 2.0, *x, *y);
  bench_total_flops += 2.0 * n;
  free(x);
  free(y);
  return 0;
}
