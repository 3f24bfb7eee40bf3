/*
 * polyhedral.h - polyhedral analysis of a loop program with isl (docs/architecture.md
 * section 4): iteration domains, schedule and access relations, value-based
 * flow dependences, reductions, tasks (loop distribution by strongly
 * connected components of the statement graph), read and written regions as
 * masks, op hints, and whether the kernel is raisable at all.
 *
 * The result is plain C data in an ir_arena: no isl object survives
 * poly_analyze (the isl_ctx is created and freed inside each call), and only
 * this folder includes isl headers.
 *
 * Names used in the result:
 *   - statements are the kernel's assignment statements, named by their id
 *     ("S3" is the assignment with ir_stmt.id == 3);
 *   - variables are ir_var ids of the analysed kernel (poly_analysis.kernel);
 *   - the positions of an array's dims in a region are x_0, x_1, ... and are
 *     printed "i0", "i1", ... in the human-readable mask text.
 */
#ifndef UPLIFT_POLYHEDRAL_H
#define UPLIFT_POLYHEDRAL_H

#include <stdio.h>

#include "interp/ops.h"
#include "ir/ir.h"
#include "ir/tprog.h"

/* ---------------------------------------------------------------- op hints */

/* The arithmetic a statement or task uses: a bit set. */
enum {
  POLY_OP_ADD = 1u << 0,     /* a + b, += */
  POLY_OP_SUB = 1u << 1,     /* a - b, -= */
  POLY_OP_MUL = 1u << 2,     /* a * b, *= */
  POLY_OP_DIV = 1u << 3,     /* a / b, /= */
  POLY_OP_NEG = 1u << 4,     /* -a */
  POLY_OP_SQRT = 1u << 5,    /* sqrt */
  POLY_OP_EXP = 1u << 6,     /* exp */
  POLY_OP_POW = 1u << 7,     /* pow */
  POLY_OP_ABS = 1u << 8,     /* fabs */
  POLY_OP_MAX = 1u << 9,     /* fmax, or a max written as a select */
  POLY_OP_MIN = 1u << 10,    /* fmin, or a min written as a select */
  POLY_OP_CMP = 1u << 11,    /* < <= > >= == != */
  POLY_OP_SELECT = 1u << 12, /* c ? a : b, or a data-dependent if */
  POLY_OP_LOGIC = 1u << 13,  /* && || ! */
  POLY_OP_RED_ADD = 1u << 14, /* a sum reduction */
  POLY_OP_RED_MUL = 1u << 15, /* a product reduction */
  POLY_OP_RED_MAX = 1u << 16, /* a max reduction */
  POLY_OP_RED_MIN = 1u << 17, /* a min reduction */
  POLY_OP_SHL = 1u << 18,     /* a << b */
  POLY_OP_SHR = 1u << 19,     /* a >> b */
  POLY_OP_CONVERT = 1u << 20, /* a conversion of integer data (a C promotion,
                                 a store into a narrower type, a cast) */
  /* ---- issue 14's stencil hint (pad, conv) ---- */
  POLY_OP_SHIFTED = 1u << 21, /* a read at i + c (c a nonzero literal) of an
                                 iterator i the write has: a stencil */
  /* ---- end ---- */
  POLY_OP_REVERSE = 1u << 22, /* a read at a subscript where a loop iterator
                                 has a negative coefficient (x[n - 1 - i]) */
  POLY_OP_NBITS = 23
};
/* Is e a cast the tensor program makes with a convert op (POLY_OP_CONVERT):
 * one between integer types, or between a floating type and integer
 * element data other than int? */
int poly_cast_converts(const struct ir_expr *e);
/* Name of one op bit ("add", "sub", ..., "reduce_add"); "?" if unknown. */
const char *poly_op_name(unsigned bit);

/* ------------------------------------------------------------- reductions */

typedef enum poly_red_op {
  POLY_RED_NONE, /* not a reduction */
  POLY_RED_ADD,  /* x += e, x -= e, x = x + e */
  POLY_RED_MUL,  /* x *= e, x /= e, x = x * e */
  POLY_RED_MAX,  /* x = fmax(x, e), x = x > e ? x : e */
  POLY_RED_MIN   /* x = fmin(x, e), x = x < e ? x : e */
} poly_red_op;
const char *poly_red_name(poly_red_op op); /* "+", "*", "max", "min" */

typedef struct poly_reduction {
  int stmt;         /* assignment id */
  poly_red_op op;
  int var;          /* the written variable (the accumulator) */
  int iter;         /* iterator var id of the outermost loop carrying it */
  int niters;       /* every loop of the statement that does not index the */
  int *iters;       /* accumulator and carries it: iterator var ids */
} poly_reduction;

