/*
 * floyd_warshall.c - all-pairs shortest paths (Floyd-Warshall) on integer
 * edge weights, Polybench/C 4.2.1 style (paths: N x N).  Like upstream, the
 * element type defaults to int (set before polybench.h is included).  Every
 * k iteration reads row and column k as updated by the previous one:
 * uplift must report it as not raisable.  Kernel: kernel_floyd_warshall.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#if !defined(DATA_TYPE_IS_INT) && !defined(DATA_TYPE_IS_FLOAT) && \
    !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_INT
#endif

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

/* Edge weights 1..13, with no edge (weight 999) where (i + j) % 5 == 0. */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(paths, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      paths[i][j] = (i * j) % 13 + 1;
      if ((i + j) % 5 == 0)
        paths[i][j] = 999;
      if (i == j)
        paths[i][j] = 0;
    }
}

static void print_array(int n, DATA_TYPE POLYBENCH_2D(paths, N, N, n, n))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("paths");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if ((i * n + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, paths[i][j]);
    }
  POLYBENCH_DUMP_END("paths");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_floyd_warshall(int n,
                                  DATA_TYPE POLYBENCH_2D(paths, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (k = 0; k < _PB_N; k++)
    for (i = 0; i < _PB_N; i++)
      for (j = 0; j < _PB_N; j++)
        paths[i][j] = paths[i][j] < paths[i][k] + paths[k][j]
                          ? paths[i][j]
                          : paths[i][k] + paths[k][j];
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_2D_ARRAY_DECL(paths, DATA_TYPE, N, N, n, n);

  init_array(n, POLYBENCH_ARRAY(paths));

  polybench_start_instruments;
  kernel_floyd_warshall(n, POLYBENCH_ARRAY(paths));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(paths)));

  POLYBENCH_FREE_ARRAY(paths);
  return 0;
}
