/*
 * durbin.c - Levinson-Durbin recursion: solves the Yule-Walker equations of
 * a symmetric Toeplitz matrix given by r, growing the solution y one order
 * k at a time from the reflection coefficient alpha and the prediction
 * error beta (r, y: N; z: N, a work array).  Polybench/C 4.2.1 style,
 * written from the math.  The order loop k carries the scalars alpha and
 * beta and the vector y.  Kernel: kernel_durbin.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include <polybench.h>

/* ---- header section: datasets and loop bounds ---- */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && \
    !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(N)
# ifdef MINI_DATASET
#  define N 40
# endif
# ifdef SMALL_DATASET
#  define N 120
# endif
# ifdef MEDIUM_DATASET
#  define N 400
# endif
# ifdef LARGE_DATASET
#  define N 2000
# endif
# ifdef EXTRALARGE_DATASET
#  define N 4000
# endif
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(r, N, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    r[i] = (DATA_TYPE) (n + 1 - i);
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("y");
  for (i = 0; i < n; i++)
    {
      if (c++ % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, y[i]);
    }
  POLYBENCH_DUMP_END("y");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_durbin(int n,
                          DATA_TYPE POLYBENCH_1D(r, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n),
                          DATA_TYPE POLYBENCH_1D(z, N, n))
{
  int i, k;
  DATA_TYPE alpha, beta, sum;

#pragma scop
  y[0] = -r[0];
  beta = SCALAR_VAL(1.0);
  alpha = -r[0];
  for (k = 1; k < _PB_N; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = SCALAR_VAL(0.0);
    for (i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(r, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(z, DATA_TYPE, N, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(r));

  polybench_start_instruments;
  kernel_durbin(n, POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(y), POLYBENCH_ARRAY(z));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(y)));

  POLYBENCH_FREE_ARRAY(r);
  POLYBENCH_FREE_ARRAY(y);
  POLYBENCH_FREE_ARRAY(z);
  return 0;
}
