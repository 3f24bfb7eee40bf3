/*
 * ir.h - the shared data structures of uplift (docs/architecture.md section 3).
 *
 * Everything that crosses a pipeline arrow is declared here: source
 * positions and diagnostics, the arena and the counting allocator, the loop
 * program (ir_kernel: variables, statements, expressions) that the front
 * end produces and the interpreter, the polyhedral analysis and the verifier
 * consume, and the symbolic tensor types (ir_type) of the tensor programs.
 * Also the small utilities every module shares (ir/util.c, docs/util.md):
 * the growable string ir_buf, the error value ir_error and its convention,
 * the subprocess runner ir_run and the include-folder lookup.
 *
 * Ownership: an ir_kernel and everything it points to live in one ir_arena;
 * free the arena, not the nodes.  Nothing in here holds isl or Z3 objects.
 */
#ifndef UPLIFT_IR_H
#define UPLIFT_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- misc */

#define IR_MAX_RANK 4

/* Ownership documentation, the isl way. */
#ifndef __isl_give
#define __isl_give
#define __isl_take
#define __isl_keep
#endif

#define UNREACHABLE() ir_unreachable(__FILE__, __LINE__)
void ir_unreachable(const char *file, int line) __attribute__((noreturn));

#ifdef NDEBUG
#define IR_ASSERT(c) ((void)0)
#else
#define IR_ASSERT(c) ((c) ? (void)0 : ir_assert_fail(#c, __FILE__, __LINE__))
#endif
void ir_assert_fail(const char *what, const char *file, int line)
    __attribute__((noreturn));

/* Exit statuses of the uplift command (docs/architecture.md section 9). */
enum {
  IR_EXIT_OK = 0,       /* done */
  IR_EXIT_NOT_RAISED = 1, /* not raised within the budget */
  IR_EXIT_BAD_INPUT = 2,  /* bad input or usage */
  IR_EXIT_MISMATCH = 3,   /* a verification or cross-check failure */
  IR_EXIT_TYPES = 4       /* the dialect cannot express the kernel's element type */
};

/* ---------------------------------------------------- counting allocator */

/* All heap allocation goes through these so that tests can check that no
 * block is left live (ir_mem_live() == 0 after freeing everything).
 * Out of memory aborts with a message: callers never see NULL. */
void *ir_malloc(size_t n);
void *ir_calloc(size_t count, size_t size);
void *ir_realloc(void *p, size_t n);
void ir_free(void *p);
char *ir_strdup(const char *s);
long ir_mem_live(void); /* blocks allocated and not yet freed */

/* ----------------------------------------------------------------- arena */

/* A bump allocator for everything that lives as long as one raise.
 * Memory is zeroed.  ir_arena_free releases every block at once. */
typedef struct ir_arena_block ir_arena_block;
typedef struct ir_arena {
  ir_arena_block *head;
  size_t used; /* bytes handed out, for statistics and memory budgets */
} ir_arena;

