/*
 * cmd_run.c - `uplift run FILE.c`: parse the kernel, run it in the
 * interpreter on seeded inputs at small sizes, print a checksum per
 * written array and, with --native, compile and run the original C code and
 * compare every written element (docs/run.md).
 *
 * Each run is one size assignment (--sizes, repeatable) and one value set
 * (--values int|real|special|huge, a comma list): the native code is
 * compiled once and called for every pair.  With --native-source F
 * --against-native, F (e.g. the `uplift raise --emit c` output) is compared
 * with the natively compiled original instead of the interpreter, which is
 * how the adversarial tests check raised programs against real C.  A run
 * (inputs, interpreter, native calls, comparison) is pipeline/'s
 * pipe_run_one (pipeline/run.c); this file parses the options, checks the
 * memory budget, calls it per size assignment and value set, and prints
 * its result.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "interp/interp.h"

#define CMD "run"
#define MAX_SIZE 100000L
#define MAX_RUNS 64 /* --sizes occurrences */

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift run FILE.c [OPTIONS]\n"
          "\n"
          "Run the kernel of FILE.c in uplift's interpreter on seeded random\n"
          "inputs and print, per array the kernel writes, its name, shape, the\n"
          "sum of its elements and a 64-bit hash.\n"
          "\n"
          "options:\n"
          "  --sizes N=V,...    size parameters (all of them, each 0..100000), e.g.\n"
          "                     ni=3,nj=5,nk=7; repeat the option to run at several\n"
          "                     size assignments\n"
          "  --size-set K       without --sizes: assignment K of distinct small\n"
          "                     primes (0: 3, 5, 7, ... in signature order; 1, 2, ...:\n"
          "                     other assignments); default 0\n"
          "  --seed S           seed of the random inputs (default 1)\n"
          "  --values SETS      input values, a comma list of int (default: integers\n"
          "                     in -4..4), real (non-integers, negatives, -0),\n"
          "                     special (real with NaN and infinities), huge (real\n"
          "                     with 1e300, 3.5e38, subnormals, 2^24+1); one run\n"
          "                     per set and size assignment\n"
          "  --native           also compile FILE.c with cc and run the kernel\n"
          "                     natively on the same inputs; compare every element\n"
          "  --native-source F  with --native: compile F instead of FILE.c as the\n"
          "                     kernel's code (a replacement with the same\n"
          "                     signature, e.g. uplift raise --emit c output)\n"
          "  --against-native   with --native-source: compare F with the natively\n"
          "                     compiled FILE.c instead of the interpreter\n"
          "  --native-cflags S  with --native: extra cc arguments (split at spaces),\n"
          "                     e.g. \"$(pkg-config --cflags --libs openblas)\"\n"
          "  --time-runs N      with --native: skip the interpreter; call the native\n"
          "                     kernel N times on the same random inputs and print\n"
          "                     each call's wall-clock seconds and their median\n"
          "  --timeout S        time limit of the interpreter's run and CPU-time\n"
          "                     limit of the native run, in seconds (default 10)\n"
          "  --memory MB        budget for the kernel's arrays (default 4096): larger\n"
          "                     sizes are refused before anything is allocated\n"
          "%s"
          "  --help             this text\n"
          "\n"
          "exit status: 0 done (and native agrees), 2 bad input or usage, or a\n"
          "runtime error of the kernel (out-of-range subscript), 3 the interpreter\n"
          "ran past --timeout, or the native run differs, crashed, timed out or did\n"
          "not compile, or an output depends on uninitialized values under\n"
          "--native\n",
          cli_frontend_help);
}

