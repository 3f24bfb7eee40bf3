/*
 * pipeline.h - "C file in, raised and verified program out": the stages of
 * uplift wired together once, for every command of the driver (cli/) and
 * for the tests (docs/architecture.md, "The pipeline").
 *
 *   fe_parse_file      C file           -> ir_kernel       (frontend/)
 *   poly_analyze       ir_kernel        -> poly_analysis   (polyhedral/)
 *   gram_load          dialect name     -> gram_dialect    (grammar/)
 *   enum_raise         analysis+dialect -> enum_result     (enumerator/)
 *   pipe_verify_cb     a task's program -> verdict         (verify/)
 *   pipe_report_load   saved JSON report -> rebuilt programs (uplift verify)
 *
 * Failures are classified by a pipe_error code (the stage that failed,
 * which pipe_exit_status maps to the exit status), never by message text.
 * The front end and the dialect loader print their positioned diagnostics
 * (file:line:col: error: ...) themselves; the other failures fill the
 * ir_error the caller passes (NULL: not wanted) with their kind, position
 * and message, for the caller to print with its own prefix.
 */
#ifndef UPLIFT_PIPELINE_H
#define UPLIFT_PIPELINE_H

#include <stddef.h>
#include <stdio.h>

#include "enumerator/enumerator.h"
#include "frontend/frontend.h"
#include "grammar/grammar.h"
#include "interp/interp.h"
#include "ir/ir.h"
#include "ir/tprog.h"
#include "polyhedral/polyhedral.h"
#include "verify/verify.h"

/* ---------------------------------------------------------------- errors */

typedef enum pipe_error {
  PIPE_OK = 0,
  PIPE_ERR_SOURCE,   /* the C file: the front end printed file:line:col */
  PIPE_ERR_DIALECT,  /* the dialect: gram_load printed its diagnostic */
  PIPE_ERR_INPUTS,   /* a bad --inputs specification (message) */
  PIPE_ERR_ELEM,     /* the dialect lacks the kernel's or the inputs' element type
                        (message; IR_EXIT_TYPES) */
  PIPE_ERR_PROGRAM,  /* a program text that does not fit its task (message) */
  PIPE_ERR_SOLVER,   /* Z3 could not be set up (message) */
  PIPE_ERR_INTERNAL, /* the enumerator failed (message) */
  PIPE_ERR_CHECK,    /* --check: the raised program disagrees (message) */
  PIPE_ERR_REPORT,   /* a saved report that is unreadable, malformed or does not
                        fit the kernel (message) */
  PIPE_ERR_ANALYSIS  /* the kernel cannot be analysed (message) */
} pipe_error;

/* The exit status of the uplift command for code: IR_EXIT_BAD_INPUT for
 * the input errors, IR_EXIT_MISMATCH for solver, internal and check
 * failures, IR_EXIT_OK for PIPE_OK. */
int pipe_exit_status(pipe_error code);

/* ------------------------------------------------------ front-end options
 * fe_options arrays are heap-allocated; the strings are borrowed. */

void pipe_fe_add_include(fe_options *fe, const char *dir);
void pipe_fe_add_define(fe_options *fe, const char *def); /* NAME or NAME=VALUE */
/* Free the arrays the two functions above allocated and clear fe. */
void pipe_fe_options_free(fe_options *fe);

/* --------------------------------------------------------------- raising */

struct pipe_verify_state;

/* What to raise with: front-end options (may be NULL), the dialect (a
 * loaded one in d, else a name or path in dialect), the element type every
 * floating type of the kernel is taken as (retype 1: elem; 0: as
 * written), the search options, and the verification options (mode
 * VERIFY_NONE: no verification). */
struct pipe_raised;

/* What a raise reports while it runs (every hook may be NULL), called on
 * the raising thread.  task_done: task `task` is done, its outputs in
 * pr->res.tasks[task] final; called in task order, each task once (a raise
 * that fails reports the tasks done before the failing one).  searching: a
 * search of task `task` begins (rate < 0), or reports progress
 * (o->search.progress: stored candidates kept, rate candidates evaluated
 * per second).  verifying: a candidate program of task `task` goes to the
 * verifier. */
typedef struct pipe_raise_hooks {
  void (*task_done)(void *user, const struct pipe_raised *pr, int task);
  void (*searching)(void *user, const struct pipe_raised *pr, int task, long stored,
                    double rate);
  void (*verifying)(void *user, const struct pipe_raised *pr, int task);
  void *user;
} pipe_raise_hooks;