/* ---------------------------------------------------------------- regions */

/* One affine constraint over an array's dim positions and size parameters:
 *   sum_d dim[d]*x_d + sum_t pcoef[t]*param(pvar[t]) + c0  >= 0  (or == 0). */
typedef struct poly_constraint {
  int is_eq;     /* 1: == 0, 0: >= 0 */
  int rank;      /* number of dim coefficients */
  long *dim;     /* [rank] */
  int nparams;   /* number of size-parameter terms with a non-zero coefficient */
  int *pvar;     /* [nparams] var ids of IR_VAR_SIZE variables */
  long *pcoef;   /* [nparams] */
  long c0;
} poly_constraint;

/* A conjunction of constraints, and its text, e.g. "i0 >= i1". */
typedef struct poly_mask {
  int ncons;
  poly_constraint *cons;
  const char *text;
} poly_mask;

typedef enum poly_region_kind {
  POLY_REGION_NONE,   /* not accessed */
  POLY_REGION_BOX,    /* the whole array */
  POLY_REGION_MASK,   /* the elements satisfying one of the masks */
  POLY_REGION_OPAQUE  /* smaller than the array, not an affine mask (strides) */
} poly_region_kind;

/* The part of an array that a task reads or writes.  Constraints implied by
 * the array's box (0 <= x_d < dim_d) are left out of the masks. */
typedef struct poly_region {
  poly_region_kind kind;
  int nmasks;        /* POLY_REGION_MASK: a disjunction of masks (usually 1) */
  poly_mask *masks;
  const char *text;  /* "whole", "i0 >= i1", "(..) or (..)", "none" */
  const char *isl;   /* the region as an isl set, for people; NULL for NONE */
} poly_region;

/* ------------------------------------------------------------ statements */

typedef struct poly_stmt {
  int id;               /* assignment id */
  const ir_stmt *stmt;  /* in poly_analysis.kernel */
  int depth;            /* number of enclosing loops */
  const ir_stmt **loops; /* [depth] enclosing loops, outermost first */
  int task;             /* its task; -1 for a prelude statement */
  int guarded;          /* under a data-dependent if (may execute) */
  unsigned ops;         /* POLY_OP_* bits of its arithmetic */
  unsigned red_levels;  /* bit l: it updates its accumulator with a
                           reduction operator, the accumulator is not
                           indexed by loop l, and every value loop l carries
                           into it comes through the accumulator */
  const char *domain;   /* iteration domain, isl text */
  int *loop_dims;       /* [depth] the IR_VAR_SIZE var id P with 0 <= it < P
                           for each enclosing loop, or -1 (none such) */
  poly_region points;   /* the iteration domain within the box of the
                           loop_dims (NONE when one is -1): positions i0, i1,
                           ... are the loops, outermost first */
  /* Its value space: the enclosing loops that do not carry its reduction
   * (all of them for a plain assignment), outermost first, seen as the box
   * 0 <= it_d < size_d.  A tensor over this space holds the value the
   * statement leaves at each point (for a reduction, the whole sum).
   * Positions are i0, i1, ... in the masks.  nspace is -1 when a loop's
   * range is not within [0, size) of one size parameter. */
  int nspace;
  int *space_iters;     /* [nspace] iterator var ids */
  int *space_dims;      /* [nspace] IR_VAR_SIZE var ids: the extents */
  poly_region space;    /* the points the loops run over */
  poly_region last;     /* the points whose value is final: no later
                           statement instance of its task overwrites the
                           element (NONE for a guarded statement) */
} poly_stmt;

typedef enum poly_dep_kind {
  POLY_DEP_FLOW,   /* write then read: value-based (the last writer) */
  POLY_DEP_ANTI,   /* read then write (memory-based) */
  POLY_DEP_OUTPUT  /* write then write (memory-based) */
} poly_dep_kind;

/* A dependence between two statements through one variable. */
typedef struct poly_dep {
  poly_dep_kind kind;
  int src, dst;        /* assignment ids */
  int var;
  int carried;         /* depth of the outermost common loop carrying it, or
                          -1: only loop-independent (textual order) */
  int iter;            /* iterator var id of that loop, or -1 */
  int independent;     /* some instances are loop-independent */
  int ncommon;         /* loops common to src and dst */
  unsigned levels;     /* bit l: some instance is carried by common loop l
                          (agrees on loops 0..l-1, differs on loop l) */
  unsigned fixed;      /* bit l: those instances all have one distance
                          (computed for flow dependences only) */
  long *distance;      /* [ncommon] that distance (dst's iterator minus
                          src's at loop l) where fixed has bit l, else 0 */
  const char *rel;     /* the relation, isl text */
} poly_dep;

