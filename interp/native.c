/*
 * native.c - native runs of the user's original C kernel (docs/architecture.md
 * section 5), the only file that includes ffi.h.
 *
 * Compile: in a private mkdtemp directory, write a trampoline
 *
 *   #define main static uplift_user_main_
 *   #include "/abs/path/of/user.c"
 *   #undef main
 *   void (*uplift_kernel_entry_)(void) = (void (*)(void))kernel_NAME;
 *
 * so the (usually static) kernel function gets an exported pointer and the
 * user's main becomes an unused static function, which the compiler drops
 * with what only it refers to (upstream Polybench's main calls
 * polybench_alloc_data, defined in utilities/polybench.c, which is not
 * compiled here: a kept main would leave it undefined at dlopen), compile
 * it with `cc -O2 -ffp-contract=off -fPIC -shared` plus the front end's
 * options (ir_run: no shell, the messages captured, a limit that stops a
 * hung compiler), dlopen the shared object and remove the directory.  The call
 * signature (ffi_cif) is built from the parsed parameters: int sizes,
 * double/float/int scalars, pointers for arrays; a returned value
 * (k->returns) is the call's result, stored into the one-element array of
 * the kernel's last parameter.
 *
 * A view (ir_var.store: a[i*lda + j]) gets its whole storage, the region
 * copied in and out at its offsets (a padded pointer's elements past its
 * storage are left out, and keep their values in the tensor); sizes that break the kernel's
 * assumptions (k <= lda) are refused before the call.
 *
 * Call: the arrays are copied, in their C element types, into a MAP_SHARED
 * anonymous mapping; a forked child sets CPU, wall-clock and memory limits,
 * calls the kernel through libffi on pointers into the mapping, records the
 * call's time in the mapping's header and _exits.  The parent waits, turns
 * signals and limits into messages, and copies the results back.  A crash
 * of the user's code never takes uplift down.
 */
#include <dlfcn.h>
#include <errno.h>
#include <ffi.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interp/interp.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define ENTRY_SYMBOL "uplift_kernel_entry_"
#define GLOBAL_SYMBOL "uplift_global_" /* + parameter index */
/* The native compile's wall-clock limit: only stops a hung compiler. */
#define COMPILE_SECONDS 600

struct interp_native {
  const ir_kernel *k;
  void *dl;
  void (*fn)(void);
  ffi_cif cif;
  ffi_type **argtypes; /* nparams */
  void **gaddr;        /* nparams: a file-scope array's address, else NULL */
};

void interp_native_default_limits(interp_native_limits *lim) {
  lim->cpu_seconds = 10;
  lim->wall_seconds = 60;
  lim->memory_bytes = (size_t)4 << 30;
}

/* ------------------------------------------------------------- helpers */

static void set_msg(interp_native_result *res, interp_native_status st,
                    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(interp_native_result *res, interp_native_status st,
                    const char *fmt, ...) {
  res->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->msg, sizeof res->msg, fmt, ap);
  va_end(ap);
}

static void remove_dir(const char *dir, const char *const *files, int n) {
  char p[PATH_MAX + 64];
  for (int i = 0; i < n; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    unlink(p);
  }
  rmdir(dir);
}

static ffi_type *ffi_of(ir_elem e) {
  switch (e) {
  case IR_F64: return &ffi_type_double;
  case IR_F32: return &ffi_type_float;
  case IR_I32: return &ffi_type_sint;
  case IR_I1: return &ffi_type_uint8;
  case IR_I64: return &ffi_type_slong;
  case IR_I8: return &ffi_type_sint8;
  case IR_U8: return &ffi_type_uint8;
  case IR_I16: return &ffi_type_sint16;
  case IR_U16: return &ffi_type_uint16;
  case IR_U32: return &ffi_type_uint32;
  case IR_U64: return &ffi_type_ulong;
  }
  return &ffi_type_sint;
}

static size_t elem_size(ir_elem e) {
  switch (e) {
  case IR_F64: return sizeof(double);
  case IR_F32: return sizeof(float);
  case IR_I32: return sizeof(int);
  case IR_I1: return sizeof(_Bool);
  case IR_I64: return sizeof(long);
  case IR_I8: case IR_U8: return 1;
  case IR_I16: case IR_U16: return 2;
  case IR_U32: return sizeof(unsigned);
  case IR_U64: return sizeof(unsigned long);
  }
  return sizeof(double);
}