typedef struct pipe_raise_opts {
  const fe_options *fe;
  const char *dialect;
  const gram_dialect *d;
  int retype;
  ir_elem elem;
  enum_options search;
  verify_options verify;
  const pipe_raise_hooks *hooks; /* NULL: none */
} pipe_raise_opts;

/* The kept loop a kernel is raised inside (pipeline/kept.c; docs/analyze.md,
 * "Kept loops"): outer is the analysis of the whole kernel (its kept loops,
 * their reasons), kept the index of the loop in outer->kept, loop the loop
 * as the raised program carries it (ir_tprog.loop).  outer is NULL when the
 * kernel has no kept loop raised inside; why_not then says why a kept loop
 * is not (NULL: none is kept). */
typedef struct pipe_kept {
  const poly_analysis *outer;
  int kept;
  ir_tloop loop;
  const char *why_not;
  int nested;      /* the body holds kept loops of its own, or statements
                      that stay scalar loops (scalar_stmts): it is raised as
                      a sequence of items (pipe_split), each with the
                      iterator a size */
  /* the kernel is a scalar item (issue 14): its statements stay scalar
   * loops, run as written, nothing raised; why (the analysis's reason) */
  const char *scalar;
  /* the body's statements that stay scalar loops (docs/analyze.md,
   * "Scalar items"), or, with scalar, the kernel's: per assignment id,
   * the reason, or NULL; NULL: none (a scalar item cut by pipe_split:
   * scalar is every statement's reason) */
  const char *const *scalar_stmts;
  const char *folded; /* the locals folded into the elements they end in
                         before the analysis (poly_fold_locals), "w" or
                         "s, t"; NULL: none */
} pipe_kept;

/* Analyse k (poly_analyze).  When k is not raisable because of one kept
 * loop that is its only statement and whose body reads its iterator in
 * subscripts, bounds and conditions only, the analysis returned is that
 * of the body: k with the loop removed (the same variables, then the
 * slices its reads at the iterator became: kept->loop.slices), and
 * kept->outer the analysis of k.  When every statement of k stays scalar,
 * or k is a scalar item pipe_split cut (ir_kernel.scalar), or its kept
 * loop's body is one true recurrence, k is a scalar item (kept->scalar,
 * docs/analyze.md "Scalar items") and the analysis is k's.  Everything in
 * arena. */
poly_analysis *pipe_analyze(const ir_kernel *k, ir_arena *arena, pipe_kept *kept);

/* The access slice s of kernel k (the body's) stands for, as text:
 * `fict[t]`, `A[t + 1][:]` (`:` a whole dim).  In arena; NULL when out of
 * memory. */
/* A kernel whose top level is a sequence of items, statements that are
 * no kept loop and outermost kept loops (a prelude, then a forward and a
 * back substitution), split into one kernel per item, in order (runs of
 * statements that are no kept loop: one item; each kept loop: one item):
 * each is k with that body (the same variables), raised on its own and
 * run on the arrays as the item before leaves them.  Returns the number of
 * parts (*parts in arena), or 0 when a's kernel is no such sequence (*why
 * then says why not when it has the form but cannot be split: a local two
 * parts share; NULL otherwise).  scalar (NULL: none; pipe_kept.
 * scalar_stmts) marks by assignment id the statements that stay scalar
 * loops: each run of top-level statements all marked is an item of its
 * own, a scalar item (its kernel's `scalar` the reason). */
int pipe_split(const poly_analysis *a, const char *const *scalar, ir_arena *arena,
               ir_kernel ***parts, const char **why);

char *pipe_kept_slice_str(const ir_kernel *k, const ir_tslice *s, ir_arena *arena);

/* What a raise produced: the parsed kernel (retyped when the options say
 * so), the kernel as written (the same one when not retyped; what the
 * native runs compile), the dialect, the analysis (its kernel is the
 * analysed one) and the enumerator's result.  Everything lives in the
 * arena and store given to pipe_raise_file. */
typedef struct pipe_raised {
  ir_kernel *k;
  const ir_kernel *written;
  const gram_dialect *d;
  poly_analysis *a;
  enum_result res;
  pipe_kept kept;  /* the kept loop around a (kept.outer NULL: none) */
  /* a sequence (pipe_split; nparts > 0): the parts, each raised as a
   * kernel of its own (k, a, res, kept), run in order; res.raised says
   * whether all were, res.then chains their results (res.prog is the
   * first part's), and res holds no task of its own */
  int nparts;
  struct pipe_raised *parts;
  /* a kept loop whose body is a sequence (kept.nested): the body, its
   * items in body->parts, raised as a sequence is; res.body chains them */
  struct pipe_raised *body;
} pipe_raised;

