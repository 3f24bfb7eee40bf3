/*
 * cmd_raise.c - `uplift raise FILE.c`: the main job.  Front end, polyhedral
 * analysis, the dialect's grammar, the enumerator task by task, then the
 * composed program as one MLIR func.func (or a JSON report).  --check also
 * runs the raised program at sizes no example used and compares it with
 * the natively compiled original on the same random inputs.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "pipeline/pipeline.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: uplift raise FILE.c [options]\n"
          "\n"
          "Raise the kernel of FILE.c to a tensor program in a dialect and print\n"
          "it as one MLIR func.func (or a JSON report with --json).  A line per\n"
          "task on stderr gives its program, statistics and verification verdict.\n"
          "\n"
          "options:\n"
          "  --dialect NAME|PATH       hlo (default), linalg, tosa, or a dialect file\n"
          "  --max-ops N               largest program searched per sub-goal (default 6);\n"
          "                            solved sub-goals are leaves of the next, so\n"
          "                            a task's program may have more ops\n"
          "  --timeout S               time budget of the whole raise in seconds\n"
          "                            (default 120; out of it: exit 1)\n"
          "  --work M                  work budget of the whole raise: millions of\n"
          "                            result elements the search computes (default:\n"
          "                            none; out of it: exit 1), and as many isl\n"
          "                            operations for the analysis; a count, so where\n"
          "                            it ends does not depend on the machine's speed\n"
          "  --memory MB               memory budget (default 4096): the search stops\n"
          "                            when its values reach it, the analysis when the\n"
          "                            process's memory does\n"
          "  --threads N               evaluation threads (default: all cores; the\n"
          "                            result does not depend on it)\n"
          "  --seed S                  seed of the random examples (default 1)\n"
          "  --verify real|fp|none     equivalence check of every task (default real)\n"
          "  --bound B                 verify at every size 1..B (default 3)\n"
          "%s"
          "  --json                    print the JSON report instead of MLIR\n"
          "  --shapes static|dynamic   MLIR dims: the extents the file declares (Polybench\n"
          "                            dataset macros), or `?` with runtime checks\n"
          "                            (cf.assert) of tied dims; default: static when\n"
          "                            the file declares extents, else dynamic\n"
          "  --sizes N=V,...           static MLIR dims from these sizes (all of them)\n"
          "  --emit mlir|c             output MLIR (default), or C with CBLAS calls:\n"
          "                            a drop-in replacement of the kernel function\n"
          "  --check                   run the raised program at new sizes against the\n"
          "                            natively compiled original (exit 3 if they differ;\n"
          "                            what was compared on stderr and in the JSON)\n"
          "  --element-type f32|f64    take every floating type of the kernel as this\n"
          "                            one (a double kernel raised as float: values and\n"
          "                            literals rounded to float, float arithmetic)\n"
          "  -o FILE                   write the output to FILE\n"
          "  -q, --quiet               no per-task report on stderr\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 raised, 1 not raised within the budget (the reason on\n"
          "stderr), 2 bad input or usage, 3 a verification or cross-check failure,\n"
          "4 the dialect has not the kernel's element type (try --element-type)\n",
          cli_solver_budget_help(), cli_frontend_help);
}

#define MAX_STATIC_SIZE (1L << 40) /* a --sizes value (an MLIR dim) at most */

enum { OPT_DIALECT = 0x200, OPT_JSON, OPT_CHECK, OPT_SHAPES, OPT_EMIT, OPT_ELEM, OPT_SIZES };

/* The options of one `uplift raise`. */
typedef struct raise_cli {
  pipe_raise_opts po;
  fe_options fe;
  const char *path, *outpath;
  const char *sizes_text; /* --sizes, or NULL */
  long *sizes;            /* its sizes by var id (parsed before the raise) */
  int json, check, quiet, dynamic, emit_c;
  int shapes_given, emit_given, vbudget_given; /* for the combinations refused */
} raise_cli;

/* The text report on stderr: one line per task output. */
/* ", assumes ...; assumes ..." for the assumption bits of a proof. */
static const char *assumes_text(unsigned assumes, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = 0;
  for (int a = 0; a < VERIFY_ASSUMES_ALL && len < n; a++)
    if (assumes & (1u << a))
      len += (size_t)snprintf(buf + len, n - len, ", %s", verify_assumes_name(a, 0));
  return buf;
}

/* The verdict as reported: a proof under the masked-zero assumption is
 * "proved for finite inputs" (verify_verdict_word). */
static const char *verdict_word(const enum_verify_result *v, int json) {
  if (v->verdict != ENUM_PROVED) return enum_verdict_name(v->verdict);
  return verify_verdict_word(VERIFY_PROVED, v->assumes, json);
}

/* What the search did about an avoidable assumption the verdict kept
 * (docs/verify.md, "structural zeros"), or NULL when it kept none. */
static const char *alt_search_text(const enum_verify_result *v, char *buf, size_t n) {
  if (!(v->assumes & VERIFY_ASSUMES_CONDITIONAL)) return NULL;
  if (!v->alt_max_ops)
    snprintf(buf, n, "no assumption-free program searched for (no input found where the "
                     "assumption matters)");
  else
    snprintf(buf, n, "no assumption-free program of at most %d ops found%s%s%s", v->alt_max_ops,
             v->alt_complete ? "" : " (search cut short)",
             !v->differs[0]                              ? ""
             : (v->assumes & VERIFY_ASSUMES_MASKED_ZERO) ? "; with an infinity there: "
             : (v->assumes & VERIFY_ASSUMES_FINITE)      ? "; with a NaN, -0 or infinity there: "
                                                         : "; with a NaN or -0 there: ",
             v->differs);
  return buf;
}

