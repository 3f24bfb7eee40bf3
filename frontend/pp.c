/*
 * pp.c - preprocessing and tokens.
 *
 * fe_preprocess runs the system C preprocessor directly (ir_run: fork +
 * execvp of `cc -E`, no shell, so a file name cannot inject anything) and
 * collects its standard output and error.  The include path is the
 * user's -I directories, then uplift's own frontend/include (found relative
 * to the running executable: ./uplift, build-san/uplift and build/tests/x
 * all sit at most two levels below the source tree).
 *
 * fe_tokenize splits cc's output into tokens.  Line markers (# 12 "f.c")
 * give every token its file and line.  cc does not keep columns, so the
 * tokens of the user's file are matched, in order, against the tokens of
 * the original text: a token whose spelling is the next original token
 * takes its column; a token that is not (it came from a macro expansion)
 * takes the column of the macro name, until the token after the macro use
 * (and its parenthesized arguments) shows up again.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend/fe_private.h"

/* ------------------------------------------------------ preprocessing */

/* Print cc's diagnostics in uplift's form: "fatal error:" becomes "error:",
 * "compilation terminated." is dropped. */
static void print_cc_messages(const char *text) {
  const char *p = text;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (!(n == 23 && !strncmp(p, "compilation terminated.", 23))) {
      const char *f = memmem(p, n, ": fatal error: ", 15);
      if (f) {
        fprintf(stderr, "%.*s: error: %.*s\n", (int)(f - p), p,
                (int)(n - (size_t)(f - p) - 15), f + 15);
      } else {
        fprintf(stderr, "%.*s\n", (int)n, p);
      }
    }
    p += n + (e ? 1 : 0);
  }
}

/* cc rejects -ftrack-macro-expansion=0 (clang): set once it did. */
static int no_track_flag;

int fe_preprocess(const char *path, const fe_options *opt, char **out,
                  char **main_name) {
  *out = NULL;
  *main_name = NULL;
  int nopt = opt ? opt->ninclude + opt->ndefine : 0;
  const char **argv = ir_calloc((size_t)(2 * nopt + 16), sizeof *argv);
  int ac = 0;
  argv[ac++] = "cc";
  argv[ac++] = "-E";
  argv[ac++] = "-fdiagnostics-color=never";
  argv[ac++] = "-x";
  argv[ac++] = "c";
  argv[ac++] = "-DPOLYBENCH_USE_C99_PROTO";
  for (int i = 0; opt && i < opt->ninclude; i++) {
    argv[ac++] = "-I";
    argv[ac++] = opt->include_dirs[i];
  }
  for (int i = 0; opt && i < opt->ndefine; i++) {
    argv[ac++] = "-D";
    argv[ac++] = opt->defines[i];
  }
  const char *inc = ir_include_dir();
  if (inc) {
    argv[ac++] = "-I";
    argv[ac++] = inc;
  }
  /* A name starting with '-' would be read as an option. */
  char *file = ir_malloc(strlen(path) + 3);
  sprintf(file, "%s%s", path[0] == '-' ? "./" : "", path);
  argv[ac++] = file;
  /* gcc's record of every macro expansion's locations makes a macro that
   * doubles its text 20 times take seconds and gigabytes inside cc;
   * without it cc streams the expansion, and the output cap below stops it */
  int track = ac;
  argv[ac++] = "-ftrack-macro-expansion=0";
  argv[ac] = NULL;
  if (no_track_flag) argv[track] = NULL;

  /* no shell (ir_run: fork + execvp), so a file name cannot inject anything;
   * the preprocessed text has the same 64 MB limit as the source (a macro
   * that doubles its expansion 30 times would write gigabytes) */
  static const char *const env[] = {"LC_ALL=C", NULL};
  ir_run_opts ro = {.env = env, .max_out = (size_t)IR_SOURCE_MAX};
  ir_run_result res;
  int rc = -1;
  int ok = ir_run(argv, &ro, &res) == 0;
  if (!ok && argv[track] && res.err.n && strstr(res.err.s, "-ftrack-macro-expansion")) {
    no_track_flag = 1;
    argv[track] = NULL;
    ir_run_result_free(&res);
    ok = ir_run(argv, &ro, &res) == 0;
  }
  ir_error err;
  ir_pos at = {path, 0, 0};
  if (res.too_large) {
    ir_error_set(&err, at, IR_ERR_INPUT,
                 "the preprocessed text is larger than the %ld MB limit "
                 "(a macro that expands too far?)",
                 (long)(IR_SOURCE_MAX >> 20));
    ir_error_print(&err, NULL);
  } else if (res.err.n)
    print_cc_messages(res.err.s);
  if (!res.started) {
    ir_error_set(&err, at, IR_ERR_TOOL, "cannot run the C preprocessor");
    ir_error_print(&err, NULL);
  } else if (!ok && !res.err.n && !res.too_large) {
    ir_error_set(&err, at, IR_ERR_TOOL, "the C preprocessor failed");
    ir_error_print(&err, NULL);
  }
  if (ok) {
    *out = ir_buf_take(&res.out);
    *main_name = ir_strdup(file);
    rc = 0;
  }
  ir_run_result_free(&res);
  ir_free(file);
  ir_free(argv);
  return rc;
}

