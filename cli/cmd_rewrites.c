/*
 * cmd_rewrites.c - `uplift rewrites`: verified rewrite rules mined from a
 * dialect (rw_mine, rewrites/), printed as text, PDLL patterns
 * (emit_pdll, for mlir-pdll-16) or JSON.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "emit/emit.h"
#include "rewrites/rewrites.h"

/* ------------------------------------------------------------- output */

/* "real: proved, fp: refuted" (with ieee: "; IEEE ..." after a verdict
 * other than proved, the probe of rewrites.h). */
static const char *verdicts(const rw_rule *r, int ieee, char *buf, size_t n) {
  if (r->fp == VERIFY_SKIPPED)
    snprintf(buf, n, "real: %s%s%s", verify_verdict_name((verify_verdict)r->real),
             ieee && r->ieee ? "; " : "", ieee && r->ieee ? r->ieee : "");
  else
    snprintf(buf, n, "real: %s, fp: %s%s%s", verify_verdict_name((verify_verdict)r->real),
             verify_verdict_name((verify_verdict)r->fp), ieee && r->ieee ? "; " : "",
             ieee && r->ieee ? r->ieee : "");
  return buf;
}

/* What the two modes mean, as comment lines (docs/verify.md, "Modes"). */
static void print_legend(const rw_opts *o, const char *comment, FILE *out) {
  fprintf(out,
          "%s real: algebraic equality over the real numbers (rounding ignored; the sign "
          "of a zero, infinities and NaN tracked as docs/verify.md says); only the rules "
          "it proves are kept.\n",
          comment);
  if (!o->fp) return;
  fprintf(out,
          "%s fp: the abstract floating-point model of mlir-tv: +, *, max, min, /, sqrt, exp "
          "are unknown functions, known only to be commutative, with 0 + x = x, 1 * x = x "
          "and exact negation; the sign of a zero ignored.\n"
          "%s   fp: proved: the rule holds in every such arithmetic, IEEE included (rounding "
          "to nearest, any order of a reduction).\n"
          "%s   fp: refuted: the model does not imply the rule (it cannot show 1 - 1 = 0), "
          "which is no IEEE counterexample; after it, the rule run in IEEE arithmetic on "
          "inputs with special values: where the sides differ, with the values, or how "
          "many inputs agree.\n",
          comment, comment, comment);
}

/* A comment line (starting with `comment`) saying why the enumeration
 * behind rs was cut short, if it was. */
static void print_incomplete(const rw_rules *rs, const char *comment, FILE *out) {
  if (rs->limited)
    fprintf(out, "%s incomplete: a table limit of the search (%s) left candidates out\n",
            comment, enum_limit_text());
  else if (!rs->complete)
    fprintf(out, "%s incomplete: the time or memory budget stopped the enumeration\n", comment);
}

/* One section of the text output: a counted header, then each rule as
 * `PREFIX lhs -> rhs    [verdicts]` (with the reason when `why`). */
static void text_section(const rw_rules *rs, const char *title, const char *prefix,
                         const rw_rule *rules, int n, int why, FILE *out) {
  char a[512], b[512], v[1024];
  fprintf(out, "# --- %s: %d\n", title, n);
  for (int i = 0; i < n; i++) {
    const rw_rule *r = &rules[i];
    fprintf(out, "%s%s -> %s    [", prefix, ir_tp_str(r->lhs, rs->k, a, sizeof a),
            ir_tp_str(r->rhs, rs->k, b, sizeof b));
    if (why)
      fprintf(out, "%s: %s%s%s]\n", verdicts(r, 0, v, sizeof v), r->why ? r->why : "",
              r->ieee ? "; " : "", r->ieee ? r->ieee : "");
    else
      fprintf(out, "%s]\n", verdicts(r, 1, v, sizeof v));
  }
}

static void emit_text(const rw_rules *rs, const rw_opts *o, FILE *out) {
  fprintf(out, "# %d rules for dialect %s over %s (at most %d ops; %ld proposed, %ld implied, "
          "%d refuted, %d unknown; %ld generalized, %d derived from later rules, %ld ground "
          "folds)\n", rs->n, rs->d->name, o->inputs, o->search.max_ops, rs->proposed,
          rs->implied, rs->nrefuted, rs->nunknown, rs->generalized, rs->shrunk, rs->folds);
  print_legend(o, "#", out);
  if (rs->nargs > rs->ninputs) {
    fputs("# pattern variables (each stands for any term of its type):", out);
    for (int i = rs->ninputs; i < rs->nargs; i++) {
      char t[128];
      fprintf(out, "%s %s:%s", i > rs->ninputs ? "," : "", rs->k->vars[rs->args[i]->arg]->name,
              ir_type_str(&rs->args[i]->type, rs->k, t, sizeof t));
    }
    fputc('\n', out);
  }
  print_incomplete(rs, "#", out);
  if (rs->old_n >= 0)
    fprintf(out, "# derivability: %d of the %d rules of the normal-form miner are derivable "
            "from these %d (equality saturation)\n", rs->old_derivable, rs->old_n, rs->n);
  text_section(rs, "proved (the rules)", "", rs->rules, rs->n, 0, out);
  text_section(rs, "refuted (the interpreter confirms a difference)", "# refuted: ",
               rs->refuted, rs->nrefuted, 1, out);
  text_section(rs, "unknown (not proved, not refuted)", "# unknown: ", rs->unknown,
               rs->nunknown, 1, out);
}