/* Parse path (taking its floating types as o->elem when o->retype), load
 * the dialect, analyse and raise, verifying every task's program when
 * o->verify.mode is not VERIFY_NONE (when Z3 cannot be set up the tasks
 * stay unverified, so nothing is proved).  Returns PIPE_OK (then
 * out->res.raised says whether every output was found), PIPE_ERR_SOURCE,
 * PIPE_ERR_DIALECT, PIPE_ERR_ELEM (the dialect has not the kernel's
 * element type: out->res not raised, its reason and err say so and name
 * the --element-type the dialect has), or PIPE_ERR_INTERNAL with err
 * filled. */
pipe_error pipe_raise_file(const char *path, const pipe_raise_opts *o, ir_arena *arena,
                           ir_tp_store *store, pipe_raised *out, ir_error *err);

/* Raise an analysed kernel with dialect d, checking each program with vs
 * (NULL: no verification).  Returns enum_raise's 0 (raised), 1 (not:
 * res->reason) or -1 (internal error). */
int pipe_raise_analysed(const poly_analysis *a, const gram_dialect *d, const enum_options *eo,
                        struct pipe_verify_state *vs, ir_tp_store *store, ir_arena *arena,
                        enum_result *res);

/* What pipe_check_native compared: the size assignments (nruns rows of
 * nvars sizes, indexed by var id; ir_malloc'd), the elements compared
 * (every output of every run), the relative tolerance, and whether all
 * agreed.  Free with pipe_check_summary_free. */
typedef struct pipe_check_summary {
  int nruns, nvars;
  long *sizes;
  long elements;
  long left_out; /* output elements not compared: no value in C (a signed
                    overflow in the original) or an integer value no double
                    holds (past 2^53) */
  double rtol;
  int agree;
} pipe_check_summary;
void pipe_check_summary_free(pipe_check_summary *s);

/* Run the raised program r of kernel k at two size assignments no example
 * used and at one representative of every size case of the kernel and the
 * program's masks (those within VERIFY_MAX_ELEMS elements), and compare it
 * with the natively compiled original (written: k as written in path,
 * parsed with fe; k itself when not retyped) on the same seeded inputs,
 * within a float tolerance when k computes in f32.  Fills sum (may be
 * NULL).  Returns PIPE_OK, or PIPE_ERR_CHECK with the first problem in err
 * (IR_ERR_TOOL: the native code did not compile or run; IR_ERR_RANGE: an
 * element differs; other codes: the raised program could not be
 * evaluated). */
pipe_error pipe_check_native(const ir_kernel *k, const ir_kernel *written, const char *path,
                             const fe_options *fe, const enum_result *r, uint64_t seed,
                             pipe_check_summary *sum, ir_error *err);

/* Make k's constant extents size symbols where its accesses allow
 * (pipeline/generalize.c): each IR_VAR_EXTENT becomes an IR_VAR_SIZE
 * marked pinned, the extents, assumption sides and loop bounds (c - 1)
 * built from the constant read it.  k is changed in place (new
 * expressions in arena); when some access would leave its array at some
 * size, k is left as it was.  Returns the number of sizes made (0: none). */
int pipe_generalize(ir_kernel *k, ir_arena *arena);

/* The extents the file at path (parsed with fe) declares for the size
 * parameters of its kernel k (as parsed from it): k is parsed once more
 * with UPLIFT_DECLARED_EXTENTS defined, under which polybench.h's array
 * declarators POLYBENCH_2D(C, NI, NJ, ni, nj) give the dataset's constants
 * (C[NI][NJ]), and each array dim that is a size parameter in k and a
 * constant there gives that size (pipeline/shapes.c).  Fills sizes[var id]
 * (k->nvars entries, 0 where none).  Returns 1 when every size parameter
 * that an array's dims read got one extent, else 0 (the file declares
 * none, or two different ones for a size). */
int pipe_declared_extents(const char *path, const fe_options *fe, const ir_kernel *k,
                          ir_arena *arena, long *sizes);

/* How pipe_emit writes a raised program. */
typedef enum pipe_emit_kind {
  PIPE_EMIT_MLIR,         /* one func.func, static shapes: the sizes given */
  PIPE_EMIT_MLIR_DYNAMIC, /* one func.func, `?` dims with runtime checks of tied dims */
  PIPE_EMIT_C             /* C with CBLAS calls: a drop-in replacement of the kernel */
} pipe_emit_kind;

