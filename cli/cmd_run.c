/*
 * cmd_run.c - `uplift run FILE.c`: parse the kernel, run it in the
 * interpreter on seeded random inputs at small sizes, print a checksum per
 * written array and, with --native, compile and run the original C code and
 * compare every written element (docs/run.md).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "frontend/frontend.h"
#include "interp/interp.h"

#define CMD "run"
#define MAX_SIZE 100000L

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift run FILE.c [OPTIONS]\n"
          "\n"
          "Run the kernel of FILE.c in uplift's interpreter on seeded random\n"
          "integer-valued inputs and print, per array the kernel writes, its\n"
          "name, shape, the sum of its elements and a 64-bit hash.\n"
          "\n"
          "options:\n"
          "  --sizes N=V,...    size parameters (all of them), e.g. ni=3,nj=5,nk=7\n"
          "  --size-set K       without --sizes: assignment K of distinct small\n"
          "                     primes (0: 3, 5, 7, ... in signature order; 1, 2, ...:\n"
          "                     other assignments); default 0\n"
          "  --seed S           seed of the random inputs (default 1)\n"
          "  --native           also compile FILE.c with cc and run the kernel\n"
          "                     natively on the same inputs; compare every element\n"
          "  --native-source F  with --native: compile F instead of FILE.c as the\n"
          "                     kernel's code (a replacement with the same\n"
          "                     signature, e.g. uplift raise --emit c output)\n"
          "  --native-cflags S  with --native: extra cc arguments (split at spaces),\n"
          "                     e.g. \"$(pkg-config --cflags --libs openblas)\"\n"
          "  --time-runs N      with --native: skip the interpreter; call the native\n"
          "                     kernel N times on the same random inputs and print\n"
          "                     each call's wall-clock seconds and their median\n"
          "  --timeout S        CPU-time limit of the native run in seconds\n"
          "                     (default 10)\n"
          "%s"
          "  --help             this text\n"
          "\n"
          "exit status: 0 done (and native agrees), 2 bad input or usage, or a\n"
          "runtime error of the kernel (out-of-range subscript), 3 the native run\n"
          "differs, crashed, timed out or did not compile, or an output depends on\n"
          "uninitialized values under --native\n",
          cli_frontend_help);
}

/* "ni=3,nj=5": fill sizes[var id]; every size parameter must be given. */
static int parse_sizes(const ir_kernel *k, const char *text, long *sizes) {
  int given[k->nvars + 1];
  memset(given, 0, sizeof given);
  char *copy = ir_strdup(text), *save = NULL;
  int rc = 0;
  for (char *item = strtok_r(copy, ",", &save); item && !rc;
       item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (!eq) {
      rc = cli_usage_error(CMD, "--sizes expects NAME=VALUE items, not '%s'", item);
      break;
    }
    *eq = 0;
    int v = ir_kernel_find_var(k, item);
    if (v < 0 || k->vars[v]->kind != IR_VAR_SIZE) {
      char names[512] = "";
      size_t at = 0;
      for (int j = 0; j < k->nvars && at < sizeof names; j++)
        if (k->vars[j]->kind == IR_VAR_SIZE)
          at += (size_t)snprintf(names + at, sizeof names - at, "%s%s",
                                 at ? ", " : "", k->vars[j]->name);
      rc = cli_usage_error(CMD, "'%s' is not a size parameter of %s (its sizes: %s)",
                           item, k->name, at ? names : "none");
      break;
    }
    if (given[v]) {
      rc = cli_usage_error(CMD, "size '%s' is given twice", item);
      break;
    }
    long val;
    char opt[80];
    snprintf(opt, sizeof opt, "--sizes %s", item);
    if (cli_parse_long(CMD, opt, eq + 1, 0, MAX_SIZE, &val)) {
      rc = IR_EXIT_BAD_INPUT;
      break;
    }
    given[v] = 1;
    sizes[v] = val;
  }
  for (int v = 0; v < k->nvars && !rc; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE && !given[v])
      rc = cli_usage_error(CMD, "--sizes does not give size '%s'", k->vars[v]->name);
  ir_free(copy);
  return rc;
}

static void print_shape(FILE *out, const ir_tensor *t) {
  fprintf(out, "%s", ir_elem_mlir_name(t->elem));
  if (!t->rank) fprintf(out, "[]");
  for (int d = 0; d < t->rank; d++) fprintf(out, "[%ld]", t->dims[d]);
}

typedef struct run_opts {
  const char *file;
  const char *sizes;
  long size_set;
  long seed;
  int native;
  const char *native_source; /* compile this instead of file (or NULL) */
  const char *native_cflags; /* extra cc arguments, space-separated (or NULL) */
  long timeout;
  long time_runs; /* > 0: only time the native kernel (benchmarks) */
  fe_options fe;
} run_opts;

/* Compile the native code: the file or --native-source, with the words
 * of --native-cflags as extra cc arguments; and the limits of a call
 * (--timeout).  NULL on failure (res says why). */