/* --------------------------------------------------------------- tokens */

static int is_ident_start(int c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '$';
}
static int is_ident_char(int c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||",  "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=",
    "##"};

/* Length and kind of the token at p (p is not a space); 0 at end of text. */
static int lex_one(const char *p, fe_tok_kind *kind) {
  const char *s = p;
  if (!*p) return 0;
  if (is_ident_start((unsigned char)*p)) {
    while (is_ident_char((unsigned char)*p)) p++;
    *kind = FE_TK_IDENT;
    return (int)(p - s);
  }
  if (is_digit((unsigned char)*p) || (*p == '.' && is_digit((unsigned char)p[1]))) {
    p++;
    for (;;) {
      if ((*p == 'e' || *p == 'E' || *p == 'p' || *p == 'P') &&
          (p[1] == '+' || p[1] == '-'))
        p += 2;
      else if (is_ident_char((unsigned char)*p) || *p == '.')
        p++;
      else
        break;
    }
    *kind = FE_TK_NUM;
    return (int)(p - s);
  }
  if (*p == '"' || *p == '\'') {
    char q = *p++;
    while (*p && *p != q && *p != '\n') {
      if (*p == '\\' && p[1]) p++;
      p++;
    }
    if (*p == q) p++;
    *kind = q == '"' ? FE_TK_STR : FE_TK_CHAR;
    return (int)(p - s);
  }
  *kind = FE_TK_PUNCT;
  for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
    size_t n = strlen(puncts[i]);
    if (!strncmp(p, puncts[i], n)) return (int)n;
  }
  return 1;
}

/* A token of the original file, for column matching. */
typedef struct otok {
  const char *p;
  int len, line, col;
  fe_tok_kind kind;
} otok;

/* The walk both token loops share: over the user's original text (which
 * may hold comments and backslash-newline continuations) or over cc's
 * output (which holds neither).  p is the cursor, line its line and
 * line_start where that line begins; bol: nothing but blanks so far on
 * the line, so a '#' there starts a directive. */
typedef struct scanner {
  const char *p, *line_start;
  int line, bol;
  int original; /* skip comments and line continuations */
} scanner;

static scanner scanner_init(const char *text, int original) {
  return (scanner){text, text, 1, 1, original};
}

/* Skip blanks, newlines (and, in the original text, comments and line
 * continuations).  Returns 0 at the end of the text, '#' when s->p is at
 * a directive's '#' (the caller skips the line), or 1 when s->p is at a
 * token (then bol is cleared). */