static cJSON *rule_json(const rw_rules *rs, const rw_rule *r) {
  char a[1024];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "lhs", ir_tp_str(r->lhs, rs->k, a, sizeof a));
  cJSON_AddStringToObject(o, "rhs", ir_tp_str(r->rhs, rs->k, a, sizeof a));
  cJSON_AddStringToObject(o, "type", ir_type_str(&r->lhs->type, rs->k, a, sizeof a));
  cJSON_AddNumberToObject(o, "lhs_ops", r->lhs->size);
  cJSON_AddNumberToObject(o, "rhs_ops", r->rhs->size);
  cJSON_AddStringToObject(o, "real", verify_verdict_name((verify_verdict)r->real));
  cJSON_AddStringToObject(o, "fp", verify_verdict_name((verify_verdict)r->fp));
  if (r->why) cJSON_AddStringToObject(o, "reason", r->why);
  if (r->fp_why) cJSON_AddStringToObject(o, "fp_reason", r->fp_why);
  if (r->ieee) cJSON_AddStringToObject(o, "ieee", r->ieee);
  return o;
}

static void emit_json(const rw_rules *rs, const rw_opts *o, FILE *out) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "dialect", rs->d->name);
  cJSON_AddStringToObject(root, "inputs", o->inputs);
  cJSON_AddNumberToObject(root, "max_ops", o->search.max_ops);
  cJSON_AddNumberToObject(root, "proposed", (double)rs->proposed);
  cJSON_AddNumberToObject(root, "implied", (double)rs->implied);
  cJSON_AddBoolToObject(root, "complete", rs->complete);
  if (rs->limited) cJSON_AddStringToObject(root, "limit", enum_limit_text());
  cJSON *pv = cJSON_AddArrayToObject(root, "pattern_variables");
  for (int i = rs->ninputs; i < rs->nargs; i++) {
    char t[128];
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "name", rs->k->vars[rs->args[i]->arg]->name);
    cJSON_AddStringToObject(v, "type", ir_type_str(&rs->args[i]->type, rs->k, t, sizeof t));
    cJSON_AddItemToArray(pv, v);
  }
  cJSON *ra = cJSON_AddArrayToObject(root, "rules");
  for (int i = 0; i < rs->n; i++) cJSON_AddItemToArray(ra, rule_json(rs, &rs->rules[i]));
  cJSON *fa = cJSON_AddArrayToObject(root, "refuted");
  for (int i = 0; i < rs->nrefuted; i++) cJSON_AddItemToArray(fa, rule_json(rs, &rs->refuted[i]));
  cJSON *ua = cJSON_AddArrayToObject(root, "unknown");
  for (int i = 0; i < rs->nunknown; i++) cJSON_AddItemToArray(ua, rule_json(rs, &rs->unknown[i]));
  cJSON *counts = cJSON_AddObjectToObject(root, "counts");
  cJSON_AddNumberToObject(counts, "proposed", (double)rs->proposed);
  cJSON_AddNumberToObject(counts, "implied", (double)rs->implied);
  cJSON_AddNumberToObject(counts, "proved", rs->n);
  cJSON_AddNumberToObject(counts, "refuted", rs->nrefuted);
  cJSON_AddNumberToObject(counts, "unknown", rs->nunknown);
  cJSON_AddNumberToObject(counts, "generalized", (double)rs->generalized);
  cJSON_AddNumberToObject(counts, "derived_from_later", rs->shrunk);
  cJSON_AddNumberToObject(counts, "ground_folds", (double)rs->folds);
  if (rs->old_n >= 0) {
    cJSON *od = cJSON_AddObjectToObject(root, "normal_form_set");
    cJSON_AddNumberToObject(od, "rules", rs->old_n);
    cJSON_AddNumberToObject(od, "derivable", rs->old_derivable);
  }
  char *text = cJSON_Print(root);
  fprintf(out, "%s\n", text);
  cJSON_free(text);
  cJSON_Delete(root);
}

