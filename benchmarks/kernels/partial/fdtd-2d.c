/*
 * fdtd-2d.c - two-dimensional finite-difference time-domain (Yee scheme):
 * per time step the source value enters row 0 of ey, then ey and ex take
 * the differences of hz along i and j, and hz the curl of ex and ey
 * (ex, ey, hz: NX x NY; fict: TMAX).  Polybench/C 4.2.1 style, written from
 * the math.  The time loop carries the dependence.  Kernel: kernel_fdtd_2d.
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

#if !defined(TMAX) && !defined(NX) && !defined(NY)
# ifdef MINI_DATASET
#  define TMAX 20
#  define NX 20
#  define NY 30
# endif
# ifdef SMALL_DATASET
#  define TMAX 40
#  define NX 60
#  define NY 80
# endif
# ifdef MEDIUM_DATASET
#  define TMAX 100
#  define NX 200
#  define NY 240
# endif
# ifdef LARGE_DATASET
#  define TMAX 500
#  define NX 1000
#  define NY 1200
# endif
# ifdef EXTRALARGE_DATASET
#  define TMAX 1000
#  define NX 2000
#  define NY 2600
# endif
#endif

#define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX,tmax)
#define _PB_NX POLYBENCH_LOOP_BOUND(NX,nx)
#define _PB_NY POLYBENCH_LOOP_BOUND(NY,ny)

static void init_array(int tmax, int nx, int ny,
                       DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                       DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny),
                       DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny),
                       DATA_TYPE POLYBENCH_1D(fict, TMAX, tmax))
{
  int i, j, k;

  (void)i; (void)j; (void)k;
  (void)tmax;
  (void)nx;
  (void)ny;
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      ex[i][j] = ((DATA_TYPE) i * (j + 1)) / nx;
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      ey[i][j] = ((DATA_TYPE) i * (j + 2)) / ny;
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      hz[i][j] = ((DATA_TYPE) i * (j + 3)) / nx;
  for (i = 0; i < tmax; i++)
    fict[i] = (DATA_TYPE) i;
}

static void print_array(int tmax, int nx, int ny,
                        DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                        DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny),
                        DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny))
{
  int i, j, k, c = 0;

  (void)i; (void)j; (void)k;
  (void)tmax;
  (void)nx;
  (void)ny;
  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("ex");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, ex[i][j]);
      }
  POLYBENCH_DUMP_END("ex");
  POLYBENCH_DUMP_BEGIN("ey");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, ey[i][j]);
      }
  POLYBENCH_DUMP_END("ey");
  POLYBENCH_DUMP_BEGIN("hz");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++)
      {
        if (c++ % 20 == 0)
          fprintf(POLYBENCH_DUMP_TARGET, "\n");
        fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, hz[i][j]);
      }
  POLYBENCH_DUMP_END("hz");
  POLYBENCH_DUMP_FINISH;
}

static void kernel_fdtd_2d(int tmax,
                           int nx,
                           int ny,
                           DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                           DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny),
                           DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny),
                           DATA_TYPE POLYBENCH_1D(fict, TMAX, tmax))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TMAX; t++) {
    for (j = 0; j < _PB_NY; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < _PB_NX; i++)
      for (j = 0; j < _PB_NY; j++)
        ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < _PB_NX; i++)
      for (j = 1; j < _PB_NY; j++)
        ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < _PB_NX - 1; i++)
      for (j = 0; j < _PB_NY - 1; j++)
        hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j + 1] - ex[i][j]
                                               + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tmax = TMAX;
  int nx = NX;
  int ny = NY;
  POLYBENCH_2D_ARRAY_DECL(ex, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_2D_ARRAY_DECL(ey, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_2D_ARRAY_DECL(hz, DATA_TYPE, NX, NY, nx, ny);
  POLYBENCH_1D_ARRAY_DECL(fict, DATA_TYPE, TMAX, tmax);

  (void)argc; (void)argv;
  init_array(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz), POLYBENCH_ARRAY(fict));

  polybench_start_instruments;
  kernel_fdtd_2d(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz), POLYBENCH_ARRAY(fict));
  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(tmax, nx, ny, POLYBENCH_ARRAY(ex), POLYBENCH_ARRAY(ey), POLYBENCH_ARRAY(hz)));

  POLYBENCH_FREE_ARRAY(ex);
  POLYBENCH_FREE_ARRAY(ey);
  POLYBENCH_FREE_ARRAY(hz);
  POLYBENCH_FREE_ARRAY(fict);
  return 0;
}