/* Write the program pr raised (pr->res.raised) to out as kind says
 * (emit/: emit_mlir_func, emit_c_func; scratch memory from arena), static
 * MLIR shapes from sizes (by var id; unused for the other kinds).
 * Returns 0, or -1 with err filled (PIPE_EMIT_C: why; the MLIR emitter
 * printed its message on stderr) and the output incomplete. */
int pipe_emit(const pipe_raised *pr, pipe_emit_kind kind, const long *sizes, FILE *out,
              ir_error *err);

/* ----------------------------------------------------------- task set-up */

/* A task of the analysis set up as the enumerator sets it up: the statement
 * mask (the task's statements plus the prelude), its inputs (var ids) and
 * their leaves in store (arguments numbered by var id, POLY_IN_CONST inputs
 * as constants).  Everything lives in arena. */
typedef struct pipe_task_setup {
  unsigned char *mask;
  int nin;
  int *in_vars;
  const ir_tnode **in_args;
} pipe_task_setup;

/* Returns 0, or -1 when an input's dims are not size parameters. */
int pipe_task_setup_make(const poly_analysis *a, int task, ir_tp_store *store, ir_arena *arena,
                         pipe_task_setup *out);

/* Distinct terms of a program text pipe_program_parse accepts at most. */
enum { PIPE_MAX_TERMS = 10000 };

/* Rebuild the program text of task `task`, output variable var, over the
 * task's input leaves ts (ir_tp_parse with d's term syntax) and check that
 * it has at most PIPE_MAX_TERMS distinct terms and the output's type.
 * Returns the node (in store), or NULL with err filled, its message
 * "task T (NAME): ...": IR_ERR_INPUT, the text does not parse (the message
 * says where; it does not quote the text); IR_ERR_RANGE, too many terms;
 * IR_ERR_SHAPE, the program's type is not the output's. */
const ir_tnode *pipe_program_parse(const poly_analysis *a, const gram_dialect *d,
                                   const pipe_task_setup *ts, int task, int var,
                                   const char *text, ir_tp_store *store, ir_error *err);

/* ---------------------------------------------------------- verification
 * What `uplift raise` (the CEGIS callback), `uplift verify` (re-checking a
 * saved report) and the tests share so that all check a program the same
 * way. */

/* The state of the verification callback: the verifier (owned by whoever
 * made it) and the last result, whose counterexample is handed out until
 * the next call.  Zero it, set v, and call pipe_verify_state_free at the end
 * (it frees the last result, not v). */
typedef struct pipe_verify_state {
  verify_ctx *v;
  verify_result *last; /* ir_malloc'd; NULL before the first call */
  verify_result *shown; /* the check without an avoidable assumption
                         * (enum_query.show_avoidable; ir_malloc'd or NULL) */
  void *cex_inputs;    /* ir_tensor[64] for the handed-out cex */
} pipe_verify_state;

/* The enumerator's verification callback (enum_verify_fn): check q->cand
 * for q->out_var against the task's statements (q->mask) with user's
 * verifier and fill r (verdict, mode, bound, seconds, a confirmed
 * counterexample over q's inputs).  user is a pipe_verify_state. */
void pipe_verify_cb(void *user, const enum_query *q, enum_verify_result *r);

/* poly_all_sizes' view of an op node of a dialect loaded by grammar/: its
 * kernel binding (a poly_bind_fn; user unused).  pipe_verify_cb runs the
 * proof for every size after a proved real-mode verdict and records it in
 * the verify_result (all_sizes, all_sizes_reason) and r. */
int pipe_all_sizes_bind(void *user, const ir_tnode *n, poly_binding *out);
void pipe_verify_state_free(pipe_verify_state *vs);
/* Zero vs and give it a verifier with options vo (none when vo's mode is
 * VERIFY_NONE).  Returns 0, or -1 when Z3 cannot be set up.  Undo with
 * pipe_verify_state_free and pipe_verify_state_close. */
int pipe_verify_state_open(pipe_verify_state *vs, const verify_options *vo);
/* Free the verifier that pipe_verify_state_open made (after
 * pipe_verify_state_free). */
void pipe_verify_state_close(pipe_verify_state *vs);

/* Check program prog for output var of task `task` (set up as ts) with vs
 * and fill r; vs->last holds the verifier's full result afterwards. */
void pipe_verify_program(pipe_verify_state *vs, const poly_analysis *a, const gram_dialect *d,
                         const pipe_task_setup *ts, int task, int var, const ir_tnode *prog,
                         enum_verify_result *r);

/* A candidate node over input var ids, as verify/ evaluates it: put a
 * pipe_cand in a verify_candidate with pipe_cand_eval_sym (and
 * pipe_cand_eval for concrete runs; inputs numbered by var id among nvars
 * arguments). */
