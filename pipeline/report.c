/*
 * report.c - what `uplift verify FILE.c REPORT.json` computes (docs/cli.md):
 * the kernel is parsed and analysed again, the saved report of `uplift
 * raise --json` is read and checked against the analysis (its kernel, its
 * dialect, each task entry's task number and output), and every program of
 * the report is rebuilt over its task's input leaves (pipe_program_parse),
 * all before any check, so a bad report is reported before Z3 runs.  Each
 * entry is then checked with the callback `uplift raise` uses
 * (pipe_verify_program).  The driver (cli/cmd_verify.c) parses the options
 * and prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pipeline/pipeline.h"

/* Fail with code: the whole message goes to r->why (arena), and to err
 * (cut at its size).  Returns pe. */
static pipe_error fail(pipe_report *r, ir_arena *arena, pipe_error pe, ir_err_code code,
                       ir_error *err, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static pipe_error fail(pipe_report *r, ir_arena *arena, pipe_error pe, ir_err_code code,
                       ir_error *err, const char *fmt, ...) {
  ir_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  r->why = ir_arena_strdup(arena, ir_buf_str(&b));
  ir_buf_free(&b);
  ir_pos nowhere = {0};
  ir_error_set(err, nowhere, code, "%s", r->why);
  return pe;
}

/* Read the report's task entries into r->ents (arena), each checked
 * against the analysis r->a. */
static pipe_error read_entries(pipe_report *r, ir_arena *arena, ir_error *err) {
  const poly_analysis *a = r->a;
  const ir_kernel *k = a->kernel;
  const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(r->json, "tasks");
  if (!cJSON_IsArray(tasks))
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err, "no \"tasks\" array");
  int n = cJSON_GetArraySize(tasks);
  r->ents = IR_NEW_N(arena, pipe_report_entry, n + 1);
  int i = 0;
  const cJSON *jt;
  cJSON_ArrayForEach(jt, tasks) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(jt, "task");
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(jt, "outputs");
    const cJSON *prog = cJSON_GetObjectItemCaseSensitive(jt, "program");
    if (!cJSON_IsNumber(t) || !cJSON_IsArray(outs) || cJSON_GetArraySize(outs) != 1 ||
        !cJSON_IsString(cJSON_GetArrayItem(outs, 0)) ||
        !(cJSON_IsString(prog) || cJSON_IsNull(prog)))
      return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                  "tasks[%d]: expected {\"task\": N, \"outputs\": [\"NAME\"], "
                  "\"program\": \"...\" or null}",
                  i);
    int ti = (int)t->valuedouble;
    const char *oname = cJSON_GetArrayItem(outs, 0)->valuestring;
    if (ti < 0 || ti >= a->ntasks || ti != t->valuedouble)
      return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_RANGE, err,
                  "tasks[%d]: task %g does not exist: %s has %d tasks", i, t->valuedouble,
                  k->name, a->ntasks);
    int var = -1;
    for (int o = 0; o < a->tasks[ti].noutputs; o++)
      if (!strcmp(k->vars[a->tasks[ti].outputs[o].var]->name, oname))
        var = a->tasks[ti].outputs[o].var;
    if (var < 0)
      return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                  "tasks[%d]: task %d of %s does not write '%s'", i, ti, k->name, oname);
    r->ents[i].task = ti;
    r->ents[i].var = var;
    r->ents[i].program = cJSON_IsString(prog) ? prog->valuestring : NULL;
    i++;
  }
  r->nents = i;
  return PIPE_OK;
}

/* Read the report at rpath into r->json and load its dialect, checking
 * that it is a report for kernel k (of the file at path). */