/* ------------------------------------------------------------------ tasks */

enum {
  POLY_IN_LIVEIN = 1u << 0,  /* (some of) its value comes from the kernel's
                                start: a parameter or a local's initial value */
  POLY_IN_TASK = 1u << 1,    /* (some of) its value is an earlier task's
                                output (from_task) */
  POLY_IN_OLD = 1u << 2,     /* the task updates it in place and reads the
                                old value */
  POLY_IN_OUTSIDE = 1u << 3, /* the task writes only part of it: the old
                                values outside the written region are kept */
  POLY_IN_CONST = 1u << 4    /* a local scalar set to a constant outside all
                                loops (has_value, value) */
};

typedef struct poly_input {
  int var;
  unsigned flags;      /* POLY_IN_* */
  int from_task;       /* the latest earlier task that wrote it, or -1 */
  int has_value;       /* POLY_IN_CONST: value is known */
  double value;
} poly_input;

enum {
  POLY_OUT_PARAM = 1u << 0,   /* a parameter array: live-out of the kernel */
  POLY_OUT_READ = 1u << 1,    /* read by later tasks (readers) */
  POLY_OUT_PARTIAL = 1u << 2  /* written region is smaller than the array:
                                 new values inside, old values outside */
};

typedef struct poly_output {
  int var;
  unsigned flags;      /* POLY_OUT_* */
  int nreaders;        /* later tasks that read this value */
  int *readers;
  poly_region region;  /* the written region */
} poly_output;

/* The regions of one variable accessed by a task. */
typedef struct poly_access {
  int var;
  poly_region read, write;
} poly_access;

typedef struct poly_task {
  int index;           /* position in the chain */
  int nstmts;
  int *stmts;          /* assignment ids, textual order */
  unsigned ops;        /* POLY_OP_* of its statements, reductions included */
  int ninputs;
  poly_input *inputs;  /* ordered by var id */
  int noutputs;
  poly_output *outputs; /* ordered by var id */
  int naccess;
  poly_access *access;  /* every variable it reads or writes, by var id */
  int nreductions;
  int *reductions;      /* indices into poly_analysis.reductions */
} poly_task;

/* A local variable expanded to an array so that its values can cross tasks:
 * var (now an IR_VAR_LOCAL_ARRAY of the analysed kernel) gained leading
 * subscripts, the iterators of its enclosing loops. */
typedef struct poly_expansion {
  int var;
  int old_rank;
  int nloops;
  int *iters;           /* iterator var ids, outermost first */
} poly_expansion;

/* ------------------------------------------------------------ kept loops */

/* One item of a kept loop's body, run at each of its iterations with the
 * kept iterators as parameters: a would-be task (a strongly connected
 * component of the dependences left once the kept loops' iterators are
 * fixed) or a nested kept loop. */
typedef struct poly_body_item {
  int nstmts;
  int *stmts;          /* assignment ids, textual order */
  int kept;            /* a nested kept loop (index into poly_analysis.kept)
                          whose statements these are, or -1: a task */
} poly_body_item;

/* A loop that must stay a sequential loop (docs/analyze.md, "Kept loops"):
 * it carries a flow dependence that no reduction explains, and no kept loop
 * around it carries that instance.  pipeline/kept.c raises inside one kind
 * (a time-step loop: the kernel's only statement, no kept loop inside, its
 * iterator unread); the analysis says which loops stay and what would be
 * raised inside them. */
typedef struct poly_kept_loop {
  const ir_stmt *loop; /* the loop, in poly_analysis.kernel */
  int iter;            /* its iterator var id */
  int level;           /* its depth: 0 for an outermost loop */
  int parent;          /* the enclosing kept loop, or -1 */
  int nparams;         /* the kept iterators its body sees: those of the */
  int *params;         /* enclosing kept loops and its own, outermost first */
  /* one dependence it carries that is not a reduction (the first found) */
  poly_dep_kind kind;
  int src, dst, var;   /* assignment ids: dst reads what src wrote */
  int has_distance;
  long distance;       /* dst's iteration minus src's, when has_distance */
  int nbody;
  poly_body_item *body; /* in execution order */
} poly_kept_loop;