typedef struct pipe_cand {
  const ir_tnode *node;
  const int *in_vars;
  int nvars; /* the kernel's variables (pipe_cand_eval only) */
} pipe_cand;
int pipe_cand_eval_sym(void *user, const long *sizes, const interp_sym_tensor *inputs, int nin,
                       interp_sym_tensor *outs, int nout, const interp_sym_algebra *alg,
                       interp_err *err);
int pipe_cand_eval(void *user, const long *sizes, const ir_tensor *inputs, int nin,
                   ir_tensor *outs, int nout, interp_err *err);

/* The size cases of a task (statement mask over k) and a candidate (its
 * mask leaves): poly_size_cases_build with at most PIPE_SIZE_CASES cells.
 * On failure sc is empty with left_out 1, so nothing is proved. */
#define PIPE_SIZE_CASES 64
/* Append the distinct mask leaves of n to out[nout..cap-1]; returns the
 * new count. */
int pipe_tnode_masks(const ir_tnode *n, const ir_tnode **out, int nout, int cap);
void pipe_size_cases(const ir_kernel *k, const unsigned char *mask, const ir_tnode *cand,
                     poly_size_cases *sc);

/* --------------------------------------------------------- uplift verify
 * A report of `uplift raise --json` read back and checked against the
 * kernel's analysis, every program rebuilt before anything is verified. */

/* One task entry of the report: the task, its output variable, and the
 * program text (borrowed from the report; NULL when the entry has none). */
typedef struct pipe_report_entry {
  int task, var;
  const char *program;
} pipe_report_entry;

struct cJSON;
typedef struct pipe_report {
  const gram_dialect *d;    /* the report's dialect */
  poly_analysis *a;         /* the analysis of the kernel */
  int nents;
  pipe_report_entry *ents;  /* in the report's order */
  pipe_task_setup *setups;  /* per task of a */
  const ir_tnode **progs;   /* per entry; NULL: no program */
  const char *why;          /* the whole failure message (uncut), or NULL */
  struct cJSON *json;       /* the parsed report (owned; a part's: its
                               object in the whole report's) */
  int nparts;               /* a sequence (pipe_split): each part's report,
                               its entries against the part's analysis */
  struct pipe_report *parts;
  const char *scalar;       /* a scalar item (pipe_kept.scalar): why; its
                               report's statements are the source's */
} pipe_report;

/* Parse the kernel at path (front-end options fe), read the report at
 * rpath, load its dialect, analyse, check every entry against the
 * analysis and rebuild each program (pipe_program_parse) into r;
 * everything lives in arena and store, except r->json, which
 * pipe_report_free releases (call it also after a failure).  Returns
 * PIPE_OK; PIPE_ERR_SOURCE or PIPE_ERR_DIALECT (the front end or gram_load
 * printed why); PIPE_ERR_REPORT (the report cannot be read, is not a
 * report of this kernel, or an entry or a task does not fit),
 * PIPE_ERR_PROGRAM (a program text does not fit its task) or
 * PIPE_ERR_ANALYSIS (the kernel cannot be analysed), each with err filled
 * (its message cut at the ir_error's size) and the whole message, which
 * may quote a program (a text that does not parse, on a line under the
 * message) or a name at any length, in r->why. */
pipe_error pipe_report_load(const char *path, const char *rpath, const fe_options *fe,
                            ir_arena *arena, ir_tp_store *store, pipe_report *r,
                            ir_error *err);
/* Verify entry i's program with vs (vs->last holds the verifier's full
 * result afterwards); returns 1 if it is proved, 0 if not or when the
 * entry has no program (vs is then not called). */
int pipe_report_check(const pipe_report *r, int i, pipe_verify_state *vs);
/* Whether the report has an entry for output var of task `task`. */
int pipe_report_covers(const pipe_report *r, int task, int var);
void pipe_report_free(pipe_report *r);

/* ---------------------------------------------- --inputs (explore, rewrites)
 * Parse "A:f64[m,k],B:f64[k,n],alpha:f64[]" (dims: names or 1; element
 * types f64 or f32, one per run) into a synthetic kernel in arena (size
 * variables per dim name, then a parameter per input) and an argument leaf
 * per input in store (args[i], arg number = var id).  Returns 0, or -1
 * with err filled (IR_ERR_INPUT, its position "--inputs", line 1 and the
 * column in spec where it went wrong).  bools: i1 inputs are accepted too
 * (rewrites' pattern variables of conditions; not an element type of the
 * run, which the float inputs set). */
