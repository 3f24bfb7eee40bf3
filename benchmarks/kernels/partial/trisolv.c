/*
 * trisolv.c - forward substitution: solve L x = b for a lower-triangular L,
 * x[i] from x[0..i-1] (L: N x N; x, b: N).  Polybench/C 4.2.1 style,
 * written from the math.  Loop i carries the dependence.  Kernel:
 * kernel_trisolv.
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
                       DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      L[i][j] = (DATA_TYPE) (i + n - j + 1) * 2 / n;
  for (i = 0; i < n; i++)
    b[i] = (DATA_TYPE) i;
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("x");
  for (i = 0; i < n; i++)
    {
      if (c++ % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, x[i]);
    }
  POLYBENCH_DUMP_END("x");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_trisolv(int n,
                           DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n),
                           DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(L, DATA_TYPE, N, N, n, n);
  POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
  POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(b));

  polybench_start_instruments;
  kernel_trisolv(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(x)));

  POLYBENCH_FREE_ARRAY(L);
  POLYBENCH_FREE_ARRAY(x);
  POLYBENCH_FREE_ARRAY(b);
  return 0;
}
