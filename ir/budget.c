/*
 * budget.c - a command's time and memory budget (--timeout, --memory),
 * held for the whole process.
 *
 * ir_budget_start starts one watch thread.  Every 50 ms it reads the
 * process's resident memory (/proc/self/statm) and the clock:
 *
 * - At the deadline it raises a flag (ir_budget_expired, ir_budget_left)
 *   that the long phases read to stop on their own: the enumerator's
 *   search, the verifier (tasks not decided become unknown), the rule
 *   checks of `rewrites`.  That is the graceful stop, with the command's
 *   own result and exit status.
 *   A phase inside a library call registers a hook (ir_budget_on_expire)
 *   that the thread calls at the deadline, and while the memory use is
 *   past the budget (below): the polyhedral analysis aborts its isl
 *   context there (isl_ctx_abort), so isl's operations fail and the
 *   analysis ends with the reason (ir_budget_memory_out tells which).
 * - A command still running IR_BUDGET_GRACE seconds after the deadline is
 *   in a phase that does not look at the flag (a native run, a solver
 *   call): the thread prints what ran out and ends
 *   the process with the command's "out of budget" exit status, after
 *   the command's last words (ir_budget_on_stop: raise --json prints its
 *   report there).  The message names the phase running (ir_budget_phase).
 * - Memory: the resident memory grown since ir_budget_start past the
 *   budget plus a quarter plus 256 MB ends the process the same way at
 *   once.  The enumerator counts its stored values against the budget
 *   itself and stops its search there; the analysis, whose memory is
 *   isl's, stops through its hook as soon as the resident memory grown
 *   passes the budget itself (sampled every step); the margin is for what
 *   the enumerator's count does not see (evaluation buffers, Z3), so the
 *   hard stop is for phases with no count or hook of their own.
 *
 * - Work (--work, ir_work_limit): a count of the elements the enumerator's
 *   candidates computed, added as they are computed; past it the searches
 *   stop as at the deadline.  It is the budget whose end does not depend on
 *   the machine's speed or load (the tests use it).
 *
 * - A command whose answer is known (ir_budget_finish) is only writing it:
 *   the time watch ends there, so that a long list printed after the
 *   deadline (the unchecked proposals of `rewrites`) is not cut off by the
 *   hard stop on a loaded machine.  The memory watch stays.
 *
 * So no command runs on past its budget by more than IR_BUDGET_GRACE
 * seconds (plus one sampling step) before its answer is known, whatever
 * its input.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"

static struct {
  const char *cmd;
  double seconds, deadline; /* deadline: absolute (monotonic), 0: none */
  long memory_mb, base_kb, limit_kb; /* limit_kb 0: none */
  int status;
  atomic_int expired;
  atomic_int memory_out; /* the memory use passed the budget (the hook ran) */
  atomic_int finished; /* ir_budget_finish: no hard stop for time */
  int started;
  _Atomic(const char *) phase; /* ir_budget_phase; NULL: not named */
  ir_budget_stop_fn on_stop;   /* ir_budget_on_stop */
  void *on_stop_user;
  double started_at;
  pthread_mutex_t expire_lock; /* guards on_expire */
  ir_budget_expire_fn on_expire; /* ir_budget_on_expire */
  void *on_expire_user;
} B = {.expire_lock = PTHREAD_MUTEX_INITIALIZER};

void ir_budget_phase(const char *phase) { atomic_store(&B.phase, phase); }

int ir_budget_memory_out(void) { return atomic_load(&B.memory_out); }

void ir_budget_finish(void) { atomic_store(&B.finished, 1); }

const char *ir_budget_phase_name(void) { return atomic_load(&B.phase); }

void ir_budget_on_stop(ir_budget_stop_fn fn, void *user) {
  B.on_stop_user = user;
  B.on_stop = fn;
}

/* Call the expiry hook (under its lock, so that it is never called after
 * ir_budget_on_expire(NULL) returned). */
static void call_expire(void) {
  pthread_mutex_lock(&B.expire_lock);
  if (B.on_expire) B.on_expire(B.on_expire_user);
  pthread_mutex_unlock(&B.expire_lock);
}

