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
#include "emit/emit.h"
#include "enumerator/enumerator.h"
#include "interp/interp.h"
#include "polyhedral/polyhedral.h"
#include "verify/verify.h"

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
          "  --max-ops N               largest program searched per goal (default 6)\n"
          "  --timeout S               time budget in seconds (default 120)\n"
          "  --memory MB               memory budget for candidate values (default 4096)\n"
          "  --threads N               evaluation threads (default: all cores; the\n"
          "                            result does not depend on it)\n"
          "  --seed S                  seed of the random examples (default 1)\n"
          "  --verify real|fp|none     equivalence check of every task (default real)\n"
          "  --bound B                 verify at every size 1..B (default 3)\n"
          "  --smt-timeout S           seconds per solver query (default 10)\n"
          "  --json                    print the JSON report instead of MLIR\n"
          "  --shapes static|dynamic   MLIR dims: concrete example sizes (default), or\n"
          "                            `?` with runtime checks (cf.assert) of tied dims\n"
          "  --emit mlir|c             output MLIR (default), or C with CBLAS calls:\n"
          "                            a drop-in replacement of the kernel function\n"
          "  --check                   run the raised program at new sizes against the\n"
          "                            natively compiled original (exit 3 if they differ)\n"
          "  -o FILE                   write the output to FILE\n"
          "  -q, --quiet               no per-task report on stderr\n"
          "%s"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 raised, 1 not raised within the budget (the reason on\n"
          "stderr), 2 bad input or usage, 3 a verification or cross-check failure\n",
          cli_frontend_help);
}

enum { OPT_DIALECT = 0x200, OPT_MAXOPS, OPT_TIMEOUT, OPT_MEMORY, OPT_THREADS,
       OPT_SEED, OPT_JSON, OPT_CHECK,
       OPT_SHAPES, OPT_EMIT };

/* The verification callback is cli_verify_cb (verify_glue.c), shared with
 * `uplift verify`. */

/* Compare the raised program with the natively compiled original at two
 * size assignments no example used and at one representative of every
 * size case of the kernel and the program's masks (poly_size_cases_build),
 * those within VERIFY_MAX_ELEMS elements.  Returns 0 if they agree. */
static int check_native(const ir_kernel *k, const char *path, const fe_options *fe,
                        const enum_result *r, uint64_t seed) {
  interp_native_result nres;
  interp_native *nat = interp_native_compile(k, path, fe, &nres);
  if (!nat) {
    fprintf(stderr, "uplift raise: --check: %s\n", nres.msg);
    return -1;
  }
  const ir_tnode *masks[64];
  int nmasks = 0;
  for (int i = 0; i < r->prog.nresults; i++)
    nmasks = cli_tnode_masks(r->prog.results[i], masks, nmasks, 64);
  poly_size_cases sc;
  if (poly_size_cases_build(k, NULL, nmasks, masks, CLI_SIZE_CASES, &sc))
    memset(&sc, 0, sizeof sc);
  int bad = 0;
  for (int variant = 7; variant < 9 + sc.ncases && !bad; variant++) {
    long *sizes = ir_calloc((size_t)k->nvars, sizeof(long));
    if (variant < 9)
      interp_default_sizes(k, variant, sizes);
    else
      memcpy(sizes, sc.cases + (long)(variant - 9) * k->nvars, sizeof(long) * (size_t)k->nvars);
    if (ir_kernel_elements(k, sizes, VERIFY_MAX_ELEMS) > VERIFY_MAX_ELEMS) {
      ir_free(sizes);
      continue;
    }
    interp_env env;
    interp_error err;
    if (interp_env_init(&env, k, sizes, &err)) {
      fprintf(stderr, "uplift raise: --check: %s\n", err.msg);
      ir_free(sizes);
      bad = 1;
      break;
    }
    interp_fill_random(&env, seed + (uint64_t)variant);
    ir_tensor *args = ir_calloc((size_t)k->nvars, sizeof(ir_tensor));
    for (int v = 0; v < k->nvars; v++) {
      if (!env.vals[v].data) continue;
      args[v] = env.vals[v];
      size_t n = ir_tensor_size(&env.vals[v]);
      args[v].data = ir_malloc((n ? n : 1) * sizeof(double));
      memcpy(args[v].data, env.vals[v].data, n * sizeof(double));
      args[v].poison = NULL;
    }
    if (interp_native_call(nat, &env, NULL, &nres)) {
      fprintf(stderr, "uplift raise: --check: native run: %s\n", nres.msg);
      bad = 1;
    }
    double rtol = interp_kernel_tolerance(k) > 0 ? 1e-9 : 0;
    if (k->data_type == IR_F32) rtol = 1e-4;
    for (int i = 0; i < r->prog.nresults && !bad; i++) {
      ir_tensor got;
      interp_err ierr;
      int v = r->result_vars[i];
      if (enum_eval_node(r->prog.results[i], args, k->nvars, sizes, &got, &ierr)) {
        fprintf(stderr, "uplift raise: --check: evaluating %s: %s\n", k->vars[v]->name,
                ierr.msg);
        bad = 1;
        break;
      }
      size_t n = ir_tensor_size(&got);
      for (size_t j = 0; j < n && !bad; j++) {
        if (!interp_values_agree(env.vals[v].data[j], got.data[j], rtol) ||
            (got.poison && got.poison[j])) {
          fprintf(stderr,
                  "uplift raise: --check: %s element %zu: native %.17g, raised %.17g\n",
                  k->vars[v]->name, j, env.vals[v].data[j], got.data[j]);
          bad = 1;
        }
      }
      interp_tensor_free(&got);
    }
    for (int v = 0; v < k->nvars; v++) ir_free(args[v].data);
    ir_free(args);
    interp_env_free(&env);
    ir_free(sizes);
  }
  poly_size_cases_free(&sc);
  interp_native_free(nat);
  return bad ? -1 : 0;
}