/* The result line of task t (one per output, with its program under it). */
static void print_task(const ir_kernel *k, const enum_result *r, int t) {
  char as[512], alt[480];
  ir_buf prog = {0}; /* the program's text, whatever its length */
  for (int o = 0; o < r->tasks[t].noutputs; o++) {
    const enum_output *eo = &r->tasks[t].outputs[o];
    const char *at = alt_search_text(&eo->verify, alt, sizeof alt);
    char steps[100] = "";
    if (eo->verify.verdict != ENUM_SKIPPED) {
      steps[0] = ',';
      steps[1] = ' ';
      verify_steps_text(eo->verify.steps, eo->verify.steps_used, steps + 2, sizeof steps - 2);
    }
    ir_buf_reset(&prog);
    ir_tp_buf(&prog, eo->program, k);
    fprintf(stderr,
            "task %d %s: %d ops, %.3f s synthesis (%ld enumerated, %ld static filtered, "
            "%ld evaluated, %ld equivalence filtered); %s (%s, bound %d, %ld size cases%s%s%s%s, "
            "%.3f s)%s%s%s%s\n"
            "  %s\n",
            t, k->vars[eo->var]->name, eo->stats.ops, eo->stats.seconds, eo->stats.enumerated,
            eo->stats.static_filtered, eo->stats.evaluated, eo->stats.equivalence_filtered,
            verdict_word(&eo->verify, 0), eo->verify.mode ? eo->verify.mode : "none",
            eo->verify.bound, eo->verify.size_cases,
            eo->verify.cases_left_out ? ", some left out" : "",
            assumes_text(eo->verify.assumes, as, sizeof as),
            eo->verify.all_sizes ? ", " VERIFY_ALL_SIZES_TEXT : "", steps, eo->verify.seconds,
            at ? "; " : "", at ? at : "", eo->verify.reason[0] ? ": " : "", eo->verify.reason,
            ir_buf_str(&prog));
  }
  ir_buf_free(&prog);
}

/* The end of the text report, after the task lines (printed as each task
 * was done): the views the proofs assume and the time. */
/* The scalar items of pr (issue 14): its own, its parts' and its body's,
 * recursively. */
static int count_scalar(const pipe_raised *pr) {
  int n = pr->kept.scalar != NULL;
  for (int i = 0; i < pr->nparts; i++) n += count_scalar(&pr->parts[i]);
  if (pr->body) n += count_scalar(pr->body);
  return n;
}

static void print_summary(const pipe_raised *pr) {
  const ir_kernel *k = pr->a->kernel;
  ir_kernel_print_views(k, "", stderr); /* proved under these (docs/frontend.md) */
  fprintf(stderr, "raised %s in %.3f s", k->name, pr->res.seconds);
  int ns = count_scalar(pr);
  if (ns) /* what is proved is the raised items' tasks, no more */
    fprintf(stderr, ", with %d scalar item%s (statements kept as scalar loops, run as "
                    "written: verdict scalar, not proved)", ns, ns == 1 ? "" : "s");
  fprintf(stderr, "\n");
}

/* ------------------------------------------------------ the live report
 * While the raise runs: each task's result lines as it is done (unless
 * --json or -q), and on a terminal the progress line (cli_progress): the
 * time spent, the budget, the task and the search's rate. */
typedef struct raise_live {
  int lines; /* print the task lines */
  cli_progress p;
} raise_live;

/* Draw the progress line: task i of n (its outputs), what. */
static void live_draw(raise_live *l, const pipe_raised *pr, int task, const char *what) {
  const poly_task *pt = &pr->a->tasks[task];
  char outs[160] = "";
  size_t len = 0;
  for (int i = 0; i < pt->noutputs && len < sizeof outs; i++)
    len += (size_t)snprintf(outs + len, sizeof outs - len, "%s%s", i ? " " : "",
                            pr->a->kernel->vars[pt->outputs[i].var]->name);
  cli_progress_draw(&l->p, "task %d (%s), %d of %d: %s", task, outs, task + 1, pr->a->ntasks,
                    what);
}

static void live_task_done(void *user, const pipe_raised *pr, int task) {
  raise_live *l = user;
  if (!l->lines) return;
  cli_progress_clear(&l->p);
  print_task(pr->a->kernel, &pr->res, task);
}

static void live_searching(void *user, const pipe_raised *pr, int task, long stored,
                           double rate) {
  char what[128] = "searching";
  if (rate >= 0)
    snprintf(what, sizeof what, "searching, %.0f candidates/s, %ld stored", rate, stored);
  live_draw(user, pr, task, what);
}

static void live_verifying(void *user, const pipe_raised *pr, int task) {
  live_draw(user, pr, task, "verifying a program");
}