void ir_budget_on_expire(ir_budget_expire_fn fn, void *user) {
  pthread_mutex_lock(&B.expire_lock);
  B.on_expire = fn;
  B.on_expire_user = user;
  pthread_mutex_unlock(&B.expire_lock);
  if (fn && B.deadline > 0 && ir_monotonic_seconds() >= B.deadline) call_expire();
}

double ir_monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double mono(void) { return ir_monotonic_seconds(); }

long ir_resident_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (!f) return 0;
  if (fscanf(f, "%ld %ld", &size, &res) != 2) res = 0;
  fclose(f);
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void stop(const char *what) {
  const char *phase = ir_budget_phase_name();
  fprintf(stderr, "uplift %s: stopped: %s%s%s\n", B.cmd, what, phase ? " in the " : "",
          phase ? phase : "");
  if (B.on_stop) B.on_stop(B.on_stop_user, what, phase, mono() - B.started_at);
  fflush(NULL);
  _exit(B.status);
}

static void *budget_main(void *arg) {
  (void)arg;
  char msg[200];
  for (;;) {
    struct timespec step = {0, 50 * 1000000L};
    nanosleep(&step, NULL);
    if (B.limit_kb) {
      long used = ir_resident_kb() - B.base_kb;
      if (used > B.memory_mb * 1024) { /* the budget itself: the hook's stop */
        pthread_mutex_lock(&B.expire_lock);
        if (B.on_expire) {
          atomic_store(&B.memory_out, 1);
          B.on_expire(B.on_expire_user);
        }
        pthread_mutex_unlock(&B.expire_lock);
      }
      if (used > B.limit_kb) {
        snprintf(msg, sizeof msg,
                 "its memory use (%ld MB) ran past the --memory budget of %ld MB",
                 used >> 10, B.memory_mb);
        stop(msg);
      }
    }
    if (B.deadline > 0 && !atomic_load(&B.finished)) {
      double now = mono();
      if (now >= B.deadline) {
        atomic_store(&B.expired, 1);
        call_expire();
      }
      if (now >= B.deadline + IR_BUDGET_GRACE) {
        snprintf(msg, sizeof msg,
                 "the time budget (--timeout %g s) ran out and the phase running "
                 "did not stop within %d s",
                 B.seconds, IR_BUDGET_GRACE);
        stop(msg);
      }
    }
  }
  return NULL;
}

int ir_budget_start(const char *cmd, double seconds, long memory_mb, int status) {
  if (B.started) return 0;
  B.cmd = cmd;
  B.seconds = seconds;
  B.started_at = mono();
  B.deadline = seconds > 0 ? B.started_at + seconds : 0;
  B.memory_mb = memory_mb;
  B.base_kb = ir_resident_kb();
  B.limit_kb = memory_mb > 0 ? (memory_mb + memory_mb / 4 + 256) * 1024 : 0;
  B.status = status;
  if (!B.deadline && !B.limit_kb) return 0;
  pthread_t t;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  int r = pthread_create(&t, &at, budget_main, NULL);
  pthread_attr_destroy(&at);
  if (r) return -1;
  B.started = 1;
  return 0;
}

int ir_budget_expired(void) {
  if (B.deadline > 0 && mono() >= B.deadline) atomic_store(&B.expired, 1);
  return atomic_load(&B.expired) || ir_work_over();
}

static atomic_long work_limit, work_done;

void ir_work_limit(long elements) { atomic_store(&work_limit, elements); }

void ir_work_add(long elements) { atomic_fetch_add(&work_done, elements); }

long ir_work_done(void) { return atomic_load(&work_done); }

long ir_work_left(void) {
  long limit = atomic_load(&work_limit), done = atomic_load(&work_done);
  return limit <= 0 ? -1 : done < limit ? limit - done : 0;
}

int ir_work_over(void) {
  long limit = atomic_load(&work_limit);
  return limit > 0 && atomic_load(&work_done) > limit;
}

double ir_budget_left(double want) {
  if (B.deadline <= 0) return want;
  double left = B.deadline - mono();
  if (left < 1e-3) left = 1e-3;
  return want > 0 && want < left ? want : left;
}
