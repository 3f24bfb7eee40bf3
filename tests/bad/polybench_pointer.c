// expect: 6:73 never accesses it
#include <polybench.h>
#define N 20
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
static void kernel_pp(int n, DATA_TYPE alpha,
                      DATA_TYPE POLYBENCH_2D(A, N, N, n, n), DATA_TYPE *x)
{
}