/* A loop that keeps nothing but holds kept loops (adi's i around its j
 * sweeps; docs/analyze.md, "Batched loops"): its body is the sequence of
 * items it holds, statements and kept loops.  When it carries no
 * dependence (flow, anti or output; isl), every dependence between two of
 * its statements stays in one of its iterations, so it can be distributed
 * over those items (loop fission: a loop around each run of statements)
 * and moved inside each kept loop (interchange: the kept loop's body then
 * runs over all of its iterations at once, a tensor dim), which
 * pipeline/kept.c does (pipe_split).  why says when it cannot. */
typedef struct poly_batch_loop {
  const ir_stmt *loop; /* the loop, in poly_analysis.kernel */
  int iter;            /* its iterator var id */
  int level;           /* its depth */
  int parent;          /* the kept loop around it, or -1 */
  const char *why;     /* NULL: distributed and interchanged; else why not
                          (e.g. "loop i carries a dependence of S1 on S0
                          (flow through x, distance 1)") */
} poly_batch_loop;

/* A statement that stays scalar: every loop around it is kept, so at each
 * iteration it computes one element and has no tensor form. */
typedef struct poly_scalar_stmt {
  int stmt;            /* assignment id */
  int kept;            /* its innermost kept loop */
  const char *why;     /* e.g. "every loop around it is kept (t, i, j); loop
                          j carries a dependence of S0 on S0 (flow through A,
                          distance 1)" */
} poly_scalar_stmt;

typedef struct poly_analysis {
  const ir_kernel *kernel; /* the analysed kernel: the input, or a copy in
                              the arena when a local was expanded */
  int transformed;         /* kernel is a transformed copy */
  int nexpanded;
  poly_expansion *expanded;
  const char *params;      /* isl parameter tuple, e.g. "[m, n]" */
  int nstmts;
  poly_stmt *stmts;        /* indexed by assignment id */
  int nprelude;            /* statements that set a local scalar to a constant */
  int *prelude;            /* outside all loops: run before every task */
  int ndeps;
  poly_dep *deps;          /* flow, then anti and output; by (src, dst, var) */
  int nreductions;
  poly_reduction *reductions;
  int ntasks;
  poly_task *tasks;        /* topological order: run them in this order */
  int nkept;
  poly_kept_loop *kept;    /* the loops to keep, parents before children;
                              none for a raisable kernel */
  int nscalar;
  poly_scalar_stmt *scalar; /* statements that stay scalar */
  int nbatch;
  poly_batch_loop *batch;   /* loops around kept loops that keep nothing,
                              in the order found (parents' first) */
  int raisable;            /* 0: a dependence no loop distribution removes */
  const char *reason;      /* why not raisable (NULL when raisable) */
  int nreason_stmts;
  int *reason_stmts;       /* the statements involved */
  const char *error;       /* internal failure or unsupported input (then
                              nothing else is filled in), else NULL */
  int out_of_budget;       /* error: a budget ended the analysis (--timeout,
                              --memory, --work) */
} poly_analysis;

/* Analyse kernel k.  Everything returned (including a transformed copy of k
 * when a local was expanded) lives in `arena`, owned by the caller; the
 * result may point into k, which must outlive it.  The isl context is
 * created and freed inside the call.  Returns NULL only when k is NULL; an
 * analysis that cannot be done (non-affine bounds or subscripts, an isl
 * failure) returns a result whose `error` says why. */
poly_analysis *poly_analyze(const ir_kernel *k, ir_arena *arena);

/* k with each local scalar whose every access lies between a first write
 * and a store into an array element Y that nothing else between them
 * accesses (isl, per iteration of the loops around them) made that element
 * itself (`w = A[i][j]; w -= e; A[i][j] = w / p;` is `A[i][j] -= e;
 * A[i][j] = A[i][j] / p;`), the same floating operations in the same
 * order (docs/analyze.md, "Accumulators folded into their element");
 * *nfolded says how many locals.  k itself when none folds; the copy is in
 * arena and shares k's unchanged parts. */
const ir_kernel *poly_fold_locals(const ir_kernel *k, ir_arena *arena, int *nfolded);

/* Is every array element k's statements read or write inside its array's
 * extents, at every point of the statement's loops and affine conditions
 * (data-dependent ones taken as true), for every size assignment with
 * sizes >= 1?  1 if so; 0 if not, or if the accesses are not affine.
 * (At a size 0 an unguarded `A[n-1][n-1] = 1` writes outside A, as in
 * any kernel over sizes: the source is undefined there, docs/verify.md.) */
int poly_accesses_in_range(const ir_kernel *k);