static void print_pdll(const rw_rules *rs, const rw_opts *o, FILE *out) {
  fprintf(out, "// uplift rewrites --dialect %s --inputs \"%s\" --max-ops %d\n"
          "// %d verified rules (Z3, sizes 1..%d); ops as the dialect file writes them (name, "
          "operands, attribute dictionary).\n",
          rs->d->name, o->inputs, o->search.max_ops, rs->n, o->bound > 0 ? o->bound : 2);
  print_incomplete(rs, "//", out);
  emit_pdll_rule *pr = ir_calloc((size_t)rs->n + 1, sizeof *pr);
  char (*notes)[96] = ir_calloc((size_t)rs->n + 1, sizeof *notes);
  int np = 0;
  for (int i = 0; i < rs->n; i++) {
    const rw_rule *r = &rs->rules[i];
    char a[512], b[512];
    if (r->rhs->size >= r->lhs->size) /* an operand order: it would not terminate */
      fprintf(out, "// equality, no pattern (a rewriter applying it would loop): %s -> %s\n",
              ir_tp_str(r->lhs, rs->k, a, sizeof a), ir_tp_str(r->rhs, rs->k, b, sizeof b));
    else
      pr[np++] = (emit_pdll_rule){r->lhs, r->rhs, verdicts(r, 0, notes[np], sizeof notes[np])};
  }
  if (!rs->d->upstream)
    fprintf(out, "// dialect %s is not in upstream MLIR 16 (mlir-opt-16 has no %s ops): these "
            "patterns compile with mlir-pdll-16 but are not applicable there\n", rs->d->name,
            rs->d->name);
  int written = emit_pdll(rs->d, rs->k, pr, np, out);
  fprintf(out, "\n// %d patterns; %d rules are no PDL pattern (comments above say why); %d "
          "equalities\n", written, np - written, rs->n - np);
  ir_free(notes);
  ir_free(pr);
}

/* ------------------------------------------------------ progress line */

static void rules_progress(void *user, int i, int n) {
  cli_progress_draw(user, "checking proposed rule %d of %d", i + 1, n);
}


/* ----------------------------------------------------------------- main */

static void help(FILE *out) {
  fprintf(out,
          "usage: uplift rewrites --dialect D --inputs SPEC [options]\n"
          "Enumerate the dialect's programs over the inputs, group them by\n"
          "observational equivalence and propose `bigger -> smallest` rules; drop\n"
          "rules derivable from accepted ones (equality saturation on an\n"
          "e-graph), verify the rest with Z3 (real mode; fp\n"
          "mode reported too) and print the proved ones with their verdicts, then\n"
          "the refuted ones (the interpreter confirms a difference) and the\n"
          "unknown ones, each section counted.\n\n"
          "  --dialect D               dialect name or file\n"
          "  --inputs SPEC             e.g. \"x:f64[n],y:f64[n],a:f64[]\"\n"
          "  --max-ops N               largest left-hand side (default 2)\n"
          "  --emit text|pdll|json     output format (default text)\n"
          "  -o FILE                   write the output to FILE\n"
          "  --bound N                 verify at sizes 1..N (default 2)\n"
          "%s"
          "  --no-fp                   skip the fp-mode check\n"
          "  --derive-old              also mine the set of the normal-form miner\n"
          "                            (before equality saturation) and report how\n"
          "                            many of its rules these rules derive\n"
          "  --threads N, --seed S, --timeout S, --work M, --memory MB   as for\n"
          "                            explore, but no --timeout by default: each\n"
          "                            solver query is limited by --smt-steps, so\n"
          "                            the output is the same under any load\n"
          "                            (a budget given and run out: the rules not\n"
          "                            yet checked are listed as unknown and the\n"
          "                            exit status is 1)\n"
          "  -h, --help                print this help\n"
          "\n"
          "exit status: 0 done, 1 the time budget ran out before every rule was\n"
          "checked, 2 bad input or usage, 3 the solver or the search failed, 4 the\n"
          "dialect has not the --inputs' element type\n",
          cli_solver_budget_help());
}

enum { OPT_DIALECT = 0x100, OPT_INPUTS, OPT_EMIT, OPT_BOUND, OPT_SMT, OPT_STEPS, OPT_NOFP, OPT_OLD };