void ir_arena_init(ir_arena *a);
void *ir_arena_alloc(ir_arena *a, size_t n);
char *ir_arena_strdup(ir_arena *a, const char *s);
char *ir_arena_strndup(ir_arena *a, const char *s, size_t n);
char *ir_arena_printf(ir_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ir_arena_free(ir_arena *a);
#define IR_NEW(arena, type) ((type *)ir_arena_alloc((arena), sizeof(type)))
#define IR_NEW_N(arena, type, n) \
  ((type *)ir_arena_alloc((arena), sizeof(type) * (size_t)(n)))

/* -------------------------------------------------- positions, diagnostics */

/* A position in a user's source file (1-based line and column). */
typedef struct ir_pos {
  const char *file; /* the name the user gave (or a #line name), not owned */
  int line, col;
} ir_pos;

/* The text of a source file, so that diagnostics can quote a line. */
typedef struct ir_source {
  const char *name; /* as given by the user */
  const char *text; /* whole file, NUL-terminated */
  size_t len;
} ir_source;

/* Print "file:line:col: error: MESSAGE", the source line, a caret under the
 * column and, if `supported` is not NULL, "note: supported: SUPPORTED".
 * `src` may be NULL (or not match pos.file): the line quote is skipped.
 * Writes to stderr. */
void ir_diag_error(const ir_source *src, ir_pos pos, const char *supported,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ir_diag_verror(const ir_source *src, ir_pos pos, const char *supported,
                    const char *fmt, va_list ap);

/* Find a file of uplift's source tree (e.g. "frontend/include/polybench.h")
 * next to the running executable or up to three folders above it (the
 * binary may live in build/ or build-san/), or in share/uplift/ of one of
 * those folders (the layout of `make install`: PREFIX/bin/uplift and
 * PREFIX/share/uplift/PROBE), and write the folder that
 * holds it, joined with `dir` (e.g. "frontend/include"), to out.  Returns
 * 0, or -1 if it is not found. */
int ir_tree_dir(const char *probe, const char *dir, char *out, size_t n);

/* Inputs larger than this (C files, dialects, reports) are refused. */
#define IR_SOURCE_MAX (64L << 20)

/* Read a whole file into memory (ir_malloc'd, NUL-terminated; owned by the
 * caller through ir_source_free).  Returns -1 and sets errno on failure:
 * EISDIR for a directory, EFBIG past IR_SOURCE_MAX bytes (64 MB). */
int ir_source_read(ir_source *src, const char *path);
/* What a failed ir_source_read says for people ("it is a directory",
 * "larger than the 64 MB limit", or strerror). */
const char *ir_read_error(int err);
void ir_source_free(ir_source *src);

/* Read at most n-1 bytes of the file at path into buf, NUL-terminated (an
 * empty string if it cannot be read): for quoting a tool's log. */
void ir_read_head(const char *path, char *buf, size_t n);

/* ------------------------------------------------------------ budgets
 * A command's --timeout and --memory for the whole process (ir/budget.c):
 * a watch thread raises the expired flag at the deadline, and ends the
 * process (a message on stderr, exit status `status`) when the command is
 * still running IR_BUDGET_GRACE seconds later, or at once when resident
 * memory grows past memory_mb + memory_mb/4 + 256 MB. */
#define IR_BUDGET_GRACE 5

/* Start the watch (once per process; later calls do nothing).  seconds 0:
 * no time limit; memory_mb 0: no memory limit.  cmd is borrowed (a
 * literal).  Returns 0, or -1 if the thread cannot be started. */
int ir_budget_start(const char *cmd, double seconds, long memory_mb, int status);
/* Seconds on the monotonic clock (CLOCK_MONOTONIC): for durations. */
double ir_monotonic_seconds(void);
/* 1 once the time budget (or the work budget, ir_work_limit) has run out. */
int ir_budget_expired(void);
/* The smaller of want (seconds; 0: no limit of its own) and what is left
 * of the time budget, at least 1 ms (so never 0, which means "no limit",
 * while a budget runs); want when there is no time budget. */
double ir_budget_left(double want);
/* The phase running ("analysis", "search", ...; a literal, borrowed):
 * named in the message of a hard stop.  NULL: none named. */
void ir_budget_phase(const char *phase);
const char *ir_budget_phase_name(void);
/* The command's answer is known and is being written: no hard stop for
 * time from now on (the memory watch stays).  ir_budget_expired still
 * says whether the budget ran out. */
void ir_budget_finish(void);
/* A command's last words at a hard stop, called on the watch thread just
 * before the process ends: what ran out (the message's text), the phase
 * (or NULL) and the seconds since ir_budget_start.  It must only write
 * its report (the main thread is still running).  fn NULL: none. */
typedef void (*ir_budget_stop_fn)(void *user, const char *what, const char *phase,
                                  double seconds);
void ir_budget_on_stop(ir_budget_stop_fn fn, void *user);
/* A hook the watch thread calls (on its thread) at the deadline, every
 * sampling step from then on until it is removed; at once when the budget
 * has already run out.  Also at every sampling step at which the memory
 * grown since ir_budget_start is past the --memory budget itself (not the
 * hard stop's margin); ir_budget_memory_out is 1 from then on.  For a
 * phase inside a library call that has its own way to be stopped
 * (isl_ctx_abort) and no count of its memory.  fn NULL removes it: after
 * that returns, fn is not running and is not called again.  One at a
 * time. */
typedef void (*ir_budget_expire_fn)(void *user);
void ir_budget_on_expire(ir_budget_expire_fn fn, void *user);
/* 1 once the expiry hook was called because the memory use passed the
 * --memory budget. */
int ir_budget_memory_out(void);
/* The process's resident memory in KB (0 if it cannot be read). */
long ir_resident_kb(void);
/* A command's work budget (--work): a count, not a clock, so whether a
 * command ends within it does not depend on the machine's speed or load.
 * The enumerator adds the result elements its candidates compute
 * (ir_work_add); once the total passes the limit, its searches stop as
 * they do at the deadline and ir_budget_expired is 1.  limit 0: none. */
void ir_work_limit(long elements);
void ir_work_add(long elements);
/* The elements added so far. */
long ir_work_done(void);
/* The elements left of the work budget (0 when spent), or -1 when there
 * is none. */
long ir_work_left(void);
/* 1 once the work budget is spent. */
int ir_work_over(void);

/* -------------------------------------------------------------- strings */

/* A growable string (ir/util.c).  A zeroed ir_buf is empty; s is NULL until
 * something is added, then NUL-terminated; n is its length.  The buffer
 * owns s: ir_buf_free releases it, ir_buf_take hands it to the caller
 * (ir_free) and leaves the buffer empty. */
typedef struct ir_buf {
  char *s;
  size_t n, cap;
} ir_buf;

void ir_buf_add(ir_buf *b, const char *s, size_t n);
void ir_buf_puts(ir_buf *b, const char *s);
void ir_buf_printf(ir_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ir_buf_vprintf(ir_buf *b, const char *fmt, va_list ap);
const char *ir_buf_str(const ir_buf *b); /* "" when empty; never NULL */
void ir_buf_reset(ir_buf *b);            /* empty, keeping the memory */
char *ir_buf_take(ir_buf *b);
void ir_buf_free(ir_buf *b);

/* --------------------------------------------------------------- errors */

/* The error convention (docs/util.md, "Errors"): a function that
 * can fail returns -1 (or NULL) and fills an ir_error * the caller passes
 * (NULL when the caller does not want the message).  pos is where in the
 * user's source the failure is (file NULL and line 0 when nowhere), code
 * what kind of failure it is, so callers decide by code and never by
 * comparing message text; msg says it for people, without the position
 * (ir_error_print adds "file:line:col: error:" and the source line). */
typedef enum ir_err_code {
  IR_ERR_NONE,    /* no error */
  IR_ERR_INPUT,   /* the input is wrong or outside what is supported */
  IR_ERR_SHAPE,   /* types or shapes that do not fit together */
  IR_ERR_RANGE,   /* a subscript or value out of its range */
  IR_ERR_TIMEOUT, /* a time budget ran out */
  IR_ERR_TOOL,    /* an external tool (cc, mlir-opt-16) failed */
  IR_ERR_SYSTEM,  /* the system refused (files, processes, memory maps) */
  IR_ERR_INTERNAL /* a bug of uplift's */
} ir_err_code;

typedef struct ir_error {
  ir_pos pos;
  ir_err_code code;
  char msg[300]; /* longer messages are cut */
  /* What is supported instead (static text, or text that outlives the
   * error), printed as "note: supported: ..."; NULL when there is none.
   * ir_error_set clears it; the front end sets it after. */
  const char *supported;
} ir_error;

/* Fill e (if not NULL) and return -1, so that `return ir_error_set(...)`
 * reports and fails in one statement. */
int ir_error_set(ir_error *e, ir_pos pos, ir_err_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ir_error_vset(ir_error *e, ir_pos pos, ir_err_code code, const char *fmt, va_list ap);
void ir_error_clear(ir_error *e); /* no error; e may be NULL */
/* Print e as a user error (ir_diag_error: position, message, source line,
 * and the supported note when e has one). */
void ir_error_print(const ir_error *e, const ir_source *src);
const char *ir_err_code_name(ir_err_code c); /* "timeout", "tool", ... */
/* e as one line of text for a reason kept in a result (a JSON report, a
 * verdict): "file:line:col: msg" ("?" for an unknown file) when e has a
 * position (a file or a line), msg alone otherwise.  Written into buf (cut at n
 * bytes); returns buf. */
char *ir_error_str(const ir_error *e, char *buf, size_t n);

/* ----------------------------------------------------------- subprocesses */

/* How ir_run runs a program.  A zeroed ir_run_opts: no time limit, output
 * and error captured separately, the environment inherited. */
typedef struct ir_run_opts {
  double timeout;          /* wall-clock seconds; 0: none.  At the limit the
                              child's process group is killed */
  const char *out_file;    /* standard output to this file, not captured */
  int merge_err;           /* standard error goes where standard output goes */
  const char *const *env;  /* "NAME=VALUE" entries set in the child, or NULL */
  size_t max_out;          /* captured standard output past this many bytes
                              (0: no cap) kills the child's process group */
} ir_run_opts;

/* What happened.  out and err hold what was captured (owned; free with
 * ir_run_result_free, also after a failure). */
typedef struct ir_run_result {
  int started;   /* the child was forked (an exec failure exits 127) */
  int status;    /* exit status, -1 if it did not exit */
  int signal;    /* the signal that ended it, or 0 */
  int timed_out; /* killed at opt->timeout */
  int too_large; /* killed when its output passed opt->max_out */
  ir_buf out, err;
} ir_run_result;

/* Run argv[0] (searched on PATH, no shell) with the arguments argv[1..]
 * (NULL-terminated).  Returns 0 when it exited with status 0, else -1. */
int ir_run(const char *const *argv, const ir_run_opts *opt, ir_run_result *res);
/* Append "ARGV0 exited with status 3" (or was killed, timed out, could not
 * start) to b. */
void ir_run_describe(const char *const *argv, const ir_run_result *res, double timeout,
                     ir_buf *b);
void ir_run_result_free(ir_run_result *res);
/* Is there an executable `name` on PATH (a name with a '/': that file)? */
int ir_have_program(const char *name);

/* "first", "second", ... "tenth" for n = 1..10, else "N-th" (static or
 * per-thread storage: use it before the next call in the thread). */
const char *ir_ordinal(int n);

/* uplift's own frontend/include folder (polybench.h), found once with
 * ir_tree_dir; NULL if it is not found.  The string is static. */
const char *ir_include_dir(void);

/* ---------------------------------------------------------- element types */

typedef enum ir_elem {
  IR_F64, /* double */
  IR_F32, /* float */
  IR_I32, /* int: sizes, iterators, integer expressions */
  IR_I1,  /* bool: comparisons */
  IR_I64, /* long, long long, int64_t element data */
  IR_I8,  /* signed char, int8_t element data */
  IR_U8,  /* unsigned char, uint8_t */
  IR_I16, /* short, int16_t */
  IR_U16, /* unsigned short, uint16_t */
  IR_U32, /* unsigned, uint32_t */
  IR_U64  /* unsigned long, uint64_t */
} ir_elem;
#define IR_ELEM_COUNT 11

/* "double", "float", "int", "_Bool", "long", "signed char", "unsigned
 * char", "short", "unsigned short", "unsigned", "unsigned long" */
const char *ir_elem_c_name(ir_elem e);
/* "f64", "f32", "i32", "i1", "i64", "i8", "ui8", "i16", "ui16", "ui32",
 * "ui64": StableHLO's spellings, signedness in the type (ir_type_str, the
 * dialect files' elem lines, the tensor program's text) */
const char *ir_elem_mlir_name(ir_elem e);
/* The same without the signedness, as MLIR's builtin tensors of arith,
 * linalg and tosa have it: "ui8" is "i8". */
const char *ir_elem_mlir_signless(ir_elem e);
static inline int ir_elem_is_float(ir_elem e) { return e == IR_F64 || e == IR_F32; }
/* An integer type of element data or index arithmetic (not i1)? */
static inline int ir_elem_is_int(ir_elem e) { return !ir_elem_is_float(e) && e != IR_I1; }
int ir_elem_bits(ir_elem e);      /* 64, 32, 32, 1, 64, 8, 8, 16, 16, 32, 64 */
int ir_elem_is_signed(ir_elem e); /* the integer types: is it signed? */
/* The integer type of `bits` bits and that signedness (8, 16, 32, 64). */
ir_elem ir_elem_int(int bits, int is_signed);
/* C's integer promotion of an integer type: types narrower than int are
 * int, the others stay (i1 is int). */
ir_elem ir_elem_promote(ir_elem e);
/* C's usual arithmetic conversions of two promoted integer types, or of a
 * floating type and any: the common type of a binary operation. */
ir_elem ir_elem_common(ir_elem a, ir_elem b);
/* Integer data in doubles (docs/run.md, "Integer data"): a double holding
 * a value of an integer type is that value exactly, or NaN, which stands
 * for a value not known exactly: one that a double cannot hold (an i64 or
 * ui64 value past 2^53 that is not a multiple of its power of two), or
 * none at all (C's undefined behaviour, in the loop interpreter).  Every
 * integer operation below maps NaN to NaN, so the marker reaches the
 * result, where the interpreters make it poison (never compared) and the
 * search never merges two candidates over it. */

/* The value of v (an integer, or a double truncated toward 0 first)
 * converted to integer type e as C converts: modulo 2^bits into e's range
 * (gcc and clang's implementation-defined rule for signed targets).  NaN,
 * an infinity (undefined in C) and a result no double holds give NaN. */
double ir_elem_wrap(ir_elem e, double v);
/* a OP b in integer type e, exactly on 64-bit integers and wrapped to e
 * (e's values are exact doubles): op '+', '-', '*', 'n' (-a), 'l' (a << b),
 * 'a' (a >> b, arithmetic: the sign fills), 'r' (a >> b, logical on e's
 * bits).  A shift count outside 0..bits-1 gives 0 ('l', 'r') or the sign
 * fill ('a'), as StableHLO's shifts do (in C it is undefined).  A NaN
 * operand or a result no double holds (64-bit types only) gives NaN. */
double ir_int_arith(ir_elem e, int op, double a, double b);
/* The 64-bit value u (the bits of a value of integer type e, sign-extended
 * or zero-extended) as a double, or NaN when no double holds it exactly. */
double ir_int_value(ir_elem e, uint64_t u);

/* ------------------------------------------------------- loop program */

typedef enum ir_var_kind {
  IR_VAR_SIZE,        /* int n: a size parameter of the kernel */
  IR_VAR_SCALAR,      /* double alpha: a scalar parameter (read-only) */
  IR_VAR_ARRAY,       /* double A[ni][nk]: an array parameter */
  IR_VAR_LOCAL,       /* double temp2: a local scalar */
  IR_VAR_LOCAL_ARRAY, /* double tmp[n]: a local array (starts as poison) */
  IR_VAR_ITER,        /* int i: a loop iterator */
  IR_VAR_EXTENT       /* 3 in float w[3], x[LEN]: a constant extent other than
                         1, a dim symbol of the tensor types whose value is
                         always `value` (not a C parameter, never in
                         expressions; see ir_kernel_pin_extents) */
} ir_var_kind;

struct ir_expr;

typedef struct ir_var {
  ir_var_kind kind;
  int id;            /* index in ir_kernel.vars */
  const char *name;
  ir_elem elem;      /* element type; IR_I32 for sizes and iterators */
  int rank;          /* 0 for scalars */
  struct ir_expr *dims[IR_MAX_RANK]; /* affine in size parameters */
  /* A view (docs/frontend.md, "Regions of declared arrays"): the kernel
   * reads and writes only the region [0, dims[d]) of each dim of an array
   * whose declared (storage) extents are store[0..rank-1], row-major, as a
   * leading dimension `a[i*lda + j]` (dims [m][k], store [m][lda]).  Every
   * later stage works on the region; the native runs and the C+BLAS writer
   * map it into the storage.  All NULL when dims are the declared extents.
   * A padded pointer (`y[i]`, 1 <= i < n-1: storage n - 1, dims n) has a
   * storage extent below its dim in the dims of bit mask `padded`: the
   * region's elements past the storage are never accessed by the kernel;
   * they are zeros going in and dropped going out. */
  struct ir_expr *store[IR_MAX_RANK];
  unsigned padded;
  int param_index;   /* position in the C signature, -1 for locals */
  long value;        /* IR_VAR_EXTENT: the constant extent; a pinned
                        IR_VAR_SIZE: the value it has in the user's code */
  /* IR_VAR_SIZE made from a constant extent by pipe_generalize (a loop to
   * 1000 over x[1000]): not a C parameter (param_index -1), named by its
   * value, always `value` in the user's program; the search and the
   * verifier take it as a free size, every run of the user's code and
   * every static shape pins it (ir_kernel_pin_constants). */
  int pinned;
  int restricted;    /* IR_VAR_ARRAY parameter declared `restrict`
                        (`float *restrict y`, `double A[restrict n][m]`):
                        while the kernel writes its elements, no other
                        parameter reaches them (C11 6.7.3.1) */
  int global;        /* IR_VAR_ARRAY: a file-scope array of the user's file
                        that the kernel reads or writes, an operand of the
                        kernel (in ir_kernel.params after the C parameters)
                        but not a C parameter */
  /* IR_VAR_SCALAR that is not a C parameter (param_index -1): a size used
   * as a value (`ss /= n`), whose value is always `(elem)size_value`, an
   * integer expression of size parameters and constants; every stage takes
   * it as a read-only scalar (the proofs hold for every value it could
   * have), the interpreter and the emitted C compute it from the sizes
   * (docs/frontend.md, "Sizes as values").  NULL otherwise. */
  struct ir_expr *size_value;
  int carried;       /* IR_VAR_SCALAR of an item of a sequence: a local whose
                        value passes from one item to another
                        (ir_kernel.ncarried), no argument or result of the
                        whole kernel */
  ir_pos pos;        /* declaration */
} ir_var;

typedef enum ir_expr_kind {
  IR_EX_CONST,  /* 1.5, 3, SCALAR_VAL(0.1): a literal (value, is_int) */
  IR_EX_VAR,    /* n, alpha, temp2, i: a scalar variable (var) */
  IR_EX_ELEM,   /* A[i][j+1]: an array element (var, args = subscripts) */
  IR_EX_NEG,    /* -a */
  IR_EX_NOT,    /* !a */
  IR_EX_ADD,    /* a + b */
  IR_EX_SUB,    /* a - b */
  IR_EX_MUL,    /* a * b */
  IR_EX_DIV,    /* a / b (floating point only; integer division is rejected) */
  IR_EX_LT,     /* a < b */
  IR_EX_LE,     /* a <= b */
  IR_EX_GT,     /* a > b */
  IR_EX_GE,     /* a >= b */
  IR_EX_EQ,     /* a == b */
  IR_EX_NE,     /* a != b */
  IR_EX_AND,    /* a && b */
  IR_EX_OR,     /* a || b */
  IR_EX_SELECT, /* c ? a : b  (args[0] = c, args[1] = a, args[2] = b) */
  IR_EX_CALL,   /* sqrt(x), pow(x, y), ... (fn, args) */
  IR_EX_CAST,   /* (double)x: conversion to `type` (args[0]) */
  IR_EX_IMIN,   /* min(a, b) of integers: loop bounds only */
  IR_EX_IMAX,   /* max(a, b) of integers: loop bounds only */
  IR_EX_SHL,    /* a << b  (integer data; a and b of the promoted type) */
  IR_EX_SHR     /* a >> b  (arithmetic for a signed type, logical for an
                   unsigned one, as gcc and clang do) */
} ir_expr_kind;

typedef enum ir_fn {
  IR_FN_SQRT, /* sqrt, sqrtf, SQRT_FUN */
  IR_FN_EXP,  /* exp, expf, EXP_FUN */
  IR_FN_POW,  /* pow, powf, POW_FUN */
  IR_FN_FABS, /* fabs, fabsf */
  IR_FN_FMAX, /* fmax, fmaxf */
  IR_FN_FMIN  /* fmin, fminf */
} ir_fn;
const char *ir_fn_name(ir_fn f); /* "sqrt", ... */

typedef struct ir_expr {
  ir_expr_kind kind;
  ir_elem type;         /* type of the value */
  ir_pos pos;
  double value;         /* IR_EX_CONST */
  int is_int;           /* IR_EX_CONST: written as an integer literal */
  int var;              /* IR_EX_VAR, IR_EX_ELEM: index in ir_kernel.vars */
  ir_fn fn;             /* IR_EX_CALL */
  int nargs;            /* operands / subscripts / call arguments */
  struct ir_expr **args;
} ir_expr;

typedef enum ir_assign_op {
  IR_ASSIGN,     /* =  */
  IR_ASSIGN_ADD, /* += */
  IR_ASSIGN_SUB, /* -= */
  IR_ASSIGN_MUL, /* *= */
  IR_ASSIGN_DIV  /* /= */
} ir_assign_op;

typedef enum ir_stmt_kind {
  IR_ST_FOR,    /* for (iter = lo..hi, step) body */
  IR_ST_IF,     /* if (cond) then_body else else_body */
  IR_ST_ASSIGN  /* lhs op= rhs */
} ir_stmt_kind;

typedef struct ir_stmt {
  ir_stmt_kind kind;
  ir_pos pos;
  struct ir_stmt *next; /* next statement in the same block */

  /* IR_ST_FOR: iter runs over lo..hi, both INCLUSIVE, upward when step is
   * +1 (lo, lo+1, .., hi), downward when step is -1 (hi, hi-1, .., lo).
   * lo and hi are affine in size parameters and enclosing iterators and may
   * be IR_EX_IMAX (lo) / IR_EX_IMIN (hi) trees.  `for (i = 0; i < n; i++)`
   * gives lo = 0, hi = n - 1, step = 1. */
  int iter;
  ir_expr *lo, *hi;
  int step;
  struct ir_stmt *body;

  /* IR_ST_IF */
  ir_expr *cond;
  struct ir_stmt *then_body, *else_body;

  /* IR_ST_ASSIGN: lhs is a scalar (IR_EX_VAR) or an element (IR_EX_ELEM).
   * A declaration with an initializer (double eps = 0.1;) is an assignment.*/
  int id;         /* 0, 1, 2, ... in textual order over the kernel */
  ir_expr *lhs;
  ir_assign_op op;
  ir_expr *rhs;
} ir_stmt;

/* An assumption lo <= hi on the sizes (both affine in size parameters)
 * under which the kernel's views are regions of their storage (k <= lda);
 * stated in the reports, checked by the native runs and the emitted C. */
typedef struct ir_assume {
  struct ir_expr *lo, *hi;
  ir_pos pos; /* the access that needs it */
  int kept;   /* a kept iterator's bound, the iterator a size of its body
                 (pipeline/kept.c): it gives the search sizes where the body
                 runs; it holds by construction and is neither printed nor
                 checked */
} ir_assume;

typedef struct ir_kernel {
  const char *name;   /* kernel function name, e.g. "kernel_gemm" */
  const char *file;   /* file name as given by the user */
  ir_elem data_type;  /* element type of the arrays (the widest one) */
  ir_var **vars;      /* every variable, vars[i]->id == i */
  int nvars;
  int *params;        /* var ids in signature order */
  int nparams;
  int returns;        /* 1: the function returns a value (`return s;`), held
                         by the last parameter, a one-element output array
                         `ret[1]` that is not a C parameter (docs/frontend.md) */
  int nglobals;       /* file-scope arrays among the parameters (ir_var.global),
                         after the C ones and before the returned value's */
  int nslices;        /* operands of a kept loop's body cut from an array at
                         its iterator (ir_tslice, pipeline/kept.c): among the
                         parameters after the file-scope arrays, not C
                         parameters */
  int ncarried;       /* local scalars whose value passes from one item of a
                         sequence to another (pipeline/kept.c, pipe_split):
                         in the item, scalars (IR_VAR_SCALAR) it reads (an
                         input) or writes (an output), among the parameters
                         after the slices, not C parameters */
  const char *scalar; /* a scalar item (pipeline/kept.c, issue 14): its
                         statements stay scalar loops, run as written; why
                         (the analysis's reason); NULL: raised */
  ir_stmt *body;      /* the statements of the kernel */
  int nassign;        /* number of IR_ST_ASSIGN statements (ids 0..n-1) */
  ir_assume *assumes; /* the size relations its views need */
  int nassumes;
} ir_kernel;

/* Is v a view, a region of larger declared storage (ir_var.store)? */
static inline int ir_var_is_view(const ir_var *v) { return v->rank > 0 && v->store[0]; }

/* The number of C parameters of k: its parameters without the file-scope
 * arrays (k->nglobals), a kept loop body's slices (k->nslices), the
 * carried locals of an item (k->ncarried) and the returned value's array
 * (k->returns). */
static inline int ir_kernel_nargs(const ir_kernel *k) {
  return k->nparams - k->nglobals - k->nslices - k->ncarried - (k->returns != 0);
}

/* Are a and b the same expression (kind, value, variable, function, cast
 * type and operands; positions aside)? */
int ir_expr_equal(const ir_expr *a, const ir_expr *b);

/* Assignment s as an accumulation: `x += e` and `x -= e`, and the same
 * written out, `x = x + e`, `x = e + x`, `x = x - e` (one operation in C:
 * `x = x + a + b` is `(x + a) + b`, not an accumulation of `a + b`).
 * Returns IR_ASSIGN_ADD or IR_ASSIGN_SUB with *summand = e for those,
 * otherwise s->op with *summand = s->rhs. */
ir_assign_op ir_stmt_accumulation(const ir_stmt *s, const ir_expr **summand);

/* Find a variable by name; -1 if none. */
int ir_kernel_find_var(const ir_kernel *k, const char *name);

/* Print parameter i of k as a C declaration: `double A[n][m]`, or, when an
 * extent reads a size declared after it (invalid as a C array parameter),
 * a pointer `float *x` with the extents in a comment (same layout and
 * ABI). */
void ir_param_print(const ir_kernel *k, int i, FILE *out);

/* Print k's C signature: `void NAME(double A[n][m], int n)`, or, when k
 * returns a value, `float NAME(...)` without the returned value's array. */
void ir_signature_print(const ir_kernel *k, FILE *out);
/* ir_signature_print with extra[0..nextra-1] (declarations: "long s") as
 * further parameters after k's. */
void ir_signature_print_with(const ir_kernel *k, const char *const *extra, int nextra, FILE *out);

/* Print assumption a of k as `k <= lda`. */
void ir_assume_print(const ir_kernel *k, const ir_assume *a, FILE *out);

/* One line per view, "PREFIXa: the region [m][k] of a[m][lda]", then one
 * per assumption, "PREFIXassumes k <= lda", then the overlap assumptions
 * (ir_kernel_print_overlaps). */
void ir_kernel_print_views(const ir_kernel *k, const char *prefix, FILE *out);

/* Do k's proofs assume that arrays a and b (var ids) do not overlap in
 * memory?  So for two array operands of k (C parameters or file-scope
 * arrays, not two file-scope ones, which are distinct objects), one of
 * them written by k, neither declared restrict (then an overlap would be
 * undefined behaviour): C allows such pointers to overlap, the tensor
 * program's values cannot. */
int ir_kernel_no_overlap(const ir_kernel *k, int a, int b);

/* Print the overlap assumptions of k (ir_kernel_no_overlap), one line per
 * written array w that has some: "PREFIXassumes w overlaps none of a, b in
 * memory (none is restrict)"; a pair is named once, at its first array. */
void ir_kernel_print_overlaps(const ir_kernel *k, const char *prefix, FILE *out);

/* Does expression e (NULL: no) read variable v (as a scalar or an
 * element)?  Do statements s (and the blocks after and inside them: bounds,
 * conditions, both sides) read it? */
int ir_expr_reads(const ir_expr *e, int v);
int ir_stmts_read(const ir_stmt *s, int v);

/* Does k write array v (an assignment to one of its elements)? */
int ir_kernel_writes(const ir_kernel *k, int v);

/* Do all of k's assumptions hold at sizes[var id]?  1 if so; else 0 with
 * the first that fails in msg: "k <= lda does not hold (k=5, lda=3)". */
int ir_kernel_assumes_hold(const ir_kernel *k, const long *sizes, char *msg, size_t n);

/* Set sizes[v] of every IR_VAR_EXTENT variable v of k to its value: every
 * size assignment the later stages build or read (examples, the
 * verifier's box and cases, run --sizes) goes through it, so a constant
 * extent, a dim symbol in the tensor types, always has its value. */
void ir_kernel_pin_extents(const ir_kernel *k, long *sizes);

/* ir_kernel_pin_extents, and also every pinned size (ir_var.pinned) at
 * its value: the sizes of the user's own program, for runs of it (native
 * or interpreted) and static shapes. */
void ir_kernel_pin_constants(const ir_kernel *k, long *sizes);

/* The IR_VAR_EXTENT variable of k whose value is c; -1 if none. */
int ir_kernel_extent_var(const ir_kernel *k, long c);

/* Raise sizes (sizes[var id]) that occur only on the larger side of an
 * assumption until k's assumptions hold, where one size can make each
 * hold (lda to k for k <= lda); others are left as they are. */
void ir_kernel_fit_sizes(const ir_kernel *k, long *sizes);

/* The number of elements of v's storage at sizes (its declared extents for
 * a view, else its dims; an extent below 0 counts as 0), and the storage
 * offset of the element at row-major index i of v's region (i itself when
 * v is not a view; IR_NO_STORE past a padded pointer's storage). */
#define IR_NO_STORE ((size_t)-1)
size_t ir_var_store_size(const ir_var *v, const long *sizes);
size_t ir_var_store_offset(const ir_var *v, const long *sizes, size_t i);

/* Print the loop program in readable C-like form (uplift dump). */
void ir_kernel_dump(const ir_kernel *k, FILE *out);
void ir_expr_print(const ir_kernel *k, const ir_expr *e, FILE *out);
/* Write the read e (an IR_EX_VAR or IR_EX_ELEM) and return 1, or return 0
 * to have it written as ir_expr_print does. */
typedef int (*ir_var_print_fn)(const ir_kernel *k, const ir_expr *e, void *user, FILE *out);
/* e as C: as ir_expr_print, but every read of a variable through var
 * first, and the integer min and max of loop bounds as ?: expressions. */
void ir_expr_print_c(const ir_kernel *k, const ir_expr *e, ir_var_print_fn var, void *user,
                     FILE *out);

/* Evaluate an integer expression (affine subscripts and bounds) given the
 * values of all variables (vals[var id]); only integer kinds are allowed. */
/* Is e an integer constant expression (integer literals, or integral
 * floating ones, under unary -, casts, + - *)?  Its value in *v; 1 if so. */
int ir_expr_const_int(const ir_expr *e, long *v);
long ir_expr_eval_int(const ir_expr *e, const long *vals);

/* The affine form of integer expression e (ir_expr_eval_int's) over k's
 * sizes and iterators: coef[v] per variable (k->nvars entries, the
 * caller's), *c0 the constant.  Returns 0, or -1 when e is not affine in
 * them (a product of two: the form is checked with every one set to 3). */
int ir_expr_affine(const ir_kernel *k, const ir_expr *e, long *coef, long *c0);

/* The number of elements of k's arrays and scalars (locals included; sizes
 * and iterators not) at the size assignment sizes[var id], counted up to
 * max: past it the result is some value > max (no overflow).  -1 if a dim
 * is negative. */
long ir_kernel_elements(const ir_kernel *k, const long *sizes, long max);

/* Call f on every assignment statement, in textual order, with its loop
 * nest: loops[0..depth-1] outermost first.  Stops if f returns non-zero
 * and returns that value. */
typedef int (*ir_assign_fn)(const ir_stmt *assign, const ir_stmt *const *loops,
                            int depth, void *user);
int ir_kernel_walk_assigns(const ir_kernel *k, ir_assign_fn f, void *user);

/* ---------------------------------------------------- symbolic tensor types */

/* A dim is a size symbol: the id of an IR_VAR_SIZE variable of the kernel
 * or of an IR_VAR_EXTENT one (a constant extent such as 3, whose value is
 * pinned in every size assignment), or IR_DIM_ONE for the constant 1.  Two
 * dims unify only if equal. */
#define IR_DIM_ONE (-1)

typedef struct ir_type {
  ir_elem elem;
  int rank;
  int dims[IR_MAX_RANK];
} ir_type;

int ir_type_equal(const ir_type *a, const ir_type *b);
/* "f64[ni,nk]" with names from k (k may be NULL: "d3"); returns buf. */
char *ir_type_str(const ir_type *t, const ir_kernel *k, char *buf, size_t n);

/* ------------------------------------------------------ concrete values */

/* A concrete tensor (rank 0 for scalars): row-major doubles plus a poison
 * mask.  Integer and boolean elements are stored as exact doubles (0/1 for
 * i1).  poison == NULL means no element is poison; otherwise poison[i] != 0
 * marks element i as poison (uninitialized).  Who owns data/poison is said
 * by the function that hands the tensor out. */
typedef struct ir_tensor {
  ir_elem elem;
  int rank;
  long dims[IR_MAX_RANK];
  double *data;
  unsigned char *poison;
} ir_tensor;

/* Number of elements: the product of the dims (1 for rank 0). */
size_t ir_tensor_size(const ir_tensor *t);

/* The multi-index idx[0..rank-1] of row-major element i of a tensor with
 * these dims. */
void ir_unravel(size_t i, int rank, const long *dims, long *idx);

#endif