/* Print the analysis for people (uplift analyze). */
void poly_print(const poly_analysis *a, FILE *out);
/* Assignment s of k as text (`A[i][j] = A[i][j] + 1`), in b (reset
 * first); returns ir_buf_str(b). */
const char *poly_stmt_text(const ir_kernel *k, const ir_stmt *s, ir_buf *b);
/* "S0 on S1 (flow through A, distance 1)": the dependence that keeps kept
 * loop k of a, into b (reset first); returns b's text. */
const char *poly_kept_dep(const poly_analysis *a, int k, ir_buf *b);

/* The analysis as a JSON document (format: docs/analyze.md).  Returns an
 * ir_malloc'd NUL-terminated string owned by the caller (ir_free). */
char *poly_to_json(const poly_analysis *a);

/* The task index of assignment `stmt`, -1 for a prelude statement or an
 * unknown id. */
int poly_task_of(const poly_analysis *a, int stmt);

/* ------------------------------------------------------------ size cases */

/* One size assignment per case that a task and a candidate distinguish. */
typedef struct poly_size_cases {
  int ncases;
  long *cases;  /* ncases * k->nvars: case c at cases[c * k->nvars + var id]
                   (entries of non-size variables 0); ir_malloc'd */
  int left_out; /* cells not separated (the budget) or without a point */
} poly_size_cases;

/* Split the size space (every size >= 0) into the cells of the arrangement
 * of the parameter sets that matter to the statements of k selected by mask
 * (NULL: all) and to the candidate's masks (masks[0..nmasks-1], IR_TN_MASK
 * nodes; their types give the boxes): for each statement, the sizes for
 * which each enclosing loop runs, and for each affine condition it
 * evaluates (if, ?:, comparisons), the sizes for which the condition is
 * true at some point of the domain and false at some point; for each mask,
 * its box, the mask, and each constraint's two sides.  Returns one
 * representative per non-empty cell (the smallest sum of sizes, then the
 * lexicographic minimum) in *out (free with poly_size_cases_free).  At most
 * `budget` cells: beyond it the refinement stops and out->left_out > 0.
 * The isl context lives inside the call.  Returns 0, or -1 on an isl
 * failure (out is empty). */
int poly_size_cases_build(const ir_kernel *k, const unsigned char *mask, int nmasks,
                          const ir_tnode *const *masks, int budget, poly_size_cases *out);
void poly_size_cases_free(poly_size_cases *sc);

/* ------------------------------------------------------------ all sizes */

/* The semantic kernel of a candidate op node (what grammar/'s gram_bind
 * says, handed over by the caller since polyhedral/ comes before
 * grammar/): the kernel's name in interp/ops.h ("add", "dot_general"), its
 * attribute values, and for each kernel operand the op operand index, or
 * -1 with the rank-0 constant kconst[i]. */
typedef struct poly_binding {
  const char *kernel;
  interp_attr attrs[INTERP_MAX_ATTRS];
  int nargs;
  int args[INTERP_MAX_ARGS];
  double kconst[INTERP_MAX_ARGS];
} poly_binding;

/* Fill *out for op node n; 0, or -1 when n has no binding. */
typedef int (*poly_bind_fn)(void *user, const ir_tnode *n, poly_binding *out);

/* One output of one task and its candidate, as the verifier checks it
 * (verify_task): the statements of a->kernel selected by mask (prelude
 * included), the candidate's inputs (var ids; an IR_TN_ARG leaf's arg is
 * its var id), the output variable and the candidate's term for it.
 * Nothing is owned. */
typedef struct poly_all_sizes_task {
  const poly_analysis *a;
  const unsigned char *mask;
  int nin;
  const int *in_vars;
  int out_var;
  const ir_tnode *cand;
  poly_bind_fn bind;
  void *bind_user;
} poly_all_sizes_task;

/* Try to prove, for every size assignment (every size >= 0), that the
 * candidate's value of the output equals the source's at every compared
 * element (the whole array for a parameter or an input, else the written
 * region), as affine sums of products (docs/verify.md, "All sizes"): both
 * sides become lists of signed terms (scalar atoms, literals other than
 * +-1 included, times a product of array reads summed over an isl domain
 * over sizes, output indices and bound variables), and the terms' images
 * must agree with their multiplicities, positive and negative apart, as
 * the outcome keys of real mode compare them.  Returns 1 when proved, 0
 * when not within reach (or different) with the reason in why (n bytes),
 * never 1 on doubt.  The isl context lives inside the call. */
int poly_all_sizes(const poly_all_sizes_task *t, char *why, size_t n);

#endif