/* smt_timeout: the wall-clock limit per solver query the tasks ran under. */
static cJSON *report_json(const ir_kernel *k, const gram_dialect *d, const enum_result *r,
                          double smt_timeout) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "kernel", k->name);
  cJSON_AddStringToObject(root, "file", k->file);
  cJSON_AddStringToObject(root, "dialect", d->name);
  cJSON_AddBoolToObject(root, "raised", r->raised);
  if (!r->raised && r->reason) cJSON_AddStringToObject(root, "reason", r->reason);
  cJSON_AddNumberToObject(root, "seconds", r->seconds);
  cJSON *jas = cJSON_AddArrayToObject(root, "assumptions"); /* every proof's hypothesis */
  for (int i = 0; i < k->nassumes; i++) {
    if (k->assumes[i].kept) continue;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) continue;
    ir_assume_print(k, &k->assumes[i], f);
    fclose(f);
    cJSON_AddItemToArray(jas, cJSON_CreateString(text));
    free(text);
  }
  char *ov = NULL; /* the overlap assumptions, a line each after "assumes " */
  size_t ovlen = 0;
  FILE *f = open_memstream(&ov, &ovlen);
  if (f) {
    ir_kernel_print_overlaps(k, "", f);
    fclose(f);
    for (char *line = strtok(ov, "\n"); line; line = strtok(NULL, "\n"))
      cJSON_AddItemToArray(jas, cJSON_CreateString(line + strlen("assumes ")));
    free(ov);
  }
  cJSON *tasks = cJSON_AddArrayToObject(root, "tasks");
  ir_buf prog = {0}; /* the program's text, whatever its length */
  /* a failed raise stops at its first output without a program: the
   * outputs after it were never searched (their entries hold no output) */
  int stop = 0;
  for (int t = 0; t < r->ntasks && !stop; t++) {
    const enum_task_result *tr = &r->tasks[t];
    for (int o = 0; o < tr->noutputs && !stop; o++) {
      const enum_output *eo = &tr->outputs[o];
      if (!eo->program && r->raised) continue;
      if (!eo->program) stop = 1;
      cJSON *jt = cJSON_CreateObject();
      cJSON_AddNumberToObject(jt, "task", t);
      cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
      cJSON_AddItemToArray(outs, cJSON_CreateString(k->vars[eo->var]->name));
      if (eo->program) {
        ir_buf_reset(&prog);
        ir_tp_buf(&prog, eo->program, k);
        cJSON_AddStringToObject(jt, "program", ir_buf_str(&prog));
      } else
        cJSON_AddNullToObject(jt, "program");
      cJSON_AddNumberToObject(jt, "ops", eo->stats.ops);
      cJSON *st = cJSON_AddObjectToObject(jt, "stats");
      cJSON_AddNumberToObject(st, "enumerated", (double)eo->stats.enumerated);
      cJSON_AddNumberToObject(st, "static_filtered", (double)eo->stats.static_filtered);
      cJSON_AddNumberToObject(st, "evaluated", (double)eo->stats.evaluated);
      cJSON_AddNumberToObject(st, "equivalence_filtered",
                              (double)eo->stats.equivalence_filtered);
      cJSON_AddNumberToObject(st, "elements", (double)eo->stats.elements);
      cJSON_AddNumberToObject(jt, "synth_seconds", eo->stats.seconds);
      cJSON *v = cJSON_AddObjectToObject(jt, "verify");
      cJSON_AddStringToObject(v, "verdict", verdict_word(&eo->verify, 1));
      cJSON_AddStringToObject(v, "mode", eo->verify.mode ? eo->verify.mode : "none");
      cJSON_AddNumberToObject(v, "bound", eo->verify.bound);
      cJSON_AddNumberToObject(v, "size_cases", (double)eo->verify.size_cases);
      cJSON_AddNumberToObject(v, "cases_left_out", (double)eo->verify.cases_left_out);
      cJSON *as = cJSON_AddArrayToObject(v, "assumes");
      for (int a = 0; a < VERIFY_ASSUMES_ALL; a++)
        if (eo->verify.assumes & (1u << a))
          cJSON_AddItemToArray(as, cJSON_CreateString(verify_assumes_name(a, 1)));
      cJSON_AddBoolToObject(v, "all_sizes", eo->verify.all_sizes);
      if (!eo->verify.all_sizes)
        cJSON_AddStringToObject(v, "all_sizes_reason", eo->verify.all_sizes_reason[0]
                                                           ? eo->verify.all_sizes_reason
                                                           : VERIFY_ALL_SIZES_REASON);
      char alt[480];
      const char *at = alt_search_text(&eo->verify, alt, sizeof alt);
      if (at) cJSON_AddStringToObject(v, "assumption_free_search", at);
      if (eo->verify.reason[0]) cJSON_AddStringToObject(v, "reason", eo->verify.reason);
      if (eo->verify.verdict != ENUM_SKIPPED) {
        cJSON_AddNumberToObject(v, "smt_steps", (double)eo->verify.steps);
        cJSON_AddNumberToObject(v, "steps_used", (double)eo->verify.steps_used);
        cJSON_AddNumberToObject(v, "smt_timeout", smt_timeout);
      }
      cJSON_AddNumberToObject(v, "seconds", eo->verify.seconds);
      cJSON_AddItemToArray(tasks, jt);
    }
  }
  ir_buf_free(&prog);
  /* what --work counts, in millions: how large a budget this raise took */
  cJSON_AddNumberToObject(root, "work", (double)ir_work_done() / 1e6);
  return root;
}

/* Refuse the options that do not combine (a usage error; returns 1), or
 * return 0. */
static int refuse_combinations(const raise_cli *o) {
  const char *why = NULL;
  if (o->json && o->emit_given)
    why = "--json prints the report instead of a program: it does not combine with --emit";
  else if (o->json && o->shapes_given)
    why = "--shapes chooses the MLIR dims: it does not combine with --json";
  else if (o->emit_c && o->shapes_given)
    why = "--shapes chooses the MLIR dims: it does not combine with --emit c";
  else if (o->sizes_text && (o->json || o->emit_c || o->dynamic))
    why = "--sizes chooses static MLIR dims: it does not combine with --json, --emit c or "
          "--shapes dynamic";
  else if (o->emit_c && o->po.retype)
    why = "--emit c writes a drop-in replacement of the kernel as written: it does not "
          "combine with --element-type";
  else if (o->po.verify.mode == VERIFY_NONE && o->vbudget_given)
    why = "--bound, --smt-steps and --smt-timeout set the verification: they do not "
          "combine with --verify none";
  if (!why) return 0;
  cli_usage_error("raise", "%s", why);
  return 1;
}