/* Compile the trampoline tramp into the shared object so with cc (or $CC)
 * and the front end's options; 0, or -1 with res filled. */
static int compile_so(const char *tramp, const char *so, const char *path,
                      const fe_options *opt, const char *const *extra,
                      interp_native_result *res) {
  /* the command line */
  int nopt = opt ? opt->ninclude + opt->ndefine : 0;
  int nextra = 0;
  while (extra && extra[nextra]) nextra++;
  const char **argv = ir_calloc((size_t)nopt + (size_t)nextra + 20, sizeof *argv);
  char **owned = ir_calloc((size_t)nopt + 2, sizeof *owned);
  int argc = 0, nowned = 0;
  const char *cc = getenv("CC");
  argv[argc++] = (char *)(cc && *cc ? cc : "cc");
  argv[argc++] = "-O2";
  argv[argc++] = "-ffp-contract=off";
  argv[argc++] = "-fPIC";
  argv[argc++] = "-shared";
  argv[argc++] = "-o";
  argv[argc++] = so;
  argv[argc++] = tramp;
  argv[argc++] = "-DPOLYBENCH_USE_C99_PROTO";
  for (int i = 0; opt && i < opt->ndefine; i++) {
    size_t n = strlen(opt->defines[i]) + 3;
    char *d = owned[nowned++] = ir_malloc(n);
    snprintf(d, n, "-D%s", opt->defines[i]);
    argv[argc++] = d;
  }
  for (int i = 0; opt && i < opt->ninclude; i++) {
    size_t n = strlen(opt->include_dirs[i]) + 3;
    char *d = owned[nowned++] = ir_malloc(n);
    snprintf(d, n, "-I%s", opt->include_dirs[i]);
    argv[argc++] = d;
  }
  const char *inc = ir_include_dir();
  if (inc) {
    argv[argc++] = "-I";
    argv[argc++] = (char *)inc;
  }
  argv[argc++] = "-lm";
  for (int i = 0; i < nextra; i++) argv[argc++] = (char *)extra[i];
  argv[argc] = NULL;
  /* the compiler's messages, merged; a hung compiler is stopped */
  ir_run_opts ro = {.timeout = COMPILE_SECONDS, .merge_err = 1};
  ir_run_result rr;
  int rc = ir_run((const char *const *)argv, &ro, &rr);
  if (rc != 0) {
    ir_buf why = {0};
    ir_run_describe((const char *const *)argv, &rr, ro.timeout, &why);
    set_msg(res, INTERP_NATIVE_COMPILE, "compiling %s natively failed (%s):\n%.1600s", path,
            ir_buf_str(&why), ir_buf_str(&rr.out));
    ir_buf_free(&why);
  }
  ir_run_result_free(&rr);
  for (int i = 0; i < nowned; i++) ir_free(owned[i]);
  ir_free(owned);
  ir_free(argv);
  return rc;
}

/* ------------------------------------------------------------- compile */

interp_native *interp_native_compile(const ir_kernel *k, const char *path,
                                     const fe_options *opt,
                                     interp_native_result *res) {
  return interp_native_compile_with(k, path, opt, NULL, res);
}