int pipe_inputs_parse(const char *spec, int bools, ir_arena *arena, ir_tp_store *store,
                      ir_kernel **k, const ir_tnode **args, int cap, int *nargs, ir_error *err);

/* The --inputs kernel and the dialect to enumerate it with. */
#define PIPE_MAX_INPUTS 16
typedef struct pipe_inputs {
  ir_kernel *k;
  const ir_tnode *args[PIPE_MAX_INPUTS];
  int nargs;
  const gram_dialect *d;
} pipe_inputs;

/* pipe_inputs_parse, then load dialect and check that it has the inputs'
 * element type.  Returns PIPE_OK, PIPE_ERR_INPUTS or PIPE_ERR_ELEM (err
 * filled), or PIPE_ERR_DIALECT (gram_load printed why). */
pipe_error pipe_inputs_load(const char *spec, const char *dialect, ir_arena *arena,
                            ir_tp_store *store, pipe_inputs *out, ir_error *err);

/* -------------------------------------------------------- uplift explore */

/* The tally of an enumeration without a goal, per program size (ops, 0 to
 * max_ops) and result type: the observationally distinct functions, the
 * candidates dropped as equal to one of them, the first (smallest)
 * program of each, and the enumerator's counters after each size. */
#define PIPE_TALLY_LEVELS 16 /* sizes 0..15: --max-ops of explore is at most 15 */
typedef struct pipe_tally_type {
  ir_type type;
  long distinct[PIPE_TALLY_LEVELS], equal[PIPE_TALLY_LEVELS];
  const ir_tnode *smallest[PIPE_TALLY_LEVELS]; /* NULL: none */
} pipe_tally_type;
typedef struct pipe_tally {
  const ir_kernel *k;
  int max_ops;
  int ntypes, cap;
  pipe_tally_type *types;          /* in the order they were first met (heap) */
  enum_stats at[PIPE_TALLY_LEVELS]; /* cumulative counters after each size */
  int levels_done;
} pipe_tally;

/* Enumerate the programs over in's arguments with in's dialect (no goal)
 * up to eo->max_ops ops into t (free with pipe_tally_free, also on error).
 * Returns enum_explore's 0 (complete), ENUM_EXPLORE_LIMIT or another
 * positive value (a budget ended it), or -1 with err filled (max_ops past
 * the tally's sizes, an internal error). */
int pipe_explore(const pipe_inputs *in, const enum_options *eo, ir_tp_store *store,
                 pipe_tally *t, ir_error *err);
/* The counters of size l alone (the cumulative ones minus size l-1's). */
enum_stats pipe_tally_level(const pipe_tally *t, int l);
/* The distinct functions of size l, over every type. */
long pipe_tally_distinct(const pipe_tally *t, int l);
void pipe_tally_free(pipe_tally *t);

/* The coverage matrix of --targets: every C file of a folder (sorted by
 * name) raised to each dialect, without verification. */
typedef struct pipe_coverage {
  int nfiles, ndialects;
  char **files;            /* the file names in the folder (heap) */
  const char *const *dialects; /* as given (borrowed) */
  int *ops;                /* [f * ndialects + j]: ops of the raised program
                              (shared subterms once), -1 not raised, -2 the
                              file does not parse */
  const char **reasons;    /* [f * ndialects + j]: why not (when ops < 0) */
  ir_arena arena;          /* the dialects and the reasons */
} pipe_coverage;

/* What pipe_coverage_build reports while it runs (any hook may be NULL):
 * cell before file f is raised with dialect j, and the hooks of each of
 * those raises. */
typedef struct pipe_coverage_watch {
  void (*cell)(void *user, const pipe_coverage *cov, int f, int j);
  const pipe_raise_hooks *raise;
  void *user;
} pipe_coverage_watch;

/* Build the matrix of folder dir for dialects[0..ndialects-1] into cov,
 * each file parsed with the front-end options fe (may be NULL), watched by
 * w (may be NULL) (free with pipe_coverage_free, also on error).  Returns PIPE_OK,
 * PIPE_ERR_INPUTS with err (the folder cannot be read) or PIPE_ERR_DIALECT
 * (gram_load printed why; no file is raised then). */
pipe_error pipe_coverage_build(const char *dir, const char *const *dialects, int ndialects,
                               const fe_options *fe, const enum_options *eo,
                               const pipe_coverage_watch *w, pipe_coverage *cov, ir_error *err);
void pipe_coverage_free(pipe_coverage *cov);