static interp_native *compile_native(const run_opts *o, const ir_kernel *k,
                                     interp_native_limits *lim, interp_native_result *res) {
  char *words = ir_strdup(o->native_cflags ? o->native_cflags : "");
  const char *extra[64];
  int nx = 0;
  for (char *w = strtok(words, " \t\n"); w && nx < 63; w = strtok(NULL, " \t\n"))
    extra[nx++] = w;
  extra[nx] = NULL;
  interp_native *nat = interp_native_compile_with(
      k, o->native_source ? o->native_source : o->file, &o->fe, extra, res);
  ir_free(words);
  interp_native_default_limits(lim);
  lim->cpu_seconds = (double)o->timeout;
  lim->wall_seconds = 2 * lim->cpu_seconds + 5;
  return nat;
}

/* Compile the native code (the file or --native-source, with
 * --native-cflags) once, then call it o->time_runs times, each time on a
 * fresh copy of env's inputs; print the times and their median. */
static int time_native(const run_opts *o, const ir_kernel *k, const interp_env *env,
                       interp_env *nenv) {
  interp_native_result res;
  interp_native_limits lim;
  interp_native *nat = compile_native(o, k, &lim, &res);
  double *t = ir_calloc((size_t)o->time_runs, sizeof *t);
  int rc = IR_EXIT_OK;
  for (long i = 0; nat && i < o->time_runs; i++) {
    interp_env_copy(nenv, env);
    if (interp_native_call(nat, nenv, &lim, &res)) break;
    t[i] = res.seconds;
    if (i == o->time_runs - 1) {
      printf("native seconds:");
      for (long j = 0; j < o->time_runs; j++) printf(" %.6f", t[j]);
      /* median: insertion sort of a few values */
      for (long a = 1; a < o->time_runs; a++)
        for (long b = a; b > 0 && t[b - 1] > t[b]; b--) {
          double x = t[b];
          t[b] = t[b - 1];
          t[b - 1] = x;
        }
      long m = o->time_runs;
      printf("\nmedian: %.6f\n", m % 2 ? t[m / 2] : (t[m / 2 - 1] + t[m / 2]) / 2);
      res.status = INTERP_NATIVE_OK;
    }
  }
  if (!nat || res.status != INTERP_NATIVE_OK) {
    fprintf(stderr, "uplift run: error: %s\n", res.msg);
    rc = IR_EXIT_MISMATCH;
  }
  ir_free(t);
  interp_native_free(nat);
  return rc;
}

static int run_kernel(const run_opts *o, const ir_kernel *k) {
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof *sizes);
  unsigned char *written = ir_calloc((size_t)k->nvars + 1, 1);
  ir_source src = {o->file, NULL, 0};
  ir_source_read(&src, o->file); /* only for quoting lines in errors */
  interp_env env, nenv;
  int have_env = 0, have_nenv = 0, rc = IR_EXIT_OK;
  interp_native *nat = NULL;
  interp_error err;

  if (o->sizes) {
    rc = parse_sizes(k, o->sizes, sizes);
    if (rc) goto done;
  } else {
    interp_default_sizes(k, (int)o->size_set, sizes);
  }
  if (interp_env_init(&env, k, sizes, &err)) {
    interp_error_print(&err, &src);
    rc = IR_EXIT_BAD_INPUT;
    goto done;
  }
  have_env = 1;
  interp_fill_random(&env, (uint64_t)o->seed);
  if (o->native) {
    if (interp_env_init(&nenv, k, sizes, &err)) UNREACHABLE();
    have_nenv = 1;
    interp_env_copy(&nenv, &env);
  }
  if (o->time_runs > 0) {
    rc = time_native(o, k, &env, &nenv);
    goto done;
  }
  if (interp_run(&env, NULL, &err)) {
    interp_error_print(&err, &src);
    rc = IR_EXIT_BAD_INPUT;
    goto done;
  }

  /* the report */
  printf("kernel %s:", k->name);
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (k->vars[v]->kind == IR_VAR_SIZE) printf(" %s=%ld", k->vars[v]->name, sizes[v]);
  }
  printf(" seed=%ld\n", o->seed);
  interp_written_vars(k, NULL, written);
  for (int v = 0; v < k->nvars; v++) /* outputs: array parameters only */
    if (k->vars[v]->kind != IR_VAR_ARRAY) written[v] = 0;
  size_t poisoned = 0;
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (!written[v] || k->vars[v]->kind != IR_VAR_ARRAY) continue;
    const ir_tensor *t = &env.vals[v];
    size_t np = interp_poison_count(t);
    printf("%s ", k->vars[v]->name);
    print_shape(stdout, t);
    printf(" sum=%.17g hash=%016" PRIx64, interp_tensor_sum(t), interp_tensor_hash(t));
    if (np) printf(" poison=%zu", np);
    printf("\n");
    if (np) {
      fprintf(stderr,
              "uplift run: warning: %zu of %zu elements of %s depend on "
              "uninitialized values (poison)\n",
              np, ir_tensor_size(t), k->vars[v]->name);
      poisoned += np;
    }
  }
  fflush(stdout);
  if (!o->native) goto done;

  /* the native cross-check */
  if (poisoned) {
    fprintf(stderr,
            "uplift run: error: %zu output elements depend on uninitialized "
            "values, so the native run cannot be compared with them\n",
            poisoned);
    rc = IR_EXIT_MISMATCH;
    goto done;
  }
  interp_native_result res;
  interp_native_limits lim;
  nat = compile_native(o, k, &lim, &res);
  if (!nat || interp_native_call(nat, &nenv, &lim, &res)) {
    fprintf(stderr, "uplift run: error: %s\n", res.msg);
    rc = IR_EXIT_MISMATCH;
    goto done;
  }
  double tol = interp_kernel_tolerance(k);
  interp_mismatch mm;
  long compared = 0;
  long diffs = interp_compare(&env, &nenv, written, tol, &mm, &compared);
  if (diffs) {
    const ir_var *var = k->vars[mm.var];
    fprintf(stderr, "uplift run: error: the native run differs from the "
                    "interpreter in %ld of %ld elements; first: %s",
            diffs, compared, var->name);
    for (int d = 0; d < var->rank; d++) fprintf(stderr, "[%ld]", mm.index[d]);
    fprintf(stderr, ": interpreter %.17g, native %.17g", mm.expected, mm.got);
    if (tol) fprintf(stderr, " (relative tolerance %g)", tol);
    fputc('\n', stderr);
    rc = IR_EXIT_MISMATCH;
    goto done;
  }
  if (tol)
    printf("native: agrees on %ld elements (relative tolerance %g)\n", compared, tol);
  else
    printf("native: agrees on %ld elements (exact)\n", compared);