static pipe_error load_json(pipe_report *r, const char *path, const char *rpath,
                            const ir_kernel *k, ir_arena *arena, ir_error *err) {
  ir_source rep;
  if (ir_source_read(&rep, rpath))
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_SYSTEM, err, "cannot read: %s",
                ir_read_error(errno));
  r->json = cJSON_Parse(rep.text);
  int line = 0;
  if (!r->json || !cJSON_IsObject(r->json)) {
    const char *at = cJSON_GetErrorPtr();
    line = 1;
    for (const char *c = rep.text; at && c < at && *c; c++) line += *c == '\n';
  }
  ir_source_free(&rep);
  if (line)
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                "not a JSON report (malformed near line %d)", line);
  const cJSON *jk = cJSON_GetObjectItemCaseSensitive(r->json, "kernel");
  const cJSON *jd = cJSON_GetObjectItemCaseSensitive(r->json, "dialect");
  if (!cJSON_IsString(jk) || !cJSON_IsString(jd))
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                "no \"kernel\" and \"dialect\" strings: not a report of uplift raise --json");
  if (strcmp(jk->valuestring, k->name))
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err, "a report for %s, but %s has %s",
                jk->valuestring, path, k->name);
  if (!(r->d = gram_load(jd->valuestring, arena))) return PIPE_ERR_DIALECT;
  return PIPE_OK;
}

/* Read r's entries (r->json against the analysis r->a) and rebuild their
 * programs. */
static pipe_error load_programs(pipe_report *r, ir_tp_store *store, ir_arena *arena,
                                ir_error *err) {
  pipe_error pe = read_entries(r, arena, err);
  if (pe) return pe;
  r->setups = IR_NEW_N(arena, pipe_task_setup, r->a->ntasks + 1);
  for (int ti = 0; ti < r->a->ntasks; ti++)
    if (pipe_task_setup_make(r->a, ti, store, arena, &r->setups[ti]))
      return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_SHAPE, err,
                  "task %d: an input has dims that are not size parameters", ti);
  r->progs = IR_NEW_N(arena, const ir_tnode *, r->nents + 1);
  for (int i = 0; i < r->nents; i++) {
    const pipe_report_entry *e = &r->ents[i];
    ir_error perr;
    if (!e->program) continue;
    r->progs[i] = pipe_program_parse(r->a, r->d, &r->setups[e->task], e->task, e->var,
                                     e->program, store, &perr);
    /* a text that does not parse is quoted under the message */
    if (!r->progs[i] && perr.code == IR_ERR_INPUT)
      return fail(r, arena, PIPE_ERR_PROGRAM, perr.code, err, "%s\n  %s", perr.msg, e->program);
    if (!r->progs[i]) return fail(r, arena, PIPE_ERR_PROGRAM, perr.code, err, "%s", perr.msg);
  }
  return PIPE_OK;
}

/* A scalar item (issue 14): nothing to prove, the item is the source's
 * statements, run as written; its report must say so and list them as
 * the source has them ("scalar": {"statements": [{"text": ...}]}), so a
 * report whose statements differ from the source's is refused. */
static pipe_error load_scalar(pipe_report *r, const char *why, ir_arena *arena, ir_error *err) {
  const cJSON *js = cJSON_GetObjectItemCaseSensitive(r->json, "scalar");
  const cJSON *sts = cJSON_GetObjectItemCaseSensitive(js, "statements");
  const poly_analysis *a = r->a;
  if (!cJSON_IsArray(sts) || cJSON_GetArraySize(sts) != a->nstmts)
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                "%s is a scalar item of %d statements: expected a \"scalar\" object listing "
                "them", a->kernel->name, a->nstmts);
  ir_buf b = {0};
  pipe_error pe = PIPE_OK;
  for (int i = 0; i < a->nstmts && !pe; i++) {
    const char *text = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(sts, i), "text"));
    const char *src = poly_stmt_text(a->kernel, a->stmts[i].stmt, &b);
    if (!text || strcmp(text, src))
      pe = fail(r, arena, PIPE_ERR_PROGRAM, IR_ERR_INPUT, err,
                "scalar item: statement %d is `%s` in the report, `%s` in the source", i,
                text ? text : "(none)", src);
  }
  ir_buf_free(&b);
  r->scalar = why;
  return pe;
}