/* The text report on stderr: one line per task output. */
static void print_summary(const ir_kernel *k, const enum_result *r) {
  char buf[4096];
  for (int t = 0; t < r->ntasks; t++)
    for (int o = 0; o < r->tasks[t].noutputs; o++) {
      const enum_output *eo = &r->tasks[t].outputs[o];
      fprintf(stderr,
              "task %d %s: %d ops, %.3f s synthesis (%ld enumerated, %ld static filtered, "
              "%ld evaluated, %ld equivalence filtered); %s (%s, bound %d, %ld size cases%s%s%s, "
              "%.3f s)\n"
              "  %s\n",
              t, k->vars[eo->var]->name, eo->stats.ops, eo->stats.seconds,
              eo->stats.enumerated, eo->stats.static_filtered, eo->stats.evaluated,
              eo->stats.equivalence_filtered, enum_verdict_name(eo->verify.verdict),
              eo->verify.mode ? eo->verify.mode : "none", eo->verify.bound,
              eo->verify.size_cases, eo->verify.cases_left_out ? ", some left out" : "",
              eo->verify.assumes ? ", " : "", eo->verify.assumes ? eo->verify.assumes : "",
              eo->verify.seconds, ir_tp_str(eo->program, k, buf, sizeof buf));
    }
  fprintf(stderr, "raised %s in %.3f s\n", k->name, r->seconds);
}