/* ---------------------------------------------------------- uplift batch
 * Many kernel files raised by child processes of the running binary
 * (pipeline/batch.c, docs/batch.md). */

/* The kernel files of a batch, in their fixed order (heap strings). */
typedef struct pipe_batch_files {
  int n, cap;
  char **paths;
} pipe_batch_files;

/* Collect args[0..nargs-1] into f: a file as given, a folder as its *.c
 * files sorted by name.  Returns 0, or -1 with err filled (a path that
 * does not exist, a folder that cannot be read); free f with
 * pipe_batch_files_free either way. */
int pipe_batch_collect(char *const *args, int nargs, pipe_batch_files *f, ir_error *err);
void pipe_batch_files_free(pipe_batch_files *f);

/* Whether the JSON-lines file at outpath (absent: none) has a line whose
 * "file" is file. */
int pipe_batch_recorded(const char *outpath, const char *file);

/* One kernel's result: its JSON line (the `raise --json` report, compact,
 * with "file" and the child's "exit" status), and what a summary needs.
 * Borrowed by the on_line callback: valid during the call only. */
typedef struct pipe_batch_result {
  char *line;
  char *kernel; /* the kernel's name, "-" when the report has none */
  int exit, raised, tasks, proved;
  double seconds;
} pipe_batch_result;

typedef struct pipe_batch_opts {
  int jobs;                       /* children at once (>= 1) */
  const char *const *raise_args;  /* passed to each `uplift raise` (borrowed) */
  int nraise_args;
  /* called once per file, in the order of files, each as soon as it and
   * every file before it are done (under a lock: one call at a time) */
  void (*on_line)(void *user, const char *file, const pipe_batch_result *r);
  void *user;
} pipe_batch_opts;

/* Raise files[0..nfiles-1], each with `uplift raise FILE --json -q
 * RAISE_ARGS` run by the running binary, up to o->jobs at once.  Returns
 * 0, or -1 with err filled when nothing could be started. */
int pipe_batch_run(const char *const *files, int nfiles, const pipe_batch_opts *o,
                   ir_error *err);

/* ------------------------------------------------------------ uplift run */

/* The input value sets of --values (docs/run.md, "Inputs"). */
typedef enum pipe_values {
  PIPE_VALUES_INT,     /* integers in -4..4, scalars 2..5 (the default) */
  PIPE_VALUES_REAL,    /* non-integers, negatives, -0, moderate magnitudes */
  PIPE_VALUES_SPECIAL, /* REAL mixed with NaN, +inf, -inf */
  PIPE_VALUES_HUGE,    /* REAL mixed with 1e300, 3.5e38, subnormals, 2^24+1 */
  PIPE_VALUES_COUNT
} pipe_values;

/* "int", "real", "special", "huge". */
const char *pipe_values_name(pipe_values s);

/* Fill every scalar and array parameter of env from value set s, seeded,
 * in signature order, row-major (values converted to the element type as
 * C converts them). */
void pipe_fill_values(interp_env *env, pipe_values s, uint64_t seed);

/* The bytes the interpreter's env needs at these sizes (values and poison
 * masks of every array and scalar); a negative dim counts 0. */
double pipe_env_bytes(const ir_kernel *k, const long *sizes);

/* The relative tolerance of comparing runs on value set s: the kernel's
 * (interp_kernel_tolerance) on integer inputs, else 1e-9 (double) or 1e-4
 * (float data). */
double pipe_run_tolerance(const ir_kernel *k, pipe_values s);

/* Compile the kernel k of the C file at path (front-end options fe) for
 * native calls, with the words of cflags (split at spaces; may be NULL) as
 * extra cc arguments.  NULL on failure (res says why). */
interp_native *pipe_native_compile(const ir_kernel *k, const char *path, const fe_options *fe,
                                   const char *cflags, interp_native_result *res);

/* The native code of one `uplift run`: the kernel's file (or a source that
 * replaces it) and, to compare that source with, the file itself. */
typedef struct pipe_native_opts {
  const char *file;   /* the kernel's C file */
  const char *source; /* compile this instead of file (NULL: file) */
  int against;        /* also compile file: source is compared with it */
  const fe_options *fe;
  const char *cflags; /* extra cc arguments, space-separated (may be NULL) */
  double cpu_seconds; /* the CPU limit of a call (the wall limit: 2x + 5 s) */
} pipe_native_opts;
typedef struct pipe_natives {
  interp_native *nat;  /* source, or file */
  interp_native *orig; /* with against: file */
  interp_native_limits lim;
  int tried;
} pipe_natives;

