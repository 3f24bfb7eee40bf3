/*
 * gemm.c - general matrix multiply, C := alpha*A*B + beta*C
 * (A: NI x NK, B: NK x NJ, C: NI x NJ), in the Polybench/C 4.2.1 style.
 * Written for uplift's benchmark set; the kernel is kernel_gemm.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include <polybench.h>

/* ---- header section: datasets and loop bounds (DATA_TYPE, SCALAR_VAL
 * and SQRT_FUN come from polybench.h; -DDATA_TYPE_IS_FLOAT for float) ---- */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && \
    !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if !defined(NI) && !defined(NJ) && !defined(NK)
# ifdef MINI_DATASET
#  define NI 20
#  define NJ 25
#  define NK 30
# endif
# ifdef SMALL_DATASET
#  define NI 60
#  define NJ 70
#  define NK 80
# endif
# ifdef MEDIUM_DATASET
#  define NI 200
#  define NJ 220
#  define NK 240
# endif
# ifdef LARGE_DATASET
#  define NI 1000
#  define NJ 1100
#  define NK 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define NI 2000
#  define NJ 2300
#  define NK 2600
# endif
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI,ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ,nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK,nk)

/* ---- initialisation: deterministic values in [0, 1) ---- */
static void init_array(int ni, int nj, int nk,
                       DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j;

  *alpha = 1.25;
  *beta = 0.75;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE)((3 * i + j + 1) % ni) / ni;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 2)) % nk) / nk;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (DATA_TYPE)((i + 5 * j + 3) % nj) / nj;
}

/* ---- output: dump C to stderr (only under POLYBENCH_DUMP_ARRAYS) ---- */
static void print_array(int ni, int nj,
                        DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("C");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      if ((i * ni + j) % 20 == 0)
        fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, C[i][j]);
    }
  POLYBENCH_DUMP_END("C");
  POLYBENCH_DUMP_FINISH;
}

/* ---- the kernel ---- */
static void kernel_gemm(int ni, int nj, int nk,
                        DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                        DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
      for (j = 0; j < _PB_NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  DATA_TYPE alpha;
  DATA_TYPE beta;
  POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);

  init_array(ni, nj, nk, &alpha, &beta,
             POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;
  kernel_gemm(ni, nj, nk, alpha, beta,
              POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(ni, nj, POLYBENCH_ARRAY(C)));

  POLYBENCH_FREE_ARRAY(C);
  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);
  return 0;
}
