/*
 * floyd-warshall.c - all-pairs shortest paths: for each intermediate node
 * k, every path i -> j is shortened to i -> k -> j when that is shorter
 * (path: N x N, in place).  Polybench/C 4.2.1 style, written from the
 * math.  Loop k carries the dependence.  Kernel: kernel_floyd_warshall.
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
#  define N 60
# endif
# ifdef SMALL_DATASET
#  define N 180
# endif
# ifdef MEDIUM_DATASET
#  define N 500
# endif
# ifdef LARGE_DATASET
#  define N 2800
# endif
# ifdef EXTRALARGE_DATASET
#  define N 5600
# endif
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      path[i][j] = (DATA_TYPE) (i * j % 7 + 1) + ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0 ? 999 : 0);
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("path");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, path[i][j]);
      }
  POLYBENCH_DUMP_END("path");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_floyd_warshall(int n,
                                  DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (k = 0; k < _PB_N; k++)
    for (i = 0; i < _PB_N; i++)
      for (j = 0; j < _PB_N; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j]
                     ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(path, DATA_TYPE, N, N, n, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(path));

  polybench_start_instruments;
  kernel_floyd_warshall(n, POLYBENCH_ARRAY(path));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(path)));

  POLYBENCH_FREE_ARRAY(path);
  return 0;
}
