/*
 * nussinov.c - Nussinov's RNA folding: the most base pairs of the
 * subsequence i..j, from the subsequences inside it (drop an end, pair the
 * two ends when they match, or split at k); bases are 0..3 and a pair
 * matches when they sum to 3 (seq: N; table: N x N, upper triangle).
 * Polybench/C 4.2.1 style, written from the math.  Both i (downwards) and
 * j carry dependences.  Kernel: kernel_nussinov.
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
#  define N 2500
# endif
# ifdef EXTRALARGE_DATASET
#  define N 5500
# endif
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N,n)

/* the larger of two scores; 1 when two bases pair (A-U: 0+3, C-G: 1+2) */
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(seq, N, n),
                       DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)n;
  for (i = 0; i < n; i++)
    seq[i] = (DATA_TYPE) ((i + 1) % 4);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      table[i][j] = 0;
}

static void print_array(int n,
                        DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)n;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("table");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, table[i][j]);
      }
  POLYBENCH_DUMP_END("table");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_nussinov(int n,
                            DATA_TYPE POLYBENCH_1D(seq, N, n),
                            DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = _PB_N - 1; i >= 0; i--)
    for (j = i + 1; j < _PB_N; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < _PB_N)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < _PB_N) {
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }
      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
#pragma endscop
}

int main(int argc, char **argv)
{
  int n = N;
  POLYBENCH_1D_ARRAY_DECL(seq, DATA_TYPE, N, n);
  POLYBENCH_2D_ARRAY_DECL(table, DATA_TYPE, N, N, n, n);

  (void)argc; (void)argv;
  init_array(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));

  polybench_start_instruments;
  kernel_nussinov(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(n, POLYBENCH_ARRAY(table)));

  POLYBENCH_FREE_ARRAY(seq);
  POLYBENCH_FREE_ARRAY(table);
  return 0;
}