/* Parse argv into o.  Returns 0 to go on, or 1 with *status set (help
 * printed, or a usage error reported). */
static int parse_args(int argc, char **argv, raise_cli *o, int *status) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      {"dialect", required_argument, NULL, OPT_DIALECT},
      CLI_SEARCH_LONGOPTS,
      {"json", no_argument, NULL, OPT_JSON},
      {"emit", required_argument, NULL, OPT_EMIT},
      {"check", no_argument, NULL, OPT_CHECK},
      {"quiet", no_argument, NULL, 'q'},
      CLI_VERIFY_LONGOPTS,
      {"shapes", required_argument, NULL, OPT_SHAPES},
      {"element-type", required_argument, NULL, OPT_ELEM},
      {"sizes", required_argument, NULL, OPT_SIZES},
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  int c;
  *status = IR_EXIT_BAD_INPUT;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "hqo:" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    if (c == CLI_OPT_BOUND || c == CLI_OPT_SMT_STEPS || c == CLI_OPT_SMT_TIMEOUT)
      o->vbudget_given = 1;
    int r = cli_frontend_option("raise", c, optarg, &o->fe);
    if (!r) r = cli_verify_option("raise", c, optarg, &o->po.verify, 1);
    if (!r) r = cli_search_option("raise", c, optarg, 1, 12, &o->po.search);
    if (r < 0) return 1;
    if (r > 0) continue;
    switch (c) {
    case 'h':
      usage(stdout);
      *status = IR_EXIT_OK;
      return 1;
    case 'o': o->outpath = optarg; break;
    case 'q': o->quiet = 1; break;
    case OPT_DIALECT: o->po.dialect = optarg; break;
    case OPT_JSON: o->json = 1; break;
    case OPT_SHAPES:
      if (strcmp(optarg, "static") && strcmp(optarg, "dynamic")) {
        cli_usage_error("raise", "--shapes expects static or dynamic, not '%s'", optarg);
        return 1;
      }
      o->dynamic = !strcmp(optarg, "dynamic");
      o->shapes_given = 1;
      break;
    case OPT_EMIT:
      if (strcmp(optarg, "mlir") && strcmp(optarg, "c")) {
        cli_usage_error("raise", "--emit expects mlir or c, not '%s'", optarg);
        return 1;
      }
      o->emit_c = !strcmp(optarg, "c");
      o->emit_given = 1;
      break;
    case OPT_CHECK: o->check = 1; break;
    case OPT_SIZES: o->sizes_text = optarg; break;
    case OPT_ELEM:
      if (strcmp(optarg, "f32") && strcmp(optarg, "f64")) {
        cli_usage_error("raise", "--element-type expects f32 or f64, not '%s'", optarg);
        return 1;
      }
      o->po.retype = 1;
      o->po.elem = strcmp(optarg, "f32") ? IR_F64 : IR_F32;
      break;
    default: cli_unknown_option("raise", c, argv); return 1;
    }
  }
  if (argc - optind != 1) {
    cli_usage_error("raise", argc == optind ? "missing FILE.c" : "expects one FILE.c");
    return 1;
  }
  o->path = argv[optind];
  return refuse_combinations(o);
}

/* The rounding of a kernel raised with another element type than it is
 * written in (--element-type), or NULL when it is raised as written. */
static const char *retype_note(const pipe_raised *pr, char *buf, size_t n) {
  ir_elem from = pr->written->data_type, to = pr->k->data_type;
  if (from == to) return NULL;
  snprintf(buf, n,
           "the kernel is written in %s and raised as %s (--element-type %s): its inputs, "
           "literals and every operation's result are rounded to %s (to nearest), so the "
           "results are those of the kernel written in %s",
           ir_elem_mlir_name(from), ir_elem_mlir_name(to), ir_elem_mlir_name(to),
           ir_elem_mlir_name(to), ir_elem_mlir_name(to));
  return buf;
}

/* How the MLIR output gets its shapes: from --sizes, from the extents the
 * file declares, or dynamic. */
typedef struct shapes_choice {
  pipe_emit_kind kind;
  const long *sizes; /* by var id of the analysed kernel (static) */
  const char *from;  /* what the top comment says */
} shapes_choice;

/* Choose the shapes of pr's MLIR output as the options say.  Returns 0, or
 * reports why not (--shapes static without extents) and returns
 * IR_EXIT_BAD_INPUT. */
static int choose_shapes(const raise_cli *o, const pipe_raised *pr, ir_arena *arena,
                         shapes_choice *sc) {
  const ir_kernel *k = pr->a->kernel;
  int n = k->nvars > pr->written->nvars ? k->nvars : pr->written->nvars;
  long *sizes = ir_arena_alloc(arena, (size_t)(n + 1) * sizeof(long));
  memset(sizes, 0, (size_t)(n + 1) * sizeof(long));
  sc->kind = PIPE_EMIT_MLIR;
  sc->sizes = sizes;
  if (o->sizes_text) {
    memcpy(sizes, o->sizes, (size_t)pr->written->nvars * sizeof(long));
    ir_kernel_pin_extents(pr->written, sizes);
    sc->from = "static, the sizes given by --sizes";
    return 0;
  }
  if (!o->dynamic && pipe_declared_extents(o->path, &o->fe, pr->written, arena, sizes)) {
    /* a constant extent (float w[4]) is a dim symbol of its own, not a
     * size parameter: it has its value in every static shape */
    ir_kernel_pin_extents(pr->written, sizes);
    sc->from = "static, the extents the file declares for its arrays";
    return 0;
  }
  if (o->shapes_given && !o->dynamic) {
    cli_usage_error("raise", "--shapes static: %s declares no extents for the sizes of %s; "
                    "give them with --sizes", o->path, k->name);
    return IR_EXIT_BAD_INPUT;
  }
  sc->kind = PIPE_EMIT_MLIR_DYNAMIC;
  sc->sizes = NULL;
  sc->from = o->dynamic ? "dynamic (--shapes dynamic)"
                        : "dynamic, as no extents the file declares give every size (--sizes "
                          "chooses static ones)";
  return 0;
}