/* "int,special": set sets[0..*n-1]; each name at most once. */
static int parse_values(const char *text, pipe_values *sets, int *n) {
  char *copy = ir_strdup(text), *save = NULL;
  int rc = 0;
  *n = 0;
  for (char *item = strtok_r(copy, ",", &save); item && !rc;
       item = strtok_r(NULL, ",", &save)) {
    int s = 0;
    while (s < PIPE_VALUES_COUNT && strcmp(item, pipe_values_name((pipe_values)s))) s++;
    if (s == PIPE_VALUES_COUNT) {
      rc = cli_usage_error(CMD, "--values: unknown value set '%s' (int, real, special, huge)",
                           item);
      break;
    }
    for (int j = 0; j < *n; j++)
      if (sets[j] == (pipe_values)s) rc = cli_usage_error(CMD, "--values: '%s' given twice", item);
    if (!rc) sets[(*n)++] = (pipe_values)s;
  }
  if (!rc && !*n) rc = cli_usage_error(CMD, "--values needs at least one value set");
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
  const char *sizes[MAX_RUNS]; /* --sizes occurrences */
  int nsizes;
  long size_set;
  long seed;
  pipe_values values[PIPE_VALUES_COUNT];
  int nvalues;
  int native;
  const char *native_source; /* compile this instead of file (or NULL) */
  int against_native;        /* compare native_source with the native file */
  const char *native_cflags; /* extra cc arguments, space-separated (or NULL) */
  long timeout;
  long memory_mb; /* --memory: the arrays of all runs together */
  long time_runs; /* > 0: only time the native kernel (benchmarks) */
  fe_options fe;
} run_opts;

/* With --against-native: the outputs' poison elements are not compared. */
static void print_poison_note(const pipe_run_result *r) {
  if (r->poisoned > r->undefined)
    fprintf(stderr,
            "uplift run: note: %zu output elements depend on uninitialized "
            "values and are not compared\n",
            r->poisoned - r->undefined);
}

/* The outputs' elements with no value in C or none a double holds: never
 * compared. */
static void print_undef_note(const pipe_run_result *r) {
  if (r->undefined)
    fprintf(stderr,
            "uplift run: note: %zu output elements have no value in C (a signed "
            "overflow, an undefined shift) or none a double holds (an integer past "
            "2^53) and are not compared\n",
            r->undefined);
}

/* The report of a run: the header and a checksum line per output, with a
 * warning for each output that depends on uninitialized values. */
static void print_report(const run_opts *o, const ir_kernel *k, const long *sizes,
                         pipe_values s, const pipe_run_result *r) {
  printf("kernel %s:", k->name);
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (k->vars[v]->kind == IR_VAR_SIZE) printf(" %s=%ld", k->vars[v]->name, sizes[v]);
  }
  printf(" seed=%ld", o->seed);
  if (s != PIPE_VALUES_INT) printf(" values=%s", pipe_values_name(s));
  printf("\n");
  for (int p = 0; p < k->nparams; p++) {
    int v = k->params[p];
    if (!r->written[v]) continue;
    const ir_tensor *t = &r->env.vals[v];
    size_t nu = r->undef[v], np = r->poison[v] - nu;
    printf("%s ", k->vars[v]->name);
    print_shape(stdout, t);
    printf(" sum=%.17g hash=%016" PRIx64, interp_tensor_sum(t), interp_tensor_hash(t));
    if (np) printf(" poison=%zu", np);
    if (nu) printf(" undefined=%zu", nu);
    printf("\n");
    if (np)
      fprintf(stderr,
              "uplift run: warning: %zu of %zu elements of %s depend on "
              "uninitialized values (poison)\n",
              np, ir_tensor_size(t), k->vars[v]->name);
  }
  fflush(stdout);
}

/* The native comparison's verdict (PIPE_RUN_AGREES or PIPE_RUN_DIFFERS). */
static void print_native(const run_opts *o, const ir_kernel *k, const pipe_run_result *r) {
  const char *refname = o->against_native ? "native original" : "interpreter";
  const char *gotname = o->native_source ? "native source" : "native run";
  if (r->diffs) {
    const ir_var *var = k->vars[r->first.var];
    fprintf(stderr, "uplift run: error: the %s differs from the %s in %ld of %ld "
                    "elements; first: %s", gotname, refname, r->diffs, r->compared, var->name);
    for (int d = 0; d < var->rank; d++) fprintf(stderr, "[%ld]", r->first.index[d]);
    fprintf(stderr, ": %s %.17g, %s %.17g", refname, r->first.expected, gotname, r->first.got);
    if (r->tol) fprintf(stderr, " (relative tolerance %g)", r->tol);
    fputc('\n', stderr);
    return;
  }
  const char *what = o->against_native ? "native source: agrees with the native original"
                                       : "native: agrees";
  if (r->tol)
    printf("%s on %ld elements (relative tolerance %g)\n", what, r->compared, r->tol);
  else
    printf("%s on %ld elements (exact)\n", what, r->compared);
}

