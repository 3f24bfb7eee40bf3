/*
 * batch.c - `uplift batch`: raise many kernel files, one JSON line each
 * (docs/batch.md).  The files are collected in a fixed order (each folder's
 * *.c files sorted by name); those already recorded in the output file are
 * skipped, so an interrupted run resumes.  Each kernel is raised by a child
 * process, `uplift raise FILE --json -q OPTIONS` of the running binary
 * (ir_run), so a crash or a budget stop of one kernel cannot take the batch
 * down; up to `jobs` children run at once, each driven by a worker thread.
 * The lines are handed to the caller in the collected order as soon as
 * every earlier kernel is done, so the output does not depend on `jobs`.
 */
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "pipeline/pipeline.h"

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_file(pipe_batch_files *f, const char *path) {
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    f->paths = ir_realloc(f->paths, sizeof *f->paths * (size_t)f->cap);
  }
  f->paths[f->n++] = ir_strdup(path);
}

/* Append the *.c files of folder dir, sorted by name.  Returns 0 or -1. */
static int add_dir(pipe_batch_files *f, const char *dir, ir_error *err) {
  DIR *dp = opendir(dir);
  const ir_pos nowhere = {0};
  if (!dp) return ir_error_set(err, nowhere, IR_ERR_INPUT, "cannot read folder %s", dir);
  int first = f->n;
  struct dirent *e;
  while ((e = readdir(dp))) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.' || len < 3 || strcmp(e->d_name + len - 2, ".c")) continue;
    ir_buf p = {0};
    ir_buf_printf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
    struct stat st;
    if (stat(ir_buf_str(&p), &st) == 0 && S_ISREG(st.st_mode)) add_file(f, ir_buf_str(&p));
    ir_buf_free(&p);
  }
  closedir(dp);
  qsort(f->paths + first, (size_t)(f->n - first), sizeof *f->paths, cmp_str);
  return 0;
}

int pipe_batch_collect(char *const *args, int nargs, pipe_batch_files *f, ir_error *err) {
  memset(f, 0, sizeof *f);
  const ir_pos nowhere = {0};
  for (int i = 0; i < nargs; i++) {
    struct stat st;
    if (stat(args[i], &st) != 0)
      return ir_error_set(err, nowhere, IR_ERR_INPUT, "%s: no such file or folder", args[i]);
    if (S_ISDIR(st.st_mode)) {
      if (add_dir(f, args[i], err)) return -1;
    } else
      add_file(f, args[i]);
  }
  return 0;
}

void pipe_batch_files_free(pipe_batch_files *f) {
  for (int i = 0; i < f->n; i++) ir_free(f->paths[i]);
  ir_free(f->paths);
  memset(f, 0, sizeof *f);
}

int pipe_batch_recorded(const char *outpath, const char *file) {
  FILE *in = fopen(outpath, "r");
  if (!in) return 0;
  char *line = NULL;
  size_t cap = 0;
  int found = 0;
  while (!found && getline(&line, &cap, in) > 0) {
    cJSON *j = cJSON_Parse(line);
    const cJSON *jf = cJSON_GetObjectItemCaseSensitive(j, "file");
    found = cJSON_IsString(jf) && !strcmp(jf->valuestring, file);
    cJSON_Delete(j);
  }
  free(line);
  fclose(in);
  return found;
}

/* ------------------------------------------------------------- running */

/* One kernel: its line once raised. */
typedef struct batch_item {
  const char *file;
  int done;
  pipe_batch_result r;
} batch_item;

typedef struct batch_state {
  const pipe_batch_opts *o;
  batch_item *items;
  int n, next, flushed;
  char self[PATH_MAX];
  pthread_mutex_t mu;
} batch_state;

/* Count the tasks of report j (and those proved) into r. */
static void count_tasks(pipe_batch_result *r, const cJSON *j) {
  const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(j, "tasks"), *t;
  cJSON_ArrayForEach(t, tasks) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "verify");
    const cJSON *vd = cJSON_GetObjectItemCaseSensitive(v, "verdict");
    r->tasks++;
    if (cJSON_IsString(vd) && !strcmp(vd->valuestring, "proved")) r->proved++;
  }
}

/* The line of a kernel from the child's exit status and output: the
 * report (compact) with "exit" added, or, when the child printed none,
 * {"file", "raised": false, "exit", "reason": its last stderr line}. */