/* "// ni=1000 nj=1100 nk=1200" of the static sizes, for the top comment
 * (declared: from the file's extents, where a size no shape reads, the
 * storage m of a region [24][20] of A[m][n], has none: left out). */
static void print_sizes_comment(const ir_kernel *k, const long *sizes, int declared, FILE *out) {
  const char *sep = "// sizes: ";
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE && (!declared || sizes[v] > 0)) {
      fprintf(out, "%s%s=%ld", sep, k->vars[v]->name, sizes[v]);
      sep = " ";
    }
  if (sep[0] == ' ') fprintf(out, "\n");
}

/* The raised program of pr as MLIR (the top comment says what it is and
 * where its shapes come from) or C on out.  Returns an exit status. */
static int emit_program(const raise_cli *o, const pipe_raised *pr, FILE *out, ir_arena *arena) {
  ir_error err;
  if (o->emit_c) {
    if (!pipe_emit(pr, PIPE_EMIT_C, NULL, out, &err)) return IR_EXIT_OK;
    fprintf(stderr, "uplift raise: --emit c: %s\n", err.msg);
    return IR_EXIT_MISMATCH;
  }
  shapes_choice sc;
  int st = choose_shapes(o, pr, arena, &sc);
  if (st) return st;
  char note[512];
  fprintf(out, "// %s raised from %s by uplift (dialect %s)\n", pr->k->name, o->path,
          pr->d->name);
  if (retype_note(pr, note, sizeof note)) fprintf(out, "// %s\n", note);
  fprintf(out, "// shapes: %s\n", sc.from);
  if (sc.sizes) print_sizes_comment(pr->written, sc.sizes, !o->sizes_text, out);
  if (!pipe_emit(pr, sc.kind, sc.sizes, out, &err)) return IR_EXIT_OK;
  return IR_EXIT_MISMATCH;
}

/* Report every task output not proved (of every part of a sequence);
 * IR_EXIT_MISMATCH if there is one. */
static int report_unproved(const pipe_raised *pr) {
  const enum_result *res = &pr->res;
  int status = IR_EXIT_OK;
  for (int i = 0; i < pr->nparts; i++)
    if (report_unproved(&pr->parts[i])) status = IR_EXIT_MISMATCH;
  if (pr->body && report_unproved(pr->body)) status = IR_EXIT_MISMATCH;
  for (int t = 0; t < res->ntasks; t++)
    for (int o = 0; o < res->tasks[t].noutputs; o++)
      if (res->tasks[t].outputs[o].verify.verdict != ENUM_PROVED) {
        fprintf(stderr, "uplift raise: task %d (output %s): not proved: %s\n", t,
                pr->a->kernel->vars[res->tasks[t].outputs[o].var]->name,
                enum_verdict_name(res->tasks[t].outputs[o].verify.verdict));
        status = IR_EXIT_MISMATCH;
      }
  return status;
}

/* "ni=7 nj=11 nk=13": run i's sizes of the summary's size parameters. */
static void check_sizes_text(const ir_kernel *k, const pipe_check_summary *cs, int i,
                             ir_buf *b) {
  const char *sep = "";
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE) {
      ir_buf_printf(b, "%s%s=%ld", sep, k->vars[v]->name, cs->sizes[(long)i * cs->nvars + v]);
      sep = " ";
    }
}

/* The "check" object of the JSON report. */
static cJSON *check_json(const ir_kernel *k, const pipe_check_summary *cs, const ir_error *err) {
  cJSON *jc = cJSON_CreateObject();
  cJSON_AddBoolToObject(jc, "agree", cs->agree);
  cJSON_AddStringToObject(jc, "against", "native");
  cJSON *runs = cJSON_AddArrayToObject(jc, "sizes");
  for (int i = 0; i < cs->nruns; i++) {
    cJSON *js = cJSON_CreateObject();
    for (int v = 0; v < k->nvars; v++)
      if (k->vars[v]->kind == IR_VAR_SIZE)
        cJSON_AddNumberToObject(js, k->vars[v]->name, (double)cs->sizes[(long)i * cs->nvars + v]);
    cJSON_AddItemToArray(runs, js);
  }
  cJSON_AddNumberToObject(jc, "elements", (double)cs->elements);
  cJSON_AddNumberToObject(jc, "left_out", (double)cs->left_out);
  cJSON_AddNumberToObject(jc, "rtol", cs->rtol);
  if (!cs->agree) cJSON_AddStringToObject(jc, "error", err->msg);
  return jc;
}