int cli_cmd_rewrites(int argc, char **argv) {
  static const struct option longopts[] = {
      {"dialect", required_argument, NULL, OPT_DIALECT},
      {"inputs", required_argument, NULL, OPT_INPUTS},
      {"emit", required_argument, NULL, OPT_EMIT},
      {"bound", required_argument, NULL, OPT_BOUND},
      {"smt-timeout", required_argument, NULL, OPT_SMT},
      {"smt-steps", required_argument, NULL, OPT_STEPS},
      {"no-fp", no_argument, NULL, OPT_NOFP},
      {"derive-old", no_argument, NULL, OPT_OLD},
      CLI_SEARCH_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  rw_opts o;
  rw_default_options(&o); /* no wall-clock budget unless --timeout is given */
  const char *emit = "text", *outpath = NULL;
  int c;
  long v;
  optind = 1;
  while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
    int r = cli_search_option("rewrites", c, optarg, 1, 8, &o.search);
    if (r < 0) return IR_EXIT_BAD_INPUT;
    if (r > 0) continue;
    switch (c) {
    case 'h': help(stdout); return IR_EXIT_OK;
    case 'o': outpath = optarg; break;
    case OPT_DIALECT: o.dialect = optarg; break;
    case OPT_INPUTS: o.inputs = optarg; break;
    case OPT_EMIT:
      if (strcmp(optarg, "text") && strcmp(optarg, "pdll") && strcmp(optarg, "json"))
        return cli_usage_error("rewrites", "--emit expects text, pdll or json, not '%s'", optarg);
      emit = optarg;
      break;
    case OPT_NOFP: o.fp = 0; break;
    case OPT_OLD: o.derive_old = 1; break;
    case OPT_BOUND:
      if (cli_parse_long("rewrites", "--bound", optarg, 1, 8, &v)) return IR_EXIT_BAD_INPUT;
      o.bound = (int)v;
      break;
    case OPT_SMT:
      if (cli_parse_long("rewrites", "--smt-timeout", optarg, 1, 3600, &v)) return IR_EXIT_BAD_INPUT;
      o.smt_timeout = (double)v;
      break;
    case OPT_STEPS: {
      unsigned long steps;
      if (cli_parse_steps("rewrites", optarg, &steps)) return IR_EXIT_BAD_INPUT;
      o.smt_steps = steps ? (long)steps : -1;
      break;
    }
    default: return cli_usage_error("rewrites", "unknown option");
    }
  }
  if (optind < argc) return cli_usage_error("rewrites", "unexpected argument '%s'", argv[optind]);
  if (!o.dialect) return cli_usage_error("rewrites", "missing --dialect");
  if (!o.inputs) return cli_usage_error("rewrites", "missing --inputs");
  cli_search_budget_start("rewrites", &o.search, IR_EXIT_NOT_RAISED);
  ir_arena arena;
  ir_arena_init(&arena);
  ir_tp_store store;
  ir_tp_store_init(&store, &arena);
  rw_rules rs;
  ir_error err;
  cli_progress live;
  cli_progress_start(&live, "rewrites", o.search.timeout);
  enum_observer ob = {cli_progress_search_begins, cli_progress_search_rate, &live};
  if (live.tty) {
    o.search.progress = 1;
    o.on_rule = rules_progress;
    o.user = &live;
    enum_set_observer(&ob);
  }
  pipe_error pe = rw_mine(&o, &arena, &store, &rs, &err);
  ir_budget_finish(); /* what follows writes the answer */
  enum_set_observer(NULL);
  cli_progress_end(&live);
  int status = pipe_exit_status(pe);
  if (pe == PIPE_ERR_INPUTS || pe == PIPE_ERR_ELEM)
    cli_usage_error("rewrites", "--inputs: %s", err.msg);
  else if (pe == PIPE_ERR_INTERNAL || pe == PIPE_ERR_SOLVER)
    fprintf(stderr, "uplift rewrites: %s\n", err.msg);
  if (pe == PIPE_OK) {
    FILE *out = stdout;
    if (outpath && !(out = fopen(outpath, "w"))) {
      fprintf(stderr, "uplift rewrites: cannot write %s\n", outpath);
      status = IR_EXIT_BAD_INPUT;
    } else {
      if (!strcmp(emit, "json")) emit_json(&rs, &o, out);
      else if (!strcmp(emit, "pdll")) print_pdll(&rs, &o, out);
      else emit_text(&rs, &o, out);
      if (out != stdout) fclose(out);
    }
    if (rs.unjudged || ir_budget_expired()) {
      if (ir_work_over())
        fprintf(stderr,
                "uplift rewrites: the work budget (--work %ld) ran out: %d proposed "
                "rules were not checked\n",
                o.search.work, rs.unjudged);
      else
        fprintf(stderr,
                "uplift rewrites: the time budget (--timeout %g s) ran out: %d proposed "
                "rules were not checked\n",
                o.search.timeout, rs.unjudged);
      if (!status) status = IR_EXIT_NOT_RAISED;
    }
  }
  rw_rules_free(&rs);
  ir_tp_store_free(&store);
  ir_arena_free(&arena);
  return status;
}
