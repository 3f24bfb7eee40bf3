/*
 * frontend.h - the C kernel front end: C subset to loop program (docs/architecture.md
 * sections 3 and 4).
 *
 * The file is preprocessed with the system C preprocessor (cc -E) with
 * -DPOLYBENCH_USE_C99_PROTO, the user's -I and -D
 * options, and uplift's own polybench.h directory last on the include path
 * (frontend/include/), so that unmodified Polybench/C 4.2.1 files and plain
 * C99 kernels both work.  The kernel function (the only kernel_* function,
 * the one named by --function, or else the only function with loops) is
 * parsed into an ir_kernel; everything else in the translation unit is
 * skipped.
 */
#ifndef UPLIFT_FRONTEND_H
#define UPLIFT_FRONTEND_H

#include "ir/ir.h"

typedef struct fe_options {
  const char *function;      /* --function NAME, or NULL: the only kernel_* */
  const char **include_dirs; /* -I DIR, in order */
  int ninclude;
  const char **defines;      /* -D NAME[=VALUE], in order */
  int ndefine;
} fe_options;

/* Parse the kernel of the C file at `path`.  The kernel and everything it
 * points to are allocated in `arena` (owned by the caller).  On bad input
 * (unreadable, empty or binary file, syntax error, a construct outside the
 * subset, a missing or ambiguous kernel) prints a positioned diagnostic
 * (file:line:col: error: ..., the source line, a caret, what is supported
 * instead) to stderr and returns NULL; the caller exits with status 2.
 * Never prints partial output. */
ir_kernel *fe_parse_file(const char *path, const fe_options *opt,
                         ir_arena *arena);

#endif