static void make_line(batch_item *it, const ir_run_result *rr) {
  pipe_batch_result *r = &it->r;
  r->exit = rr->started && rr->status >= 0 ? rr->status : -1;
  cJSON *j = cJSON_Parse(ir_buf_str(&rr->out));
  if (!cJSON_IsObject(j)) {
    cJSON_Delete(j);
    j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", it->file);
    cJSON_AddBoolToObject(j, "raised", 0);
    /* why: the first "error:" line of stderr, else its last line */
    const char *e = ir_buf_str(&rr->err), *hit = strstr(e, "error:");
    size_t start, len;
    if (hit) {
      for (start = (size_t)(hit - e); start && e[start - 1] != '\n';) start--;
      len = start + strcspn(e + start, "\n");
    } else {
      len = strlen(e);
      while (len && e[len - 1] == '\n') len--;
      for (start = len; start && e[start - 1] != '\n';) start--;
    }
    ir_buf why = {0};
    if (len > start) ir_buf_add(&why, e + start, len - start);
    else ir_buf_printf(&why, "%s", rr->signal ? "killed by a signal" : "no report");
    cJSON_AddStringToObject(j, "reason", ir_buf_str(&why));
    ir_buf_free(&why);
  }
  cJSON_DeleteItemFromObjectCaseSensitive(j, "file");
  cJSON_AddStringToObject(j, "file", it->file);
  cJSON_AddNumberToObject(j, "exit", r->exit);
  const cJSON *raised = cJSON_GetObjectItemCaseSensitive(j, "raised");
  r->raised = cJSON_IsTrue(raised);
  const cJSON *sec = cJSON_GetObjectItemCaseSensitive(j, "seconds");
  r->seconds = cJSON_IsNumber(sec) ? sec->valuedouble : 0;
  const cJSON *kn = cJSON_GetObjectItemCaseSensitive(j, "kernel");
  r->kernel = ir_strdup(cJSON_IsString(kn) ? kn->valuestring : "-");
  count_tasks(r, j);
  const cJSON *parts = cJSON_GetObjectItemCaseSensitive(j, "parts"), *p;
  cJSON_ArrayForEach(p, parts) count_tasks(r, p); /* a sequence: its parts' tasks */
  r->line = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
}

/* Raise item i in a child process. */
static void raise_one(batch_state *s, int i) {
  const pipe_batch_opts *o = s->o;
  const char **argv = ir_malloc(sizeof *argv * (size_t)(o->nraise_args + 6));
  int n = 0;
  argv[n++] = s->self;
  argv[n++] = "raise";
  argv[n++] = s->items[i].file;
  argv[n++] = "--json";
  argv[n++] = "-q";
  for (int a = 0; a < o->nraise_args; a++) argv[n++] = o->raise_args[a];
  argv[n] = NULL;
  ir_run_opts ro = {0};
  ir_run_result rr;
  ir_run(argv, &ro, &rr);
  make_line(&s->items[i], &rr);
  ir_run_result_free(&rr);
  ir_free(argv);
}

static void *worker(void *arg) {
  batch_state *s = arg;
  pthread_mutex_lock(&s->mu);
  while (s->next < s->n) {
    int i = s->next++;
    pthread_mutex_unlock(&s->mu);
    raise_one(s, i);
    pthread_mutex_lock(&s->mu);
    s->items[i].done = 1;
    /* hand out every line whose predecessors are all done, in order */
    while (s->flushed < s->n && s->items[s->flushed].done) {
      s->o->on_line(s->o->user, s->items[s->flushed].file, &s->items[s->flushed].r);
      s->flushed++;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

int pipe_batch_run(const char *const *files, int nfiles, const pipe_batch_opts *o,
                   ir_error *err) {
  const ir_pos nowhere = {0};
  batch_state s;
  memset(&s, 0, sizeof s);
  ssize_t len = readlink("/proc/self/exe", s.self, sizeof s.self - 1);
  if (len <= 0) return ir_error_set(err, nowhere, IR_ERR_SYSTEM, "cannot find the uplift binary");
  s.self[len] = 0;
  s.o = o;
  s.n = nfiles;
  s.items = ir_calloc((size_t)(nfiles + 1), sizeof *s.items);
  for (int i = 0; i < nfiles; i++) s.items[i].file = files[i];
  pthread_mutex_init(&s.mu, NULL);
  int jobs = o->jobs < 1 ? 1 : o->jobs > nfiles ? (nfiles ? nfiles : 1) : o->jobs;
  pthread_t *th = ir_malloc(sizeof *th * (size_t)jobs);
  int started = 0;
  for (int j = 0; j < jobs; j++)
    if (!pthread_create(&th[j], NULL, worker, &s)) started++;
    else break;
  if (!started) worker(&s); /* no thread: run them here */
  for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
  for (int i = 0; i < nfiles; i++) {
    ir_free(s.items[i].r.kernel);
    cJSON_free(s.items[i].r.line);
  }
  ir_free(th);
  ir_free(s.items);
  pthread_mutex_destroy(&s.mu);
  return 0;
}