interp_native *interp_native_compile_with(const ir_kernel *k, const char *path,
                                          const fe_options *opt,
                                          const char *const *extra,
                                          interp_native_result *res) {
  memset(res, 0, sizeof *res);
  char abs[PATH_MAX];
  if (!realpath(path, abs)) {
    set_msg(res, INTERP_NATIVE_COMPILE, "%s: %s", path, strerror(errno));
    return NULL;
  }
  char dir[] = "/tmp/uplift-native-XXXXXX";
  if (!mkdtemp(dir)) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "mkdtemp: %s", strerror(errno));
    return NULL;
  }
  static const char *const files[] = {"trampoline.c", "kernel.so"};
  char tramp[PATH_MAX], so[PATH_MAX];
  snprintf(tramp, sizeof tramp, "%s/%s", dir, files[0]);
  snprintf(so, sizeof so, "%s/%s", dir, files[1]);

  FILE *f = fopen(tramp, "w");
  if (!f) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "%s: %s", tramp, strerror(errno));
    remove_dir(dir, files, 2);
    return NULL;
  }
  fprintf(f, "/* generated by uplift: exports the kernel of %s */\n", abs);
  fprintf(f, "#define main static uplift_user_main_\n#include \"");
  for (const char *p = abs; *p; p++) {
    if (*p == '"' || *p == '\\') fputc('\\', f);
    fputc(*p, f);
  }
  fprintf(f, "\"\n#undef main\n");
  fprintf(f, "void (*%s)(void) = (void (*)(void))%s;\n", ENTRY_SYMBOL, k->name);
  for (int i = 0; i < k->nparams; i++) /* file-scope arrays, static ones too */
    if (k->vars[k->params[i]]->global)
      fprintf(f, "void *%s%d = (void *)%s;\n", GLOBAL_SYMBOL, i, k->vars[k->params[i]]->name);
  fclose(f);

  int rc = compile_so(tramp, so, path, opt, extra, res);
  if (rc != 0) {
    remove_dir(dir, files, 2);
    return NULL;
  }

  void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  remove_dir(dir, files, 2);
  if (!dl) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "dlopen: %s", dlerror());
    return NULL;
  }
  void (**entry)(void) = (void (**)(void))dlsym(dl, ENTRY_SYMBOL);
  if (!entry || !*entry) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "the kernel %s was not found in the "
            "compiled object", k->name);
    dlclose(dl);
    return NULL;
  }

  interp_native *nat = ir_calloc(1, sizeof *nat);
  nat->k = k;
  nat->dl = dl;
  nat->fn = *entry;
  nat->argtypes = ir_calloc((size_t)k->nparams + 1, sizeof *nat->argtypes);
  nat->gaddr = ir_calloc((size_t)k->nparams + 1, sizeof *nat->gaddr);
  for (int i = 0; i < k->nparams; i++) {
    if (!k->vars[k->params[i]]->global) continue;
    char sym[64];
    snprintf(sym, sizeof sym, "%s%d", GLOBAL_SYMBOL, i);
    void **addr = (void **)dlsym(dl, sym);
    if (!addr || !*addr) {
      set_msg(res, INTERP_NATIVE_INTERNAL, "the file-scope array %s was not found in the "
              "compiled object", k->vars[k->params[i]]->name);
      ir_free(nat->gaddr);
      ir_free(nat->argtypes);
      ir_free(nat);
      dlclose(dl);
      return NULL;
    }
    nat->gaddr[i] = *addr;
  }
  for (int i = 0; i < k->nparams; i++) {
    const ir_var *v = k->vars[k->params[i]];
    nat->argtypes[i] = v->kind == IR_VAR_ARRAY ? &ffi_type_pointer
                       : v->kind == IR_VAR_SIZE ? &ffi_type_sint
                                                : ffi_of(v->elem);
  }
  /* a returned value (k->returns): the last parameter is not passed */
  ffi_type *rtype = k->returns ? ffi_of(k->vars[k->params[k->nparams - 1]]->elem)
                               : &ffi_type_void;
  if (ffi_prep_cif(&nat->cif, FFI_DEFAULT_ABI, (unsigned)ir_kernel_nargs(k), rtype,
                   nat->argtypes) != FFI_OK) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "ffi_prep_cif failed");
    interp_native_free(nat);
    return NULL;
  }
  res->status = INTERP_NATIVE_OK;
  return nat;
}

void interp_native_free(interp_native *nat) {
  if (!nat) return;
  if (nat->dl) dlclose(nat->dl);
  ir_free(nat->argtypes);
  ir_free(nat->gaddr);
  ir_free(nat);
}

/* ---------------------------------------------------------------- call */

typedef struct shared_header {
  volatile int done;
  volatile double seconds;
} shared_header;

typedef union arg_value {
  int i;
  double d;
  float f;
  unsigned char b;
  void *p;
} arg_value;

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static void store(void *dst, ir_elem e, double v) {
  if (v != v && ir_elem_is_int(e)) v = 0; /* no value (ir_elem_wrap): any */
  switch (e) {
  case IR_F64: *(double *)dst = v; break;
  case IR_F32: *(float *)dst = (float)v; break;
  case IR_I32: *(int *)dst = (int)v; break;
  case IR_I1: *(_Bool *)dst = v != 0; break;
  case IR_I64: *(long *)dst = (long)v; break;
  case IR_I8: *(int8_t *)dst = (int8_t)v; break;
  case IR_U8: *(uint8_t *)dst = (uint8_t)v; break;
  case IR_I16: *(int16_t *)dst = (int16_t)v; break;
  case IR_U16: *(uint16_t *)dst = (uint16_t)v; break;
  case IR_U32: *(uint32_t *)dst = (uint32_t)v; break;
  case IR_U64: *(uint64_t *)dst = (uint64_t)v; break;
  }
}