done:
  interp_native_free(nat);
  if (have_env) interp_env_free(&env);
  if (have_nenv) interp_env_free(&nenv);
  ir_source_free(&src);
  ir_free(sizes);
  ir_free(written);
  return rc;
}

int cli_cmd_run(int argc, char **argv) {
  static const struct option longopts[] = {
      {"sizes", required_argument, NULL, 's'},
      {"size-set", required_argument, NULL, 'k'},
      {"seed", required_argument, NULL, 'S'},
      {"native", no_argument, NULL, 'n'},
      {"timeout", required_argument, NULL, 't'},
      {"native-source", required_argument, NULL, 'N'},
      {"time-runs", required_argument, NULL, 'R'},
      {"native-cflags", required_argument, NULL, 'C'},
      CLI_FE_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  run_opts o;
  memset(&o, 0, sizeof o);
  o.seed = 1;
  o.timeout = 10;
  int rc = IR_EXIT_OK, c;
  optind = 1;
  opterr = 0;
  while (!rc && (c = getopt_long(argc, argv, ":h" CLI_FE_SHORTOPTS, longopts,
                                 NULL)) != -1) {
    int r = cli_frontend_option(CMD, c, optarg, &o.fe);
    if (r < 0) rc = IR_EXIT_BAD_INPUT;
    if (r) continue;
    switch (c) {
    case 's': o.sizes = optarg; break;
    case 'k':
      if (cli_parse_long(CMD, "--size-set", optarg, 0, 1000, &o.size_set))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'S':
      if (cli_parse_long(CMD, "--seed", optarg, 0, 0x7fffffffL, &o.seed))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'n': o.native = 1; break;
    case 'N': o.native_source = optarg; break;
    case 'R':
      if (cli_parse_long(CMD, "--time-runs", optarg, 1, 100, &o.time_runs))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'C': o.native_cflags = optarg; break;
    case 't':
      if (cli_parse_long(CMD, "--timeout", optarg, 1, 86400, &o.timeout))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'h':
      usage(stdout);
      cli_frontend_options_free(&o.fe);
      return IR_EXIT_OK;
    case ':':
      rc = cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
      break;
    default:
      rc = cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
      break;
    }
  }
  if (!rc && optind != argc - 1)
    rc = cli_usage_error(CMD, optind >= argc ? "no input file"
                                             : "exactly one input file expected");
  if (!rc && o.time_runs && !o.native)
    rc = cli_usage_error(CMD, "--time-runs needs --native");
  if (!rc && o.sizes && o.size_set)
    rc = cli_usage_error(CMD, "--sizes and --size-set exclude each other");
  if (!rc) {
    o.file = argv[optind];
    ir_arena arena;
    ir_arena_init(&arena);
    ir_kernel *k = fe_parse_file(o.file, &o.fe, &arena);
    rc = k ? run_kernel(&o, k) : IR_EXIT_BAD_INPUT;
    ir_arena_free(&arena);
  }
  cli_frontend_options_free(&o.fe);
  return rc;
}