/* The --check line on stderr after an agreement. */
static void print_check(const ir_kernel *k, const pipe_check_summary *cs) {
  if (!cs->nruns) { /* a fixed-size kernel at large constants */
    fprintf(stderr,
            "uplift raise: --check: nothing compared: at every size assignment the natively "
            "compiled original can run at, its arrays hold more than %ld elements\n",
            VERIFY_MAX_ELEMS);
    return;
  }
  ir_buf b = {0};
  for (int i = 0; i < cs->nruns; i++) {
    if (i) ir_buf_printf(&b, "; ");
    check_sizes_text(k, cs, i, &b);
  }
  char tol[64] = "exactly";
  if (cs->rtol > 0) snprintf(tol, sizeof tol, "within relative tolerance %g", cs->rtol);
  char left[192] = "";
  if (cs->left_out)
    snprintf(left, sizeof left,
             "; %ld left out: no value in C (a signed overflow of the original) or an "
             "integer no double holds (past 2^53)",
             cs->left_out);
  fprintf(stderr,
          "uplift raise: --check: the raised program agrees with the natively compiled "
          "original %s: %ld output elements at %d size assignment%s (%s)%s\n",
          tol, cs->elements, cs->nruns, cs->nruns == 1 ? "" : "s", ir_buf_str(&b), left);
  ir_buf_free(&b);
}

/* Why statement i of the scalar item pr stays scalar. */
static const char *scalar_stmt_why(const pipe_raised *pr, int i) {
  const char *w = pr->kept.scalar_stmts ? pr->kept.scalar_stmts[i] : NULL;
  return w ? w : pr->kept.scalar;
}

/* The scalar item pr (pr->kept.scalar): why its statements stay scalar
 * loops, and each of them (S<id> of the item, its position and text). */
static void print_scalar(const pipe_raised *pr) {
  const poly_analysis *a = pr->a;
  ir_buf b = {0};
  fprintf(stderr, "scalar item (line %d): %d statement%s kept as scalar loops, run as written "
                  "(verdict: scalar; the original, nothing to prove): %s\n",
          pr->k->body->pos.line, a->nstmts, a->nstmts == 1 ? "" : "s", pr->kept.scalar);
  for (int i = 0; i < a->nstmts; i++) {
    const ir_stmt *st = a->stmts[i].stmt;
    fprintf(stderr, "  S%d (%s:%d:%d) stays scalar: %s\n", i, pr->k->file, st->pos.line,
            st->pos.col, poly_stmt_text(a->kernel, st, &b));
    const char *why = scalar_stmt_why(pr, i);
    if (strcmp(why, pr->kept.scalar)) fprintf(stderr, "    %s\n", why);
  }
  ir_buf_free(&b);
}

/* The "scalar" object of the scalar item pr's report: its verdict, why,
 * and its statements (what `uplift verify` compares with the source). */
static void scalar_json(const pipe_raised *pr, cJSON *root) {
  const poly_analysis *a = pr->a;
  ir_buf b = {0};
  cJSON *x = cJSON_AddObjectToObject(root, "scalar");
  cJSON_AddStringToObject(x, "verdict", "scalar");
  cJSON_AddStringToObject(x, "why", pr->kept.scalar);
  cJSON *sts = cJSON_AddArrayToObject(x, "statements");
  for (int i = 0; i < a->nstmts; i++) {
    const ir_stmt *st = a->stmts[i].stmt;
    cJSON *y = cJSON_CreateObject();
    cJSON_AddStringToObject(y, "text", poly_stmt_text(a->kernel, st, &b));
    cJSON_AddNumberToObject(y, "line", st->pos.line);
    cJSON_AddNumberToObject(y, "col", st->pos.col);
    cJSON_AddStringToObject(y, "why", scalar_stmt_why(pr, i));
    cJSON_AddItemToArray(sts, y);
  }
  ir_buf_free(&b);
}

/* The kept loop pr raised inside (issue 14): which, why, and its tasks;
 * for a sequence, each part's (its tasks numbered from 0). */
static void print_kept(const pipe_raised *pr, ir_arena *arena) {
  const pipe_kept *kp = &pr->kept;
  if (kp->scalar) {
    print_scalar(pr);
    return;
  }
  ir_buf b = {0}, sl = {0};
  if (kp->folded) /* poly_fold_locals */
    fprintf(stderr, "folded into the elements they end in: %s (each access between its "
                    "first write and its store made that element's)\n", kp->folded);
  for (int i = 0; i < pr->nparts; i++) {
    const pipe_raised *p = &pr->parts[i];
    if (!p->a) break; /* not reached: an earlier part was not raised */
    fprintf(stderr, "part %d of %d (line %d): %s\n", i + 1, pr->nparts, p->k->body->pos.line,
            p->kept.scalar ? "scalar loops" : p->kept.outer || p->kept.why_not ? "a kept loop"
                                                                              : "statements");
    print_kept(p, arena);
  }
  if (kp->outer) {
    const poly_kept_loop *K = &kp->outer->kept[kp->kept];
    for (int i = 0; i < kp->loop.nslices; i++) {
      const ir_tslice *s = &kp->loop.slices[i];
      ir_buf_printf(&sl, "%s%s as %s", i ? ", " : ": the body reads ",
                    pipe_kept_slice_str(pr->a->kernel, s, arena), pr->a->kernel->vars[s->var]->name);
    }
    if (kp->loop.nslices) ir_buf_puts(&sl, ", cut at each iteration");
    const char *it = kp->outer->kernel->vars[K->iter]->name;
    fprintf(stderr, "kept loop %s (line %d): carries a dependence of %s that is not a reduction; ",
            it, K->loop->pos.line, poly_kept_dep(kp->outer, kp->kept, &b));
    if (kp->nested && !pr->body) { /* its body not split into items: the reason below */
      fprintf(stderr, "its body is not raised as items\n");
      ir_buf_free(&b);
      ir_buf_free(&sl);
      return;
    }
    if (pr->body) /* its body a sequence of items (raise_nested) */
      fprintf(stderr, "raised inside it: its body as %d item%s, run in order once per iteration (",
              pr->body->nparts, pr->body->nparts == 1 ? "" : "s");
    else
      fprintf(stderr, "raised inside it: tasks 0-%d, run once per iteration (", pr->res.ntasks - 1);
    if (kp->loop.iter_size) /* pipeline/kept.c, iter_as_size */
      fprintf(stderr, "they read its iterator %s as a size%s, so their verdicts hold at every "
                      "value of %s as at every size)\n", it, ir_buf_str(&sl), it);
    else
      fprintf(stderr, "its iterator does not occur in them%s, so their verdicts hold at every "
                      "iteration)\n", ir_buf_str(&sl));
    if (pr->body) print_kept(pr->body, arena);
  } else if (kp->why_not) {
    fprintf(stderr, "uplift raise: a loop is kept, but not raised inside: %s\n", kp->why_not);
  }
  ir_buf_free(&b);
  ir_buf_free(&sl);
}