static double load(const void *src, ir_elem e) {
  switch (e) {
  case IR_F64: return *(const double *)src;
  case IR_F32: return *(const float *)src;
  case IR_I32: return *(const int *)src;
  case IR_I1: return *(const _Bool *)src;
  case IR_I64: return ir_int_value(e, (uint64_t)*(const long *)src); /* NaN past 2^53 */
  case IR_I8: return *(const int8_t *)src;
  case IR_U8: return *(const uint8_t *)src;
  case IR_I16: return *(const int16_t *)src;
  case IR_U16: return *(const uint16_t *)src;
  case IR_U32: return *(const uint32_t *)src;
  case IR_U64: return ir_int_value(e, *(const uint64_t *)src);
  }
  return 0;
}

static size_t vm_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1) pages = 0;
    fclose(f);
  }
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void child(interp_native *nat, interp_env *env, unsigned char *map,
                  const size_t *offs, const size_t *bytes,
                  const interp_native_limits *lim) {
  const ir_kernel *k = nat->k;
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = 0;
  setrlimit(RLIMIT_CORE, &rl);
  rl.rlim_cur = (rlim_t)ceil(lim->cpu_seconds);
  rl.rlim_max = rl.rlim_cur + 1;
  setrlimit(RLIMIT_CPU, &rl);
  if (!UNDER_ASAN && lim->memory_bytes) {
    rl.rlim_cur = rl.rlim_max = (rlim_t)(vm_bytes() + lim->memory_bytes);
    setrlimit(RLIMIT_AS, &rl);
  }
  struct itimerval it = {{0, 0}, {0, 0}};
  it.it_value.tv_sec = (time_t)lim->wall_seconds;
  it.it_value.tv_usec =
      (suseconds_t)((lim->wall_seconds - floor(lim->wall_seconds)) * 1e6);
  if (!it.it_value.tv_sec && !it.it_value.tv_usec) it.it_value.tv_usec = 1;
  /* default actions, so that a crash shows as its signal even when a
   * sanitizer runtime installed handlers in uplift */
  static const int sigs[] = {SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                             SIGABRT, SIGXCPU, SIGTRAP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
  setitimer(ITIMER_REAL, &it, NULL);

  arg_value *vals = calloc((size_t)k->nparams + 1, sizeof *vals);
  void **ptrs = calloc((size_t)k->nparams + 1, sizeof *ptrs);
  if (!vals || !ptrs) _exit(3);
  for (int i = 0; i < k->nparams; i++) {
    int v = k->params[i];
    const ir_var *var = k->vars[v];
    switch (var->kind) {
    case IR_VAR_SIZE: vals[i].i = (int)env->sizes[v]; break;
    case IR_VAR_ARRAY: vals[i].p = map + offs[i]; break;
    default: store(&vals[i], var->elem, env->vals[v].data[0]); break;
    }
    ptrs[i] = &vals[i];
  }
  shared_header *h = (shared_header *)map;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  /* room for any return value: libffi widens small integers to ffi_arg */
  union { ffi_arg i; double d; float f; } rv;
  for (int i = 0; i < k->nparams; i++) /* file-scope arrays: in place */
    if (nat->gaddr[i]) memcpy(nat->gaddr[i], map + offs[i], bytes[i]);
  ffi_call(&nat->cif, nat->fn, k->returns ? (void *)&rv : NULL, ptrs);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (int i = 0; i < k->nparams; i++)
    if (nat->gaddr[i]) memcpy(map + offs[i], nat->gaddr[i], bytes[i]);
  if (k->returns) { /* the returned value into its one-element array */
    const ir_var *r = k->vars[k->params[k->nparams - 1]];
    unsigned char *dst = map + offs[k->nparams - 1];
    if (r->elem == IR_F64) memcpy(dst, &rv.d, sizeof rv.d);
    else if (r->elem == IR_F32) memcpy(dst, &rv.f, sizeof rv.f);
  }
  h->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  h->done = 1;
  _exit(0);
}

int interp_native_call(interp_native *nat, interp_env *env,
                       const interp_native_limits *lim,
                       interp_native_result *res) {
  const ir_kernel *k = nat->k;
  interp_native_limits dflt;
  if (!lim) {
    interp_native_default_limits(&dflt);
    lim = &dflt;
  }
  memset(res, 0, sizeof *res);
  /* a view is a region of its storage only under the kernel's assumptions */
  char why[200];
  if (!ir_kernel_assumes_hold(k, env->sizes, why, sizeof why)) {
    set_msg(res, INTERP_NATIVE_ASSUME,
            "the sizes break an assumption of %s: %s; its arrays are regions of their "
            "storage only under it", k->name, why);
    return -1;
  }

  /* layout: header, then each array parameter (a view: its whole storage,
   * zeros outside the region) */
  size_t *offs = ir_calloc(2 * ((size_t)k->nparams + 1), sizeof *offs);
  size_t *bytes = offs + k->nparams + 1; /* each array's bytes */
  size_t total = align64(sizeof(shared_header));
  for (int i = 0; i < k->nparams; i++) {
    const ir_var *var = k->vars[k->params[i]];
    if (var->kind != IR_VAR_ARRAY) continue;
    offs[i] = total;
    size_t n = ir_var_is_view(var) ? ir_var_store_size(var, env->sizes)
                                   : ir_tensor_size(&env->vals[var->id]);
    bytes[i] = n * elem_size(var->elem);
    total += align64(bytes[i] + 1);
  }
  unsigned char *map = mmap(NULL, total, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "mmap of %zu bytes: %s", total,
            strerror(errno));
    ir_free(offs);
    return -1;
  }
  for (int i = 0; i < k->nparams; i++) {
    const ir_var *var = k->vars[k->params[i]];
    if (var->kind != IR_VAR_ARRAY) continue;
    const ir_tensor *t = &env->vals[var->id];
    size_t n = ir_tensor_size(t), es = elem_size(var->elem);
    for (size_t j = 0; j < n; j++) {
      size_t o = ir_var_store_offset(var, env->sizes, j);
      if (o != IR_NO_STORE) store(map + offs[i] + o * es, var->elem, t->data[j]);
    }
  }

  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    set_msg(res, INTERP_NATIVE_INTERNAL, "fork: %s", strerror(errno));
    munmap(map, total);
    ir_free(offs);
    return -1;
  }
  if (pid == 0) child(nat, env, map, offs, bytes, lim);

  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      set_msg(res, INTERP_NATIVE_INTERNAL, "waitpid: %s", strerror(errno));
      munmap(map, total);
      ir_free(offs);
      return -1;
    }
  shared_header *h = (shared_header *)map;
  int rc = -1;
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    if (sig == SIGXCPU || sig == SIGKILL)
      set_msg(res, INTERP_NATIVE_TIMEOUT,
              "the native kernel %s exceeded its CPU time limit of %g s",
              k->name, lim->cpu_seconds);
    else if (sig == SIGALRM)
      set_msg(res, INTERP_NATIVE_TIMEOUT,
              "the native kernel %s exceeded its time limit of %g s", k->name,
              lim->wall_seconds);
    else
      set_msg(res, INTERP_NATIVE_CRASH,
              "the native kernel %s crashed: %s (signal %d)", k->name,
              strsignal(sig), sig);
  } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !h->done) {
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (code == 3)
      set_msg(res, INTERP_NATIVE_MEMORY,
              "the native run of %s ran out of memory", k->name);
    else
      set_msg(res, INTERP_NATIVE_CRASH,
              "the native kernel %s exited with status %d instead of returning",
              k->name, code);
  } else {
    res->status = INTERP_NATIVE_OK;
    res->seconds = h->seconds;
    for (int i = 0; i < k->nparams; i++) {
      const ir_var *var = k->vars[k->params[i]];
      if (var->kind != IR_VAR_ARRAY) continue;
      ir_tensor *t = &env->vals[var->id];
      size_t n = ir_tensor_size(t), es = elem_size(var->elem);
      for (size_t j = 0; j < n; j++) { /* past a padded storage: unchanged */
        size_t o = ir_var_store_offset(var, env->sizes, j);
        if (o != IR_NO_STORE) t->data[j] = load(map + offs[i] + o * es, var->elem);
      }
      memset(t->poison, 0, n ? n : 1);
    }
    rc = 0;
  }
  munmap(map, total);
  ir_free(offs);
  return rc;
}