static int scanner_next(scanner *s) {
  const char *p = s->p;
  int r = 0;
  while (*p) {
    if (*p == '\n') {
      p++;
      s->line++;
      s->line_start = p;
      s->bol = 1;
    } else if (s->original && *p == '\\' && p[1] == '\n') {
      p += 2;
      s->line++;
      s->line_start = p;
    } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
      p++;
    } else if (s->original && p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
    } else if (s->original && p[0] == '/' && p[1] == '*') {
      p += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') {
          s->line++;
          s->line_start = p + 1;
        }
        p++;
      }
      if (*p) p += 2;
    } else if (s->bol && *p == '#') {
      r = '#';
      break;
    } else {
      s->bol = 0;
      r = 1;
      break;
    }
  }
  s->p = p;
  return r;
}

/* Move past the rest of a directive line (to its newline).  In the
 * original text a backslash-newline continues the directive. */
static void scanner_skip_line(scanner *s) {
  const char *p = s->p;
  while (*p && *p != '\n') {
    if (s->original && *p == '\\' && p[1] == '\n') {
      p++;
      s->line++;
    }
    p++;
  }
  s->p = p;
}

/* Tokens of the original text: comments, directive lines and line
 * continuations are skipped.  Returns a heap array. */
static otok *lex_original(const char *text, int *n) {
  int cap = 256, cnt = 0;
  otok *v = ir_malloc(sizeof *v * (size_t)cap);
  scanner s = scanner_init(text, 1);
  int at;
  while ((at = scanner_next(&s))) {
    if (at == '#') {
      scanner_skip_line(&s);
      continue;
    }
    fe_tok_kind kind;
    int len = lex_one(s.p, &kind);
    if (cnt == cap) v = ir_realloc(v, sizeof *v * (size_t)(cap *= 2));
    v[cnt++] = (otok){s.p, len, s.line, (int)(s.p - s.line_start) + 1, kind};
    s.p += len;
  }
  *n = cnt;
  return v;
}

/* Matching state of the main file's tokens against the original ones. */
typedef struct matcher {
  otok *o;
  int n, c;       /* original tokens, cursor */
  int in_exp;     /* inside a macro expansion */
  int exp_end;    /* index of the original token after the macro use */
  int exp_line, exp_col;
  int exp_pp_line; /* line of cc's output the expansion is on */
} matcher;

static int same(const otok *o, const char *s, int len) {
  return o->len == len && !memcmp(o->p, s, (size_t)len);
}

/* The index after the macro use starting at original token i. */
static int macro_end(const matcher *m, int i) {
  int j = i + 1;
  if (j < m->n && same(&m->o[j], "(", 1)) {
    int depth = 0;
    for (; j < m->n; j++) {
      if (same(&m->o[j], "(", 1)) depth++;
      if (same(&m->o[j], ")", 1) && --depth == 0) return j + 1;
    }
  }
  return j;
}

static void match_pos(matcher *m, const char *s, int len, int line, int *col,
                      int *oline) {
  *oline = line;
  if (m->in_exp) {
    if (line != m->exp_pp_line) { /* cc writes an expansion on one line */
      m->in_exp = 0;
      if (m->c < m->exp_end) m->c = m->exp_end;
    } else if (m->exp_end < m->n && same(&m->o[m->exp_end], s, len)) {
      m->in_exp = 0;
      m->c = m->exp_end;
    } else {
      int next = m->exp_end;
      if (next < m->n && m->o[next].kind == FE_TK_IDENT) {
        /* a second macro use right after the first one: move to it when
         * the token is one of its arguments */
        int end = macro_end(m, next);
        for (int j = next + 1; j < end; j++)
          if (same(&m->o[j], s, len)) {
            m->exp_end = end;
            m->exp_line = m->o[next].line;
            m->exp_col = m->o[next].col;
            break;
          }
      }
      *col = m->exp_col;
      *oline = m->exp_line;
      return;
    }
  }
  while (m->c < m->n && m->o[m->c].line < line) m->c++;
  if (m->c >= m->n) return;
  otok *o = &m->o[m->c];
  if (same(o, s, len) && o->line == line) {
    *col = o->col;
    m->c++;
    return;
  }
  if (o->kind == FE_TK_IDENT && o->line <= line) {
    int end = macro_end(m, m->c);
    if (end < m->n && same(&m->o[end], s, len)) { /* empty expansion */
      m->c = end + 1;
      *col = m->o[end].col;
      *oline = m->o[end].line;
      return;
    }
    m->in_exp = 1;
    m->exp_pp_line = line;
    m->exp_end = end;
    m->exp_line = o->line;
    m->exp_col = o->col;
    *col = o->col;
    *oline = o->line;
    return;
  }
  if (o->line == line) *col = o->col;
}