static void kept_json(const pipe_raised *pr, cJSON *root, ir_arena *arena) {
  const pipe_kept *kp = &pr->kept;
  if (kp->folded) cJSON_AddStringToObject(root, "folded_locals", kp->folded);
  if (kp->scalar) {
    scalar_json(pr, root);
    return;
  }
  if (!kp->outer && !kp->why_not) return;
  cJSON *kl = cJSON_AddArrayToObject(root, "kept_loops");
  if (!kp->outer) {
    cJSON_AddStringToObject(root, "kept_not_raised_inside", kp->why_not);
    return;
  }
  ir_buf b = {0};
  const poly_kept_loop *K = &kp->outer->kept[kp->kept];
  cJSON *x = cJSON_CreateObject();
  cJSON_AddStringToObject(x, "loop", kp->outer->kernel->vars[K->iter]->name);
  cJSON_AddNumberToObject(x, "line", K->loop->pos.line);
  cJSON_AddStringToObject(x, "dependence", poly_kept_dep(kp->outer, kp->kept, &b));
  cJSON *tasks = cJSON_AddArrayToObject(x, "tasks");
  for (int t = 0; t < pr->res.ntasks; t++) cJSON_AddItemToArray(tasks, cJSON_CreateNumber(t));
  cJSON_AddBoolToObject(x, "iterator_is_size", kp->loop.iter_size);
  cJSON *slices = cJSON_AddArrayToObject(x, "slices");
  for (int i = 0; i < kp->loop.nslices; i++) {
    const ir_tslice *s = &kp->loop.slices[i];
    cJSON *y = cJSON_CreateObject();
    cJSON_AddStringToObject(y, "operand", pr->a->kernel->vars[s->var]->name);
    cJSON_AddStringToObject(y, "array", pr->a->kernel->vars[s->src]->name);
    cJSON_AddStringToObject(y, "reads", pipe_kept_slice_str(pr->a->kernel, s, arena));
    cJSON_AddItemToArray(slices, y);
  }
  cJSON_AddItemToArray(kl, x);
  ir_buf_free(&b);
}

/* A sequence's items, or those of a kept loop whose body is one (pr->body),
 * as root's "parts": each item's report, in order, recursively. */
static void parts_json(const pipe_raised *pr, cJSON *root, double timeout, ir_arena *arena) {
  const pipe_raised *seq = pr->body ? pr->body : pr;
  if (!seq->nparts) return;
  cJSON *parts = cJSON_AddArrayToObject(root, "parts");
  for (int i = 0; i < seq->nparts && seq->parts[i].a; i++) {
    const pipe_raised *p = &seq->parts[i];
    cJSON *x = report_json(p->a->kernel, p->d, &p->res, timeout);
    cJSON_AddNumberToObject(x, "line", p->k->body->pos.line);
    kept_json(p, x, arena);
    parts_json(p, x, timeout, arena);
    cJSON_AddItemToArray(parts, x);
  }
}

/* Print what pr raised to out (JSON, MLIR or C) and the reports on stderr;
 * run --check.  pe is PIPE_OK or PIPE_ERR_ELEM.  Returns the exit status. */
static int report(const raise_cli *o, const pipe_raised *pr, pipe_error pe, FILE *out,
                  ir_arena *arena) {
  pipe_check_summary cs;
  memset(&cs, 0, sizeof cs);
  ir_error cerr;
  int checked = pr->res.raised && o->check;
  if (checked)
    pipe_check_native(pr->a->kernel, pr->written, o->path, &o->fe, &pr->res,
                      o->po.search.seed + 17, &cs, &cerr);
  char note[512];
  if (o->json) {
    cJSON *root = report_json(pr->a ? pr->a->kernel : pr->k, pr->d, &pr->res, o->po.verify.timeout);
    if (retype_note(pr, note, sizeof note)) {
      cJSON *je = cJSON_AddObjectToObject(root, "element_type");
      cJSON_AddStringToObject(je, "written", ir_elem_mlir_name(pr->written->data_type));
      cJSON_AddStringToObject(je, "raised", ir_elem_mlir_name(pr->k->data_type));
      cJSON_AddStringToObject(je, "rounding", note);
    }
    if (checked) cJSON_AddItemToObject(root, "check", check_json(pr->a->kernel, &cs, &cerr));
    kept_json(pr, root, arena);
    parts_json(pr, root, o->po.verify.timeout, arena);
    char *text = cJSON_Print(root);
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
  }
  if (!o->json && !o->quiet) print_kept(pr, arena);
  if (!pr->res.raised) {
    if (!o->json && o->quiet && !pr->kept.outer) print_kept(pr, arena);
    fprintf(stderr, "uplift raise: %s: not raised: %s\n", o->path, pr->res.reason);
    return pe == PIPE_ERR_ELEM ? IR_EXIT_TYPES : IR_EXIT_NOT_RAISED;
  }
  int status = IR_EXIT_OK;
  if (!o->json) {
    status = emit_program(o, pr, out, arena);
    if (!status && !o->quiet) print_summary(pr);
  }
  if (!status && o->po.verify.mode != VERIFY_NONE) status = report_unproved(pr);
  if (checked && !status && cs.agree) print_check(pr->a->kernel, &cs);
  if (checked && !cs.agree) {
    fprintf(stderr, "uplift raise: --check: %s\n", cerr.msg);
    if (!status) status = IR_EXIT_MISMATCH;
  }
  pipe_check_summary_free(&cs);
  return status;
}