static cJSON *report_json(const ir_kernel *k, const gram_dialect *d, const enum_result *r) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "kernel", k->name);
  cJSON_AddStringToObject(root, "file", k->file);
  cJSON_AddStringToObject(root, "dialect", d->name);
  cJSON_AddBoolToObject(root, "raised", r->raised);
  if (!r->raised && r->reason) cJSON_AddStringToObject(root, "reason", r->reason);
  cJSON_AddNumberToObject(root, "seconds", r->seconds);
  cJSON *tasks = cJSON_AddArrayToObject(root, "tasks");
  char buf[8192];
  for (int t = 0; t < r->ntasks; t++) {
    const enum_task_result *tr = &r->tasks[t];
    for (int o = 0; o < tr->noutputs; o++) {
      const enum_output *eo = &tr->outputs[o];
      if (!eo->program && r->raised) continue;
      cJSON *jt = cJSON_CreateObject();
      cJSON_AddNumberToObject(jt, "task", t);
      cJSON *outs = cJSON_AddArrayToObject(jt, "outputs");
      cJSON_AddItemToArray(outs, cJSON_CreateString(k->vars[eo->var]->name));
      if (eo->program)
        cJSON_AddStringToObject(jt, "program", ir_tp_str(eo->program, k, buf, sizeof buf));
      else
        cJSON_AddNullToObject(jt, "program");
      cJSON_AddNumberToObject(jt, "ops", eo->stats.ops);
      cJSON *st = cJSON_AddObjectToObject(jt, "stats");
      cJSON_AddNumberToObject(st, "enumerated", (double)eo->stats.enumerated);
      cJSON_AddNumberToObject(st, "static_filtered", (double)eo->stats.static_filtered);
      cJSON_AddNumberToObject(st, "evaluated", (double)eo->stats.evaluated);
      cJSON_AddNumberToObject(st, "equivalence_filtered",
                              (double)eo->stats.equivalence_filtered);
      cJSON_AddNumberToObject(jt, "synth_seconds", eo->stats.seconds);
      cJSON *v = cJSON_AddObjectToObject(jt, "verify");
      cJSON_AddStringToObject(v, "verdict", enum_verdict_name(eo->verify.verdict));
      cJSON_AddStringToObject(v, "mode", eo->verify.mode ? eo->verify.mode : "none");
      cJSON_AddNumberToObject(v, "bound", eo->verify.bound);
      cJSON_AddNumberToObject(v, "size_cases", (double)eo->verify.size_cases);
      cJSON_AddNumberToObject(v, "cases_left_out", (double)eo->verify.cases_left_out);
      cJSON *as = cJSON_AddArrayToObject(v, "assumes");
      if (eo->verify.assumes_json)
        cJSON_AddItemToArray(as, cJSON_CreateString(eo->verify.assumes_json));
      cJSON_AddFalseToObject(v, "all_sizes");
      cJSON_AddStringToObject(v, "all_sizes_reason", VERIFY_ALL_SIZES_REASON);
      cJSON_AddNumberToObject(v, "seconds", eo->verify.seconds);
      cJSON_AddItemToArray(tasks, jt);
    }
  }
  return root;
}