#define FE_MAX_LINE (1L << 30) /* a line marker's number is saturated here */

/* Parse a line marker `# 12 "name" flags` (p after the '#'); returns 1 and
 * sets *line and the name (heap) when it is one. */
static int line_marker(const char *p, int *line, char **name) {
  while (*p == ' ' || *p == '\t') p++;
  if (!strncmp(p, "line", 4)) p += 4;
  while (*p == ' ' || *p == '\t') p++;
  if (!is_digit((unsigned char)*p)) return 0;
  /* saturated at FE_MAX_LINE: C allows up to 2147483647, and the lines
   * after the marker count on from it (a 64 MB source cannot pass 2^30) */
  long v = 0;
  for (; is_digit((unsigned char)*p); p++)
    if ((v = v * 10 + (*p - '0')) > FE_MAX_LINE) v = FE_MAX_LINE;
  *line = (int)v;
  while (*p == ' ' || *p == '\t') p++;
  if (*p != '"') return 0;
  p++;
  ir_buf b = {0};
  while (*p && *p != '"' && *p != '\n') {
    if (*p == '\\' && p[1] && p[1] != '\n') {
      p++;
      if (is_digit((unsigned char)*p)) { /* octal escape */
        int v = 0;
        for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++) v = v * 8 + (*p++ - '0');
        char c = (char)v;
        ir_buf_add(&b, &c, 1);
        continue;
      }
    }
    ir_buf_add(&b, p, 1);
    p++;
  }
  *name = ir_buf_take(&b);
  return 1;
}

fe_tok *fe_tokenize(const char *pp, const char *main_name,
                    const ir_source *src, ir_arena *a, int *ntok) {
  matcher m = {0};
  m.o = lex_original(src->text, &m.n);
  int cap = 1024, n = 0;
  fe_tok *v = ir_malloc(sizeof *v * (size_t)cap);
  const char *file = src->name; /* current file name (arena or src) */
  int in_main = 1;
  scanner s = scanner_init(pp, 0);
  int last_line = 1, last_col = 1;
  int at;
  while ((at = scanner_next(&s))) {
    if (at == '#') {
      int l;
      char *name;
      if (line_marker(s.p + 1, &l, &name)) {
        in_main = strcmp(name, main_name) == 0;
        file = in_main ? src->name : ir_arena_strdup(a, name);
        ir_free(name);
        s.line = l - 1; /* the marker's own newline moves to line l */
      }
      scanner_skip_line(&s);
      continue;
    }
    const char *p = s.p;
    fe_tok_kind kind;
    int len = lex_one(p, &kind);
    if (n + 1 >= cap) v = ir_realloc(v, sizeof *v * (size_t)(cap *= 2));
    fe_tok *t = &v[n++];
    t->kind = kind;
    t->text = ir_arena_strndup(a, p, (size_t)len);
    t->len = len;
    t->in_main = in_main;
    t->pos.file = file;
    t->pos.line = s.line;
    t->pos.col = (int)(p - s.line_start) + 1;
    if (in_main) {
      int col = 1, oline = s.line;
      match_pos(&m, p, len, s.line, &col, &oline);
      t->pos.col = col;
      t->pos.line = oline;
      last_line = oline;
      last_col = col + len;
    }
    s.p += len;
  }
  fe_tok *out = IR_NEW_N(a, fe_tok, n + 1);
  memcpy(out, v, sizeof *v * (size_t)n);
  out[n] = (fe_tok){FE_TK_EOF, "end of file", 0,
                    {src->name, last_line, last_col}, 1};
  ir_free(v);
  ir_free(m.o);
  *ntok = n;
  return out;
}
