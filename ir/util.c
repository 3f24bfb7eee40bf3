/*
 * util.c - the small utilities every module shares (declared in ir/ir.h):
 *
 *   ir_buf      one growable string (printf into it, take the text out);
 *   ir_error    one error value with a position and a code, filled by
 *               ir_error_set (which accepts NULL, so callers that do not
 *               want the message pass none) and printed by ir_error_print;
 *   ir_run      one subprocess runner: fork + execvp (no shell, so no
 *               quoting), standard output and error captured through pipes
 *               (or written to a file), a wall-clock limit after which the
 *               child's whole process group is killed, and the exit status;
 *   ir_include_dir  uplift's own frontend/include folder (polybench.h),
 *               looked up once.
 *
 * The runner polls both pipes so that a child that writes much to one of
 * them never blocks on the other; the child gets its own process group so
 * that a timeout also ends whatever it started.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"

/* ----------------------------------------------------------- strings */

/* Room for n more bytes and the NUL. */
static void buf_reserve(ir_buf *b, size_t n) {
  if (b->n + n + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (b->n + n + 1 > cap) cap *= 2;
  b->s = ir_realloc(b->s, cap);
  b->cap = cap;
}

void ir_buf_add(ir_buf *b, const char *s, size_t n) {
  buf_reserve(b, n);
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

void ir_buf_puts(ir_buf *b, const char *s) { ir_buf_add(b, s, strlen(s)); }

void ir_buf_vprintf(ir_buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0) return;
  buf_reserve(b, (size_t)n);
  vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
  b->n += (size_t)n;
}

void ir_buf_printf(ir_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *ir_buf_str(const ir_buf *b) { return b->s ? b->s : ""; }

void ir_buf_reset(ir_buf *b) {
  b->n = 0;
  if (b->s) b->s[0] = 0;
}

char *ir_buf_take(ir_buf *b) {
  char *s = b->s ? b->s : ir_strdup("");
  b->s = NULL;
  b->n = b->cap = 0;
  return s;
}

void ir_buf_free(ir_buf *b) {
  ir_free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
}

/* ------------------------------------------------------------ errors */

const char *ir_err_code_name(ir_err_code c) {
  switch (c) {
  case IR_ERR_NONE: return "none";
  case IR_ERR_INPUT: return "input";
  case IR_ERR_SHAPE: return "shape";
  case IR_ERR_RANGE: return "range";
  case IR_ERR_TIMEOUT: return "timeout";
  case IR_ERR_TOOL: return "tool";
  case IR_ERR_SYSTEM: return "system";
  case IR_ERR_INTERNAL: return "internal";
  }
  return "?";
}

void ir_error_clear(ir_error *e) {
  if (!e) return;
  memset(&e->pos, 0, sizeof e->pos);
  e->code = IR_ERR_NONE;
  e->msg[0] = 0;
  e->supported = NULL;
}

int ir_error_vset(ir_error *e, ir_pos pos, ir_err_code code, const char *fmt, va_list ap) {
  if (!e) return -1;
  e->pos = pos;
  e->code = code;
  e->supported = NULL;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  return -1;
}

int ir_error_set(ir_error *e, ir_pos pos, ir_err_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(e, pos, code, fmt, ap);
  va_end(ap);
  return -1;
}

void ir_error_print(const ir_error *e, const ir_source *src) {
  ir_diag_error(src, e->pos, e->supported, "%s", e->msg);
}

char *ir_error_str(const ir_error *e, char *buf, size_t n) {
  if (!n) return buf;
  if (e->pos.file || e->pos.line > 0)
    snprintf(buf, n, "%s:%d:%d: %s", e->pos.file ? e->pos.file : "?", e->pos.line, e->pos.col,
             e->msg);
  else
    snprintf(buf, n, "%s", e->msg);
  return buf;
}

/* -------------------------------------------------------- subprocess */

static double now_seconds(void) { return ir_monotonic_seconds(); }

/* In the child: redirect, set the environment, exec; never returns. */
static void run_child(const char *const *argv, const ir_run_opts *o, int out_fd, int err_fd) {
  setpgid(0, 0);
  dup2(out_fd, 1);
  dup2(o->merge_err ? out_fd : err_fd, 2);
  if (out_fd > 2) close(out_fd);
  if (err_fd > 2 && err_fd != out_fd) close(err_fd);
  for (int i = 0; o->env && o->env[i]; i++) putenv((char *)o->env[i]);
  execvp(argv[0], (char *const *)argv);
  dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

static void kill_group(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
}

/* In the parent: read both pipes until they close, killing the child's
 * process group at the deadline (0: none) or when its standard output
 * passes max_out bytes (0: no cap; what was read past it is dropped). */
static void run_collect(pid_t pid, int fd_out, int fd_err, double deadline, size_t max_out,
                        ir_run_result *res) {
  struct pollfd fds[2] = {{fd_out, POLLIN, 0}, {fd_err, POLLIN, 0}};
  ir_buf *bufs[2] = {&res->out, &res->err};
  int open_fds = (fd_out >= 0) + (fd_err >= 0);
  char chunk[65536];
  while (open_fds > 0) {
    int wait_ms = -1;
    if (deadline > 0 && !res->timed_out) {
      double left = deadline - now_seconds();
      if (left <= 0) {
        kill_group(pid);
        res->timed_out = 1;
      } else {
        wait_ms = (int)(left * 1000) + 1;
      }
    }
    int r = poll(fds, 2, wait_ms);
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && r > 0; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
      if (n > 0) {
        if (i == 0 && res->too_large) continue;
        ir_buf_add(bufs[i], chunk, (size_t)n);
        if (i == 0 && max_out && res->out.n > max_out) {
          kill_group(pid);
          res->too_large = 1;
        }
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
}

int ir_run(const char *const *argv, const ir_run_opts *opt, ir_run_result *res) {
  static const ir_run_opts none;
  const ir_run_opts *o = opt ? opt : &none;
  memset(res, 0, sizeof *res);
  res->status = -1;
  int po[2] = {-1, -1}, pe[2] = {-1, -1}, file_fd = -1;
  if (o->out_file) {
    file_fd = open(o->out_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (file_fd < 0) goto sys_fail;
  } else if (pipe2(po, O_CLOEXEC) < 0) {
    goto sys_fail;
  }
  if (!o->merge_err && pipe2(pe, O_CLOEXEC) < 0) goto sys_fail;
  fflush(stdout);
  fflush(stderr);
  double deadline = o->timeout > 0 ? now_seconds() + o->timeout : 0;
  pid_t pid = fork();
  if (pid < 0) goto sys_fail;
  if (pid == 0) run_child(argv, o, o->out_file ? file_fd : po[1], pe[1]);
  setpgid(pid, pid); /* also here, so that a kill cannot come first */
  if (file_fd >= 0) close(file_fd);
  if (po[1] >= 0) close(po[1]);
  if (pe[1] >= 0) close(pe[1]);
  run_collect(pid, po[0], pe[0], deadline, o->max_out, res);
  int st = 0;
  /* the pipes are closed: the child is done or closed them itself; a
   * deadline still applies to the wait */
  for (;;) {
    pid_t w = waitpid(pid, &st, deadline > 0 && !res->timed_out ? WNOHANG : 0);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return -1;
    if (w == 0) {
      if (now_seconds() >= deadline) {
        kill_group(pid);
        res->timed_out = 1;
      } else {
        usleep(10000);
      }
    }
  }
  res->started = 1;
  if (res->timed_out || res->too_large) return -1;
  if (WIFEXITED(st)) res->status = WEXITSTATUS(st);
  else if (WIFSIGNALED(st)) res->signal = WTERMSIG(st);
  return res->status == 0 ? 0 : -1;
sys_fail:
  ir_buf_printf(&res->err, "cannot run %s: %s\n", argv[0], strerror(errno));
  for (int i = 0; i < 2; i++) {
    if (po[i] >= 0) close(po[i]);
    if (pe[i] >= 0) close(pe[i]);
  }
  if (file_fd >= 0) close(file_fd);
  return -1;
}

void ir_run_describe(const char *const *argv, const ir_run_result *res, double timeout,
                     ir_buf *b) {
  if (!res->started) ir_buf_printf(b, "%s could not be started: ", argv[0]);
  else if (res->timed_out) ir_buf_printf(b, "%s ran past its %g s limit and was stopped", argv[0], timeout);
  else if (res->too_large) ir_buf_printf(b, "%s wrote more output than its limit and was stopped", argv[0]);
  else if (res->signal) ir_buf_printf(b, "%s was killed by signal %d", argv[0], res->signal);
  else ir_buf_printf(b, "%s exited with status %d", argv[0], res->status);
}

void ir_run_result_free(ir_run_result *res) {
  ir_buf_free(&res->out);
  ir_buf_free(&res->err);
}

int ir_have_program(const char *name) {
  const char *path = getenv("PATH");
  if (strchr(name, '/')) return access(name, X_OK) == 0;
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    const char *e = strchr(path, ':');
    size_t n = e ? (size_t)(e - path) : strlen(path);
    char cand[PATH_MAX];
    snprintf(cand, sizeof cand, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
    if (access(cand, X_OK) == 0) return 1;
    path += n + (e ? 1 : 0);
  }
  return 0;
}

const char *ir_ordinal(int n) {
  static const char *const names[] = {"first", "second", "third",   "fourth", "fifth",
                                      "sixth", "seventh", "eighth", "ninth",  "tenth"};
  static _Thread_local char buf[32];
  if (n >= 1 && n <= 10) return names[n - 1];
  snprintf(buf, sizeof buf, "%d-th", n);
  return buf;
}

/* ----------------------------------------------------- include folder */

static char include_dir[PATH_MAX + 32];
static int include_found;
static pthread_once_t include_once = PTHREAD_ONCE_INIT;

static void find_include_dir(void) {
  include_found = !ir_tree_dir("frontend/include/polybench.h", "frontend/include", include_dir,
                               sizeof include_dir);
}

const char *ir_include_dir(void) {
  pthread_once(&include_once, find_include_dir);
  return include_found ? include_dir : NULL;
}