/* Write n bytes to path; returns 0, or -1 after reporting why not. */
static int write_file(const char *path, const char *text, size_t n) {
  FILE *f = fopen(path, "w");
  int bad = !f || fwrite(text, 1, n, f) != n;
  if (f && fclose(f)) bad = 1;
  if (bad) {
    fprintf(stderr, "uplift raise: cannot write %s\n", path);
    return -1;
  }
  return 0;
}

/* --json at a hard stop of the budget (ir_budget_on_stop): the report of
 * a raise that ran out, with what is known on the watch thread (the
 * file, the dialect, the phase that did not stop, the seconds and the
 * work so far); on stdout, or the -o file. */
static void stop_report(void *user, const char *what, const char *phase, double seconds) {
  const raise_cli *o = user;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNullToObject(root, "kernel");
  cJSON_AddStringToObject(root, "file", o->path);
  cJSON_AddStringToObject(root, "dialect", o->po.dialect);
  cJSON_AddBoolToObject(root, "raised", 0);
  char reason[400];
  snprintf(reason, sizeof reason, "stopped: %s%s%s", what, phase ? " in the " : "",
           phase ? phase : "");
  cJSON_AddStringToObject(root, "reason", reason);
  if (phase) cJSON_AddStringToObject(root, "phase", phase);
  cJSON_AddNumberToObject(root, "seconds", seconds);
  cJSON_AddArrayToObject(root, "assumptions");
  cJSON_AddArrayToObject(root, "tasks");
  cJSON_AddNumberToObject(root, "work", (double)ir_work_done() / 1e6);
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (!text) return;
  if (o->outpath)
    write_file(o->outpath, text, strlen(text));
  else
    printf("%s\n", text);
  free(text);
}

int cli_cmd_raise(int argc, char **argv) {
  raise_cli o;
  memset(&o, 0, sizeof o);
  o.po.dialect = "hlo";
  enum_default_options(&o.po.search);
  verify_options_default(&o.po.verify);
  int status;
  if (parse_args(argc, argv, &o, &status)) {
    pipe_fe_options_free(&o.fe);
    return status;
  }
  o.po.fe = &o.fe;
  raise_live live = {.lines = !o.json && !o.quiet};
  cli_progress_start(&live.p, "raise", o.po.search.timeout);
  pipe_raise_hooks hooks = {live_task_done, live_searching, live_verifying, &live};
  o.po.hooks = &hooks;
  o.po.search.progress = live.p.tty;
  if (o.json) ir_budget_on_stop(stop_report, &o);
  cli_search_budget_start("raise", &o.po.search, IR_EXIT_NOT_RAISED);
  ir_arena arena;
  ir_arena_init(&arena);
  if (o.sizes_text) { /* --sizes is checked against the kernel before the raise */
    const ir_kernel *k = fe_parse_file(o.path, &o.fe, &arena);
    o.sizes = k ? ir_arena_alloc(&arena, ((size_t)k->nvars + 1) * sizeof(long)) : NULL;
    if (!k || cli_parse_sizes("raise", k, o.sizes_text, MAX_STATIC_SIZE, o.sizes)) {
      ir_arena_free(&arena);
      pipe_fe_options_free(&o.fe);
      return IR_EXIT_BAD_INPUT;
    }
  }
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  pipe_raised pr;
  ir_error err;
  pipe_error pe = pipe_raise_file(o.path, &o.po, &arena, &store, &pr, &err);
  cli_progress_end(&live.p);
  status = pipe_exit_status(pe);
  if (pe == PIPE_ERR_INTERNAL) fprintf(stderr, "uplift raise: %s\n", err.msg);
  if (pe == PIPE_OK || pe == PIPE_ERR_ELEM) {
    /* -o FILE: the output is kept in memory and FILE written only when
     * the raise succeeded (with --json: whenever the report is complete) */
    char *text = NULL;
    size_t textn = 0;
    FILE *out = o.outpath ? open_memstream(&text, &textn) : stdout;
    if (!out) {
      fprintf(stderr, "uplift raise: out of memory\n");
      status = IR_EXIT_MISMATCH;
    } else {
      status = report(&o, &pr, pe, out, &arena);
      if (out != stdout) {
        fclose(out);
        if (status == IR_EXIT_OK || (o.json && status != IR_EXIT_BAD_INPUT))
          if (write_file(o.outpath, text, textn)) status = IR_EXIT_BAD_INPUT;
        free(text);
      }
    }
  }
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  pipe_fe_options_free(&o.fe);
  return status;
}