/* Analyse k into r (its entries r->json) and rebuild its programs; a
 * sequence (pipe_split) or a kept loop whose body is one (pipe_kept.
 * nested) has a "parts" array, each item's report loaded the same way,
 * recursively, against the item's analysis. */
static pipe_error load_node(pipe_report *r, const ir_kernel *k, ir_tp_store *store,
                            ir_arena *arena, ir_error *err) {
  pipe_kept kept; /* a kept loop: its body is what the report raised */
  r->a = pipe_analyze(k, arena, &kept);
  if (r->a->error)
    return fail(r, arena, PIPE_ERR_ANALYSIS, IR_ERR_INPUT, err, "%s", r->a->error);
  if (kept.scalar) return load_scalar(r, kept.scalar, arena, err);
  ir_kernel **parts = NULL;
  const char *why = NULL;
  int nparts = kept.why_not || kept.nested
                   ? pipe_split(r->a, kept.scalar_stmts, arena, &parts, &why)
                   : 0;
  if (kept.nested && !nparts && !why) { /* the body is one kept loop (raise_nested) */
    parts = IR_NEW_N(arena, ir_kernel *, 1);
    parts[0] = (ir_kernel *)r->a->kernel;
    nparts = 1;
  }
  if (!nparts) return load_programs(r, store, arena, err);
  /* a sequence: each part's entries against the part's analysis */
  const cJSON *jparts = cJSON_GetObjectItemCaseSensitive(r->json, "parts");
  if (!cJSON_IsArray(jparts) || cJSON_GetArraySize(jparts) != nparts)
    return fail(r, arena, PIPE_ERR_REPORT, IR_ERR_INPUT, err,
                "%s is a sequence of %d statements and kept loops: expected a \"parts\" "
                "array of %d reports", k->name, nparts, nparts);
  r->parts = IR_NEW_N(arena, pipe_report, nparts);
  r->nparts = nparts;
  for (int i = 0; i < nparts; i++) {
    pipe_report *p = &r->parts[i];
    memset(p, 0, sizeof *p);
    p->d = r->d;
    p->json = cJSON_GetArrayItem(jparts, i); /* r->json's: freed with it */
    pipe_error pe = load_node(p, parts[i], store, arena, err);
    if (pe) return fail(r, arena, pe, err->code, err, "part %d: %s", i + 1, p->why ? p->why : err->msg);
  }
  return PIPE_OK;
}

pipe_error pipe_report_load(const char *path, const char *rpath, const fe_options *fe,
                            ir_arena *arena, ir_tp_store *store, pipe_report *r,
                            ir_error *err) {
  memset(r, 0, sizeof *r);
  ir_error_clear(err);
  ir_kernel *k = fe_parse_file(path, fe, arena);
  if (!k) return PIPE_ERR_SOURCE;
  pipe_error pe = load_json(r, path, rpath, k, arena, err);
  if (pe) return pe;
  pipe_generalize(k, arena); /* as raise does */
  return load_node(r, k, store, arena, err);
}

int pipe_report_check(const pipe_report *r, int i, pipe_verify_state *vs) {
  const pipe_report_entry *e = &r->ents[i];
  if (!r->progs[i]) return 0;
  enum_verify_result res;
  memset(&res, 0, sizeof res);
  pipe_verify_program(vs, r->a, r->d, &r->setups[e->task], e->task, e->var, r->progs[i], &res);
  return res.verdict == ENUM_PROVED;
}

int pipe_report_covers(const pipe_report *r, int task, int var) {
  for (int i = 0; i < r->nents; i++)
    if (r->ents[i].task == task && r->ents[i].var == var) return 1;
  return 0;
}

void pipe_report_free(pipe_report *r) {
  cJSON_Delete(r->json);
  r->json = NULL;
}