/* One run (pipe_run_one) at `sizes` on value set s, and its report.
 * Returns an exit status. */
static int run_one(const run_opts *o, const ir_kernel *k, const long *sizes, pipe_values s,
                   const ir_source *src, pipe_natives *nv) {
  pipe_native_opts no = {o->file, o->native_source, o->against_native, &o->fe,
                         o->native_cflags, (double)o->timeout};
  pipe_run_opts ro = {s, (uint64_t)o->seed, (double)o->timeout, o->native ? &no : NULL,
                      o->time_runs};
  pipe_run_result r;
  int rc = IR_EXIT_OK;
  switch (pipe_run_one(k, sizes, &ro, nv, &r)) {
  case PIPE_RUN_ERROR:
    ir_error_print(&r.err, src);
    rc = r.err.code == IR_ERR_TIMEOUT ? IR_EXIT_MISMATCH : IR_EXIT_BAD_INPUT;
    break;
  case PIPE_RUN_TIMED:
    printf("native seconds:");
    for (long j = 0; j < r.ntimes; j++) printf(" %.6f", r.times[j]);
    printf("\nmedian: %.6f\n", pipe_median(r.times, r.ntimes));
    break;
  case PIPE_RUN_NATIVE_FAILED:
    if (r.written) print_report(o, k, sizes, s, &r);
    if (r.written && r.poisoned && o->against_native) print_poison_note(&r);
    fprintf(stderr, "uplift run: error: %s\n", r.nres.msg);
    rc = IR_EXIT_MISMATCH;
    break;
  case PIPE_RUN_POISONED:
    print_report(o, k, sizes, s, &r);
    fprintf(stderr,
            "uplift run: error: %zu output elements depend on uninitialized "
            "values, so the native run cannot be compared with them\n",
            r.poisoned - r.undefined);
    rc = IR_EXIT_MISMATCH;
    break;
  case PIPE_RUN_DONE:
  case PIPE_RUN_AGREES:
  case PIPE_RUN_DIFFERS:
    print_report(o, k, sizes, s, &r);
    if (r.outcome == PIPE_RUN_DONE) break;
    if (r.poisoned && o->against_native) print_poison_note(&r);
    print_undef_note(&r);
    print_native(o, k, &r);
    if (r.diffs) rc = IR_EXIT_MISMATCH;
    break;
  }
  pipe_run_result_free(&r);
  return rc;
}

/* Every run: each size assignment (--sizes, or the --size-set default)
 * with each value set.  A bad input stops at once; a native difference is
 * reported and the other runs still happen.  Returns the exit status. */
static int run_kernel(const run_opts *o, const ir_kernel *k) {
  long *sizes = ir_calloc((size_t)k->nvars + 1, sizeof *sizes);
  ir_source src = {o->file, NULL, 0};
  ir_source_read(&src, o->file); /* only for quoting lines in errors */
  pipe_natives nv;
  memset(&nv, 0, sizeof nv);
  int rc = IR_EXIT_OK, nsizes = o->nsizes ? o->nsizes : 1;
  for (int i = 0; i < nsizes && rc != IR_EXIT_BAD_INPUT; i++) {
    if (o->nsizes) {
      int r = cli_parse_sizes(CMD, k, o->sizes[i], MAX_SIZE, sizes);
      if (r) {
        rc = r;
        break;
      }
    } else {
      interp_default_sizes(k, (int)o->size_set, sizes);
    }
    double need = pipe_run_mb(k, sizes, o->native, o->against_native);
    if (need > (double)o->memory_mb) {
      fprintf(stderr,
              "uplift run: error: these sizes need %.0f MB for the kernel's arrays%s, "
              "more than the --memory budget of %ld MB\n",
              need, o->native ? " (two copies with --native, three with --against-native)" : "",
              o->memory_mb);
      rc = IR_EXIT_BAD_INPUT;
      break;
    }
    for (int j = 0; j < o->nvalues && rc != IR_EXIT_BAD_INPUT; j++) {
      int r = run_one(o, k, sizes, o->values[j], &src, &nv);
      if (r) rc = r;
    }
  }
  pipe_natives_free(&nv);
  ir_source_free(&src);
  ir_free(sizes);
  return rc;
}