/* The native code of o for kernel k in nv (zeroed before the first call):
 * compiled on the first call, reused after.  Returns 0, or -1 with res
 * saying why (also on every later call when the compilation failed). */
int pipe_natives_get(pipe_natives *nv, const ir_kernel *k, const pipe_native_opts *o,
                     interp_native_result *res);
void pipe_natives_free(pipe_natives *nv);

/* Call nv's native code (got with pipe_natives_get) runs times, each time
 * on a fresh copy of env's values in nenv, and write each call's
 * wall-clock seconds to t[0..runs-1].  Returns 0, or -1 with res saying
 * why a call failed (the calls after it are not made). */
int pipe_native_time(pipe_natives *nv, const interp_env *env, interp_env *nenv, long runs,
                     double *t, interp_native_result *res);

/* The outputs a run reports and compares: written[var] = 1 for each array
 * parameter the kernel writes (k->nvars entries). */
void pipe_run_outputs(const ir_kernel *k, unsigned char *written);

/* Compare the native run nenv with its reference: the interpreter's env,
 * or, when oenv is not NULL, the native original's oenv (whose elements
 * that are poison in env are first made poison, so they are not compared).
 * Returns interp_compare's count of differing elements (first, compared
 * as there). */
long pipe_native_diff(const ir_kernel *k, const interp_env *env, interp_env *oenv,
                      const interp_env *nenv, const unsigned char *written, double tol,
                      interp_mismatch *first, long *compared);

/* One run of `uplift run`: the kernel at one size assignment on one value
 * set, in the interpreter and, with native code, compared with it. */
typedef struct pipe_run_opts {
  pipe_values values;
  uint64_t seed;
  double timeout;              /* the interpreter's time limit (s; 0: none) */
  const pipe_native_opts *no;  /* NULL: the interpreter alone */
  long time_runs;              /* > 0 (with no): only time the native code */
} pipe_run_opts;

typedef enum pipe_run_outcome {
  PIPE_RUN_DONE,          /* the interpreter ran (no native code asked for) */
  PIPE_RUN_ERROR,         /* bad sizes or a runtime error of the kernel, or
                             IR_ERR_TIMEOUT: err */
  PIPE_RUN_POISONED,      /* native code, not against the original: outputs
                             depend on uninitialized values, not compared */
  PIPE_RUN_NATIVE_FAILED, /* the native code did not compile, or a call
                             crashed or timed out: nres.msg */
  PIPE_RUN_AGREES,        /* the native code agrees on every element */
  PIPE_RUN_DIFFERS,       /* diffs elements differ; first is the first */
  PIPE_RUN_TIMED          /* time_runs: times[0..ntimes-1] */
} pipe_run_outcome;

typedef struct pipe_run_result {
  pipe_run_outcome outcome;
  ir_error err;             /* PIPE_RUN_ERROR */
  interp_env env;           /* the interpreter's values (have_env) */
  int have_env;
  unsigned char *written;   /* pipe_run_outputs (NULL before the run) */
  size_t *poison;           /* per output var: its poison elements */
  size_t poisoned;          /* over every output */
  size_t *undef;            /* per output var: those of them that are
                               INTERP_POISON_UNDEF alone (no value in C, or
                               none a double holds), never compared */
  size_t undefined;         /* over every output */
  interp_native_result nres; /* PIPE_RUN_NATIVE_FAILED: why */
  double tol;               /* the comparison's (pipe_run_tolerance) */
  long diffs, compared;
  interp_mismatch first;
  double *times;            /* PIPE_RUN_TIMED */
  long ntimes;
} pipe_run_result;

/* Do one run of kernel k at sizes (k->nvars entries) with o into r (free
 * it with pipe_run_result_free, whatever the outcome): fill the inputs,
 * run the interpreter (or, with o->time_runs, only time the native code),
 * and with o->no call the native code got through nv (compiled on the
 * first run, reused after; freed by the caller with pipe_natives_free) and
 * compare every output element with the interpreter's, or with
 * o->no->against with the native original's (elements poison in the
 * interpreter left out).  Returns r->outcome. */
pipe_run_outcome pipe_run_one(const ir_kernel *k, const long *sizes, const pipe_run_opts *o,
                              pipe_natives *nv, pipe_run_result *r);
void pipe_run_result_free(pipe_run_result *r);

/* The MB the arrays of a run need: the interpreter's env, twice with a
 * native run, three times with a native original as well. */
double pipe_run_mb(const ir_kernel *k, const long *sizes, int native, int against);

/* The median of t[0..n-1] (n > 0); sorts t. */
double pipe_median(double *t, long n);

#endif
