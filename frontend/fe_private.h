/*
 * fe_private.h - what the files of frontend/ share with each other (not a
 * public header: nothing outside frontend/ includes it).
 *
 * pp.c runs the system C preprocessor and turns its output into tokens whose
 * positions point back into the user's original file; parse.c finds the
 * kernel function among those tokens and parses it into an ir_kernel.
 */
#ifndef UPLIFT_FE_PRIVATE_H
#define UPLIFT_FE_PRIVATE_H

#include "frontend/frontend.h"

typedef enum fe_tok_kind {
  FE_TK_IDENT, /* kernel_gemm, double, for */
  FE_TK_NUM,   /* 42, 1.5, 0.1f: a preprocessing number */
  FE_TK_STR,   /* "text" */
  FE_TK_CHAR,  /* 'c' */
  FE_TK_PUNCT, /* + += [ ... */
  FE_TK_EOF    /* end of the token list */
} fe_tok_kind;

typedef struct fe_tok {
  fe_tok_kind kind;
  const char *text; /* NUL-terminated spelling (arena) */
  int len;
  ir_pos pos;       /* in the user's original file when in_main */
  int in_main;      /* comes from the user's file (not from a header) */
} fe_tok;

/* Run `cc -E` on `path` with the front-end options (see frontend.h).  On
 * success returns 0 and sets *out to the preprocessed text (ir_malloc'd,
 * owned by the caller) and *main_name to the file name cc uses for the main
 * file in its line markers (ir_malloc'd, owned by the caller).  On failure
 * prints cc's diagnostics (or why cc could not run) and returns -1. */
int fe_preprocess(const char *path, const fe_options *opt, char **out,
                  char **main_name);

/* Split preprocessed text into tokens (allocated in `a`), terminated by one
 * FE_TK_EOF token; *ntok counts the tokens without the EOF.  Line markers
 * give each token its file and line; tokens of the main file (`main_name`)
 * get the user's name src->name as file and a column found by matching
 * their spelling against the tokens of the original text src->text (tokens
 * produced by a macro expansion take the column of the macro use).
 * #pragma and other directive lines are dropped. */
fe_tok *fe_tokenize(const char *pp, const char *main_name,
                    const ir_source *src, ir_arena *a, int *ntok);

/* Parse the kernel from text `pp` that the preprocessor already produced
 * for source src (src->name names the file in diagnostics; main_name is the
 * name cc's line markers give the main file, and text before any marker
 * counts as the main file).  The rest as fe_parse_file; src and pp stay
 * the caller's.  fe_parse_file is this after reading and preprocessing;
 * the fuzz harness calls it directly to skip the preprocessor. */
ir_kernel *fe_parse_preprocessed(const ir_source *src, const char *pp,
                                 const char *main_name, const fe_options *opt,
                                 ir_arena *arena);

#endif
