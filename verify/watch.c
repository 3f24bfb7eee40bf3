/*
 * watch.c - the verifier cannot hang.  Every solver check carries a step
 * limit (Z3's `rlimit`, --smt-steps), which decides on any machine alike,
 * and Z3's own wall-clock `timeout` parameter (--smt-timeout, a net set
 * well above what the step limit takes), but some of Z3's procedures do not
 * look at either, nor at Z3_interrupt, for minutes (nonlinear real arithmetic
 * on high-degree products: a report program nesting 40 multiply(C, beta)
 * ran past 120 s inside Z3_solver_check with --smt-timeout 1).
 *
 * A watch is one thread per verifier context.  The verifier brackets every
 * piece of Z3 work (building and simplifying a query, each check) with
 * vx_watch_begin/end.  The thread sleeps until the bracketed call's limit
 * (its start plus the per-call timeout plus one second, or the run's
 * deadline if that comes first) and then interrupts Z3, which ends most
 * calls with `unknown`.  A call that still has not returned five seconds
 * later will not return:
 * the thread says so on stderr and ends the process with status 3 (nothing
 * more is proved), so no input can make uplift hang.  Past the deadline,
 * vx_watch_expired tells the verifier to answer `unknown` without asking.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "verify/internal.h"

struct vx_watch {
  Z3_context z;
  double per_call, deadline; /* seconds; deadline absolute, 0: none */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  int stop, busy, interrupted;
  double start;               /* of the current bracketed call */
};

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double vx_now(void) { return mono_now(); }

static void *watch_main(void *arg) {
  vx_watch *w = arg;
  pthread_mutex_lock(&w->mu);
  while (!w->stop) {
    double now = mono_now(), wake = now + 3600;
    if (w->busy) {
      double limit = w->start + w->per_call + 1;
      if (w->deadline > 0 && w->deadline < limit) limit = w->deadline;
      double hard = limit + 5;
      if (now >= hard) {
        fprintf(stderr,
                "uplift: the solver did not stop at its time limit (%g s per query) and "
                "ignores interrupts: stopped after %.0f s; nothing more is proved\n",
                w->per_call, now - w->start);
        fflush(NULL);
        _exit(IR_EXIT_MISMATCH);
      }
      if (now >= limit && !w->interrupted) {
        w->interrupted = 1;
        Z3_interrupt(w->z);
      }
      wake = now >= limit ? hard : limit;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double d = wake - now;
    ts.tv_sec += (time_t)d;
    ts.tv_nsec += (long)((d - (double)(time_t)d) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&w->cv, &w->mu, &ts);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

vx_watch *vx_watch_new(Z3_context z, double per_call, double deadline) {
  vx_watch *w = ir_calloc(1, sizeof *w);
  w->z = z;
  w->per_call = per_call > 0 ? per_call : 1;
  w->deadline = deadline;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&w->mu, NULL);
  if (pthread_create(&w->thread, NULL, watch_main, w)) {
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    ir_free(w);
    return NULL;
  }
  return w;
}

void vx_watch_free(vx_watch *w) {
  if (!w) return;
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
  ir_free(w);
}

void vx_watch_begin(vx_watch *w) {
  if (!w) return;
  pthread_mutex_lock(&w->mu);
  w->busy = 1;
  w->interrupted = 0;
  w->start = mono_now();
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

void vx_watch_end(vx_watch *w) {
  if (!w) return;
  pthread_mutex_lock(&w->mu);
  w->busy = 0;
  pthread_mutex_unlock(&w->mu);
}

int vx_watch_interrupted(vx_watch *w) {
  if (!w) return 0;
  pthread_mutex_lock(&w->mu);
  int r = w->interrupted;
  pthread_mutex_unlock(&w->mu);
  return r;
}

int vx_watch_expired(const vx_watch *w) {
  return w && w->deadline > 0 && mono_now() >= w->deadline;
}