int cli_cmd_raise(int argc, char **argv) {
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      {"dialect", required_argument, NULL, OPT_DIALECT},
      {"max-ops", required_argument, NULL, OPT_MAXOPS},
      {"timeout", required_argument, NULL, OPT_TIMEOUT},
      {"memory", required_argument, NULL, OPT_MEMORY},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"seed", required_argument, NULL, OPT_SEED},
      {"json", no_argument, NULL, OPT_JSON},
      {"emit", required_argument, NULL, OPT_EMIT},
      {"check", no_argument, NULL, OPT_CHECK},
      {"quiet", no_argument, NULL, 'q'},
      CLI_VERIFY_LONGOPTS,
      {"shapes", required_argument, NULL, OPT_SHAPES},
      CLI_FE_LONGOPTS,
      {NULL, 0, NULL, 0}};
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  enum_options eo;
  enum_default_options(&eo);
  const char *dialect = "hlo", *outpath = NULL;
  int json = 0, check = 0, quiet = 0, dynamic = 0, emit_c = 0;
  verify_options vo;
  verify_options_default(&vo);
  optind = 1;
  opterr = 0;
  int c;
  long v;
  while ((c = getopt_long(argc, argv, "hqo:" CLI_FE_SHORTOPTS, longopts, NULL)) != -1) {
    int r = cli_frontend_option("raise", c, optarg, &fe);
    if (!r) r = cli_verify_option("raise", c, optarg, &vo, 1);
    if (r < 0) goto usage_fail;
    if (r > 0) continue;
    switch (c) {
    case 'h':
      cli_frontend_options_free(&fe);
      usage(stdout);
      return IR_EXIT_OK;
    case 'o': outpath = optarg; break;
    case 'q': quiet = 1; break;
    case OPT_DIALECT: dialect = optarg; break;
    case OPT_MAXOPS:
      if (cli_parse_long("raise", "--max-ops", optarg, 1, 12, &v)) goto usage_fail;
      eo.max_ops = (int)v;
      break;
    case OPT_TIMEOUT:
      if (cli_parse_long("raise", "--timeout", optarg, 1, 86400, &v)) goto usage_fail;
      eo.timeout = (double)v;
      break;
    case OPT_MEMORY:
      if (cli_parse_long("raise", "--memory", optarg, 16, 1 << 20, &v)) goto usage_fail;
      eo.memory_mb = v;
      break;
    case OPT_THREADS:
      if (cli_parse_long("raise", "--threads", optarg, 1, 256, &v)) goto usage_fail;
      eo.threads = (int)v;
      break;
    case OPT_SEED:
      if (cli_parse_long("raise", "--seed", optarg, 0, 1L << 40, &v)) goto usage_fail;
      eo.seed = (uint64_t)v;
      break;
    case OPT_JSON: json = 1; break;
    case OPT_SHAPES:
      if (strcmp(optarg, "static") && strcmp(optarg, "dynamic")) {
        cli_frontend_options_free(&fe);
        return cli_usage_error("raise", "--shapes expects static or dynamic, not '%s'", optarg);
      }
      dynamic = !strcmp(optarg, "dynamic");
      break;
    case OPT_EMIT:
      if (strcmp(optarg, "mlir") && strcmp(optarg, "c")) {
        cli_usage_error("raise", "--emit expects mlir or c, not '%s'", optarg);
        goto usage_fail;
      }
      emit_c = !strcmp(optarg, "c");
      break;
    case OPT_CHECK: check = 1; break;
    default:
      cli_frontend_options_free(&fe);
      if (c == '?' && optopt)
        return cli_usage_error("raise", "unknown option '-%c' or missing value", optopt);
      return cli_usage_error("raise", "unknown option '%s' or missing value",
                             argv[optind - 1]);
    }
  }
  if (argc - optind != 1) {
    cli_frontend_options_free(&fe);
    return cli_usage_error("raise", argc == optind ? "missing FILE.c" : "expects one FILE.c");
  }
  eo.progress = isatty(2);
  const char *path = argv[optind];
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  int status = IR_EXIT_BAD_INPUT;
  FILE *out = stdout;
  ir_kernel *k = fe_parse_file(path, &fe, &arena);
  gram_dialect *d = k ? gram_load(dialect, &arena) : NULL;
  if (!k || !d) goto done;
  poly_analysis *a = poly_analyze(k, &arena);
  enum_result res;
  cli_verify_state vs;
  memset(&vs, 0, sizeof vs);
  if (vo.mode != VERIFY_NONE) vs.v = verify_new(&vo);
  int r = enum_raise(a, d, &eo, vs.v ? cli_verify_cb : NULL, &vs, &store, &arena, &res);
  cli_verify_state_free(&vs);
  if (vs.v) verify_free(vs.v);
  if (r < 0) {
    fprintf(stderr, "uplift raise: internal error\n");
    status = IR_EXIT_MISMATCH;
    goto done;
  }
  if (outpath && !(out = fopen(outpath, "w"))) {
    fprintf(stderr, "uplift raise: cannot write %s\n", outpath);
    out = stdout;
    goto done;
  }
  if (json) {
    cJSON *root = report_json(a->kernel, d, &res);
    char *text = cJSON_Print(root);
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
  }
  if (!res.raised) {
    fprintf(stderr, "uplift raise: %s: not raised: %s\n", path, res.reason);
    status = IR_EXIT_NOT_RAISED;
    goto done;
  }
  if (!json && emit_c) {
    char err[256];
    if (emit_c_func(d, &res.prog, a->kernel, out, err, sizeof err)) {
      fprintf(stderr, "uplift raise: --emit c: %s\n", err);
      status = IR_EXIT_MISMATCH;
      goto done;
    }
  } else if (!json) {
    long *sizes = ir_arena_alloc(&arena, (size_t)a->kernel->nvars * sizeof(long));
    interp_default_sizes(a->kernel, 0, sizes);
    emit_opts opts = {a->kernel->name, sizes, a->kernel->nvars, dynamic};
    if (emit_mlir_func(d, &res.prog, &opts, out)) {
      status = IR_EXIT_MISMATCH;
      goto done;
    }
  }
  if (!json && !quiet) print_summary(a->kernel, &res);
  status = IR_EXIT_OK;
  if (vo.mode != VERIFY_NONE)
    for (int t = 0; t < res.ntasks; t++)
      for (int o = 0; o < res.tasks[t].noutputs; o++)
        if (res.tasks[t].outputs[o].verify.verdict != ENUM_PROVED) {
          fprintf(stderr, "uplift raise: task %d (output %s): not proved: %s\n", t,
                  a->kernel->vars[res.tasks[t].outputs[o].var]->name,
                  enum_verdict_name(res.tasks[t].outputs[o].verify.verdict));
          status = IR_EXIT_MISMATCH;
        }
  if (check && check_native(a->kernel, path, &fe, &res, eo.seed + 17)) status = IR_EXIT_MISMATCH;
done:
  if (out != stdout) fclose(out);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  cli_frontend_options_free(&fe);
  return status;
usage_fail:
  cli_frontend_options_free(&fe);
  return IR_EXIT_BAD_INPUT;
}