int cli_cmd_run(int argc, char **argv) {
  static const struct option longopts[] = {
      {"sizes", required_argument, NULL, 's'},
      {"size-set", required_argument, NULL, 'k'},
      {"seed", required_argument, NULL, 'S'},
      {"values", required_argument, NULL, 'V'},
      {"native", no_argument, NULL, 'n'},
      {"timeout", required_argument, NULL, 't'},
      {"memory", required_argument, NULL, 'M'},
      {"native-source", required_argument, NULL, 'N'},
      {"against-native", no_argument, NULL, 'A'},
      {"time-runs", required_argument, NULL, 'R'},
      {"native-cflags", required_argument, NULL, 'C'},
      CLI_FE_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  run_opts o;
  memset(&o, 0, sizeof o);
  o.seed = 1;
  o.timeout = 10;
  o.values[0] = PIPE_VALUES_INT;
  o.nvalues = 1;
  o.memory_mb = 4096;
  int rc = IR_EXIT_OK, c;
  optind = 1;
  opterr = 0;
  while (!rc && (c = getopt_long(argc, argv, ":h" CLI_FE_SHORTOPTS, longopts,
                                 NULL)) != -1) {
    int r = cli_frontend_option(CMD, c, optarg, &o.fe);
    if (r < 0) rc = IR_EXIT_BAD_INPUT;
    if (r) continue;
    switch (c) {
    case 's':
      if (o.nsizes == MAX_RUNS)
        rc = cli_usage_error(CMD, "--sizes is given more than %d times", MAX_RUNS);
      else
        o.sizes[o.nsizes++] = optarg;
      break;
    case 'k':
      if (cli_parse_long(CMD, "--size-set", optarg, 0, 1000, &o.size_set))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'S':
      if (cli_parse_long(CMD, "--seed", optarg, 0, 0x7fffffffL, &o.seed))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'V': rc = parse_values(optarg, o.values, &o.nvalues); break;
    case 'n': o.native = 1; break;
    case 'N': o.native_source = optarg; break;
    case 'A': o.against_native = 1; break;
    case 'R':
      if (cli_parse_long(CMD, "--time-runs", optarg, 1, 100, &o.time_runs))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'C': o.native_cflags = optarg; break;
    case 'M':
      if (cli_parse_long(CMD, "--memory", optarg, 16, 1 << 20, &o.memory_mb))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 't':
      if (cli_parse_long(CMD, "--timeout", optarg, 1, 86400, &o.timeout))
        rc = IR_EXIT_BAD_INPUT;
      break;
    case 'h':
      usage(stdout);
      pipe_fe_options_free(&o.fe);
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
  if (!rc && o.time_runs && (o.nsizes > 1 || o.nvalues > 1))
    rc = cli_usage_error(CMD, "--time-runs takes one size assignment and one value set");
  if (!rc && o.against_native && (!o.native || !o.native_source))
    rc = cli_usage_error(CMD, "--against-native needs --native and --native-source");
  if (!rc && o.nsizes && o.size_set)
    rc = cli_usage_error(CMD, "--sizes and --size-set exclude each other");
  if (!rc) {
    o.file = argv[optind];
    /* --timeout bounds each run (the interpreter, the native call); the
     * process's memory is held to --memory as a whole */
    cli_budget_start(CMD, 0, o.memory_mb, IR_EXIT_MISMATCH);
    ir_arena arena;
    ir_arena_init(&arena);
    ir_kernel *k = fe_parse_file(o.file, &o.fe, &arena);
    rc = k ? run_kernel(&o, k) : IR_EXIT_BAD_INPUT;
    ir_arena_free(&arena);
  }
  pipe_fe_options_free(&o.fe);
  return rc;
}
