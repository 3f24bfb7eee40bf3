/*
 * ir.c - the counting allocator, arenas, diagnostics, source files and the
 * small helpers on types shared by every stage.
 *
 * The allocator counts live blocks so that tests can fail on leaks; the arena
 * is a list of large zeroed blocks handed out by bumping a pointer.
 */
#include "ir.h"

#include <math.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

void ir_unreachable(const char *file, int line) {
  fprintf(stderr, "uplift: internal error: unreachable code at %s:%d\n", file,
          line);
  abort();
}

void ir_assert_fail(const char *what, const char *file, int line) {
  fprintf(stderr, "uplift: internal error: assertion `%s' failed at %s:%d\n",
          what, file, line);
  abort();
}

/* ------------------------------------------------------------ allocator */

static long mem_live;

static void *oom(size_t n) {
  fprintf(stderr, "uplift: out of memory (allocating %zu bytes)\n", n);
  exit(IR_EXIT_NOT_RAISED);
}

void *ir_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) return oom(n);
  __atomic_add_fetch(&mem_live, 1, __ATOMIC_RELAXED);
  return p;
}

void *ir_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) return oom(count * size);
  __atomic_add_fetch(&mem_live, 1, __ATOMIC_RELAXED);
  return p;
}

void *ir_realloc(void *p, size_t n) {
  if (!p) return ir_malloc(n);
  void *q = realloc(p, n ? n : 1);
  if (!q) return oom(n);
  return q;
}

void ir_free(void *p) {
  if (!p) return;
  __atomic_sub_fetch(&mem_live, 1, __ATOMIC_RELAXED);
  free(p);
}

char *ir_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = ir_malloc(n);
  memcpy(d, s, n);
  return d;
}

long ir_mem_live(void) { return __atomic_load_n(&mem_live, __ATOMIC_RELAXED); }

/* ---------------------------------------------------------------- arena */

#define ARENA_BLOCK (64 * 1024)

struct ir_arena_block {
  ir_arena_block *next;
  size_t size, used;
  _Alignas(16) unsigned char data[];
};

void ir_arena_init(ir_arena *a) {
  a->head = NULL;
  a->used = 0;
}

void *ir_arena_alloc(ir_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  ir_arena_block *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = ir_calloc(1, sizeof *b + size);
    b->size = size;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  a->used += n;
  return p;
}

char *ir_arena_strndup(ir_arena *a, const char *s, size_t n) {
  char *d = ir_arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *ir_arena_strdup(ir_arena *a, const char *s) {
  return ir_arena_strndup(a, s, strlen(s));
}

char *ir_arena_printf(ir_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *d = ir_arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(d, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return d;
}

void ir_arena_free(ir_arena *a) {
  ir_arena_block *b = a->head;
  while (b) {
    ir_arena_block *next = b->next;
    ir_free(b);
    b = next;
  }
  a->head = NULL;
  a->used = 0;
}

/* ---------------------------------------------------------- diagnostics */

void ir_diag_verror(const ir_source *src, ir_pos pos, const char *supported,
                    const char *fmt, va_list ap) {
  const char *file = pos.file ? pos.file : (src ? src->name : "<input>");
  if (pos.line > 0)
    fprintf(stderr, "%s:%d:%d: error: ", file, pos.line, pos.col);
  else
    fprintf(stderr, "%s: error: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  int same = src && src->text &&
             (!pos.file || !src->name || strcmp(pos.file, src->name) == 0);
  if (same && pos.line > 0) {
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < pos.line && p < end; p++)
      if (*p == '\n') l++;
    if (p < end) {
      const char *e = p;
      while (e < end && *e != '\n') e++;
      fprintf(stderr, "  %.*s\n  ", (int)(e - p), p);
      for (int c = 1; c < pos.col && p + c - 1 < e; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', stderr);
      fputs("^\n", stderr);
    }
  }
  if (supported) fprintf(stderr, "note: supported: %s\n", supported);
}

void ir_diag_error(const ir_source *src, ir_pos pos, const char *supported,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_diag_verror(src, pos, supported, fmt, ap);
  va_end(ap);
}

int ir_tree_dir(const char *probe, const char *dir, char *out, size_t n) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return -1;
  exe[len] = 0;
  for (int up = 0; up < 4; up++) {
    char *slash = strrchr(exe, '/');
    if (!slash) break;
    *slash = 0;
    /* the source tree, then the installed layout (make install):
     * PREFIX/bin/uplift with its files in PREFIX/share/uplift */
    static const char *const roots[] = {"", "/share/uplift"};
    for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++) {
      char cand[PATH_MAX + 256];
      snprintf(cand, sizeof cand, "%s%s/%s", exe, roots[r], probe);
      if (access(cand, R_OK) == 0) {
        snprintf(out, n, "%s%s/%s", exe, roots[r], dir);
        return 0;
      }
    }
  }
  return -1;
}

int ir_source_read(ir_source *src, const char *path) {
  src->name = path;
  src->text = NULL;
  src->len = 0;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return -1;
  }
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  ir_buf b = {0};
  char chunk[65536];
  int big = 0;
  for (;;) {
    size_t got = fread(chunk, 1, sizeof chunk, f);
    ir_buf_add(&b, chunk, got);
    if (got == 0) break;
    if (b.n > IR_SOURCE_MAX) { /* /dev/zero, a huge file: stop early */
      big = 1;
      break;
    }
  }
  int err = ferror(f);
  fclose(f);
  if (err || big) {
    ir_buf_free(&b);
    errno = big ? EFBIG : err ? EIO : 0;
    return -1;
  }
  src->len = b.n;
  src->text = ir_buf_take(&b);
  return 0;
}

const char *ir_read_error(int err) {
  if (err == EISDIR) return "it is a directory";
  if (err == EFBIG) return "larger than the 64 MB limit";
  return strerror(err);
}

void ir_read_head(const char *path, char *buf, size_t n) {
  if (!n) return;
  buf[0] = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return;
  size_t got = fread(buf, 1, n - 1, f);
  buf[got] = 0;
  fclose(f);
}

void ir_source_free(ir_source *src) {
  ir_free((void *)src->text);
  src->text = NULL;
  src->len = 0;
}

/* -------------------------------------------------------------- types */

const char *ir_elem_c_name(ir_elem e) {
  switch (e) {
  case IR_F64: return "double";
  case IR_F32: return "float";
  case IR_I32: return "int";
  case IR_I1: return "_Bool";
  case IR_I64: return "long";
  case IR_I8: return "signed char";
  case IR_U8: return "unsigned char";
  case IR_I16: return "short";
  case IR_U16: return "unsigned short";
  case IR_U32: return "unsigned";
  case IR_U64: return "unsigned long";
  }
  UNREACHABLE();
}

const char *ir_elem_mlir_name(ir_elem e) {
  switch (e) {
  case IR_F64: return "f64";
  case IR_F32: return "f32";
  case IR_I32: return "i32";
  case IR_I1: return "i1";
  case IR_I64: return "i64";
  case IR_I8: return "i8";
  case IR_U8: return "ui8";
  case IR_I16: return "i16";
  case IR_U16: return "ui16";
  case IR_U32: return "ui32";
  case IR_U64: return "ui64";
  }
  UNREACHABLE();
}

const char *ir_elem_mlir_signless(ir_elem e) {
  const char *s = ir_elem_mlir_name(e);
  return s[0] == 'u' ? s + 1 : s;
}

int ir_elem_bits(ir_elem e) {
  switch (e) {
  case IR_F64: return 64;
  case IR_F32: return 32;
  case IR_I32: return 32;
  case IR_I1: return 1;
  case IR_I64: return 64;
  case IR_I8: case IR_U8: return 8;
  case IR_I16: case IR_U16: return 16;
  case IR_U32: return 32;
  case IR_U64: return 64;
  }
  UNREACHABLE();
}

int ir_elem_is_signed(ir_elem e) {
  return e == IR_I32 || e == IR_I64 || e == IR_I8 || e == IR_I16;
}

ir_elem ir_elem_int(int bits, int is_signed) {
  switch (bits) {
  case 8: return is_signed ? IR_I8 : IR_U8;
  case 16: return is_signed ? IR_I16 : IR_U16;
  case 32: return is_signed ? IR_I32 : IR_U32;
  default: return is_signed ? IR_I64 : IR_U64;
  }
}

ir_elem ir_elem_promote(ir_elem e) {
  if (e == IR_I1 || (ir_elem_is_int(e) && ir_elem_bits(e) < 32)) return IR_I32;
  return e;
}

ir_elem ir_elem_common(ir_elem a, ir_elem b) {
  if (a == IR_F64 || b == IR_F64) return IR_F64;
  if (a == IR_F32 || b == IR_F32) return IR_F32;
  a = ir_elem_promote(a);
  b = ir_elem_promote(b);
  if (a == b) return a;
  int wa = ir_elem_bits(a), wb = ir_elem_bits(b);
  int sa = ir_elem_is_signed(a), sb = ir_elem_is_signed(b);
  if (sa == sb) return wa >= wb ? a : b;
  /* one signed, one unsigned: the unsigned one unless the signed one is
   * wider (then it holds every value of the other), C11 6.3.1.8 */
  ir_elem u = sa ? b : a, s = sa ? a : b;
  int wu = ir_elem_bits(u), ws = ir_elem_bits(s);
  if (wu >= ws) return u;
  return s;
}

double ir_int_value(ir_elem e, uint64_t u) {
  if (ir_elem_is_signed(e)) {
    int64_t v = (int64_t)u;
    double d = (double)v;
    /* 2^63 is the only double that rounds out of int64's range */
    return d < 9223372036854775808.0 && (int64_t)d == v ? d : NAN;
  }
  double d = (double)u;
  return d < 18446744073709551616.0 && (uint64_t)d == u ? d : NAN;
}

/* The bits of finite v truncated toward 0, modulo 2^64. */
static uint64_t bits64(double v) {
  v = trunc(v);
  if (v >= 0)
    return v >= 18446744073709551616.0 ? (uint64_t)fmod(v, 18446744073709551616.0) : (uint64_t)v;
  return (uint64_t)0 - (uint64_t)fmod(-v, 18446744073709551616.0);
}

double ir_elem_wrap(ir_elem e, double v) {
  if (!ir_elem_is_int(e)) return v;
  if (!isfinite(v)) return NAN;
  int w = ir_elem_bits(e);
  uint64_t u = bits64(v);
  if (w < 64) u &= ((uint64_t)1 << w) - 1;
  if (ir_elem_is_signed(e) && w < 64 && (u >> (w - 1)) & 1) u |= ~(uint64_t)0 << w;
  return ir_int_value(e, u);
}

double ir_int_arith(ir_elem e, int op, double a, double b) {
  if (a != a || b != b) return NAN;
  int w = ir_elem_bits(e);
  if (!isfinite(a) || !isfinite(b)) return NAN;
  uint64_t ua = bits64(a), ub = bits64(b), r = 0; /* modulo 2^64 */
  uint64_t mask = w < 64 ? ((uint64_t)1 << w) - 1 : ~(uint64_t)0;
  int out = b < 0 || b >= w; /* a shift count out of range */
  switch (op) {
  case '+': r = ua + ub; break;
  case '-': r = ua - ub; break;
  case '*': r = ua * ub; break;
  case 'n': r = (uint64_t)0 - ua; break;
  case 'l': r = out ? 0 : ua << ub; break;
  case 'r': r = out ? 0 : (ua & mask) >> ub; break;
  default: { /* 'a': the value sign-extended from e's width, shifted */
    uint64_t sb = (uint64_t)1 << (w - 1);
    int64_t sa = (int64_t)(((ua & mask) ^ sb) - sb);
    r = (uint64_t)(out ? (sa < 0 ? -1 : 0) : sa >> ub);
    break;
  }
  }
  r &= mask;
  if (ir_elem_is_signed(e) && w < 64 && (r >> (w - 1)) & 1) r |= ~mask;
  return ir_int_value(e, r);
}

const char *ir_fn_name(ir_fn f) {
  switch (f) {
  case IR_FN_SQRT: return "sqrt";
  case IR_FN_EXP: return "exp";
  case IR_FN_POW: return "pow";
  case IR_FN_FABS: return "fabs";
  case IR_FN_FMAX: return "fmax";
  case IR_FN_FMIN: return "fmin";
  }
  UNREACHABLE();
}

int ir_type_equal(const ir_type *a, const ir_type *b) {
  if (a->elem != b->elem || a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

char *ir_type_str(const ir_type *t, const ir_kernel *k, char *buf, size_t n) {
  size_t at = (size_t)snprintf(buf, n, "%s[", ir_elem_mlir_name(t->elem));
  for (int i = 0; i < t->rank && at < n; i++) {
    const char *sep = i ? "," : "";
    if (t->dims[i] == IR_DIM_ONE)
      at += (size_t)snprintf(buf + at, n - at, "%s1", sep);
    else if (k && t->dims[i] >= 0 && t->dims[i] < k->nvars)
      at += (size_t)snprintf(buf + at, n - at, "%s%s", sep,
                             k->vars[t->dims[i]]->name);
    else
      at += (size_t)snprintf(buf + at, n - at, "%sd%d", sep, t->dims[i]);
  }
  if (at < n) snprintf(buf + at, n - at, "]");
  return buf;
}

/* ------------------------------------------------------- loop programs */

int ir_kernel_find_var(const ir_kernel *k, const char *name) {
  for (int i = 0; i < k->nvars; i++)
    if (strcmp(k->vars[i]->name, name) == 0) return i;
  return -1;
}

int ir_expr_equal(const ir_expr *a, const ir_expr *b) {
  if (a->kind != b->kind || a->nargs != b->nargs) return 0;
  switch (a->kind) {
  case IR_EX_CONST: if (a->value != b->value) return 0; break;
  case IR_EX_VAR: case IR_EX_ELEM: if (a->var != b->var) return 0; break;
  case IR_EX_CALL: if (a->fn != b->fn) return 0; break;
  case IR_EX_CAST: if (a->type != b->type) return 0; break;
  default: break;
  }
  for (int i = 0; i < a->nargs; i++)
    if (!ir_expr_equal(a->args[i], b->args[i])) return 0;
  return 1;
}

ir_assign_op ir_stmt_accumulation(const ir_stmt *s, const ir_expr **summand) {
  const ir_expr *r = s->rhs;
  *summand = r;
  if (s->op != IR_ASSIGN || (r->kind != IR_EX_ADD && r->kind != IR_EX_SUB)) return s->op;
  if (ir_expr_equal(r->args[0], s->lhs)) {
    *summand = r->args[1];
    return r->kind == IR_EX_ADD ? IR_ASSIGN_ADD : IR_ASSIGN_SUB;
  }
  if (r->kind == IR_EX_ADD && ir_expr_equal(r->args[1], s->lhs)) {
    *summand = r->args[0];
    return IR_ASSIGN_ADD;
  }
  return s->op;
}

int ir_expr_const_int(const ir_expr *e, long *v) {
  long a, b;
  switch (e->kind) {
  case IR_EX_CONST:
    if (!e->is_int && e->value != (double)(long)e->value) return 0;
    *v = (long)e->value;
    return 1;
  case IR_EX_NEG:
    if (!ir_expr_const_int(e->args[0], &a)) return 0;
    *v = -a;
    return 1;
  case IR_EX_CAST: return ir_expr_const_int(e->args[0], v);
  case IR_EX_ADD:
  case IR_EX_SUB:
  case IR_EX_MUL:
    if (!ir_expr_const_int(e->args[0], &a) || !ir_expr_const_int(e->args[1], &b)) return 0;
    *v = e->kind == IR_EX_ADD ? a + b : e->kind == IR_EX_SUB ? a - b : a * b;
    return 1;
  default: return 0;
  }
}

long ir_expr_eval_int(const ir_expr *e, const long *vals) {
  switch (e->kind) {
  case IR_EX_CONST: return (long)e->value;
  case IR_EX_VAR: return vals[e->var];
  case IR_EX_NEG: return -ir_expr_eval_int(e->args[0], vals);
  case IR_EX_ADD:
    return ir_expr_eval_int(e->args[0], vals) + ir_expr_eval_int(e->args[1], vals);
  case IR_EX_SUB:
    return ir_expr_eval_int(e->args[0], vals) - ir_expr_eval_int(e->args[1], vals);
  case IR_EX_MUL:
    return ir_expr_eval_int(e->args[0], vals) * ir_expr_eval_int(e->args[1], vals);
  case IR_EX_CAST: return ir_expr_eval_int(e->args[0], vals);
  case IR_EX_IMIN: {
    long a = ir_expr_eval_int(e->args[0], vals), b = ir_expr_eval_int(e->args[1], vals);
    return a < b ? a : b;
  }
  case IR_EX_IMAX: {
    long a = ir_expr_eval_int(e->args[0], vals), b = ir_expr_eval_int(e->args[1], vals);
    return a > b ? a : b;
  }
  default: UNREACHABLE();
  }
}

int ir_expr_affine(const ir_kernel *k, const ir_expr *e, long *coef, long *c0) {
  long *vals = ir_calloc((size_t)k->nvars + 1, sizeof(long));
  *c0 = ir_expr_eval_int(e, vals);
  long at3 = *c0;
  for (int v = 0; v < k->nvars; v++) {
    coef[v] = 0;
    if (k->vars[v]->kind != IR_VAR_SIZE && k->vars[v]->kind != IR_VAR_ITER) continue;
    vals[v] = 1;
    coef[v] = ir_expr_eval_int(e, vals) - *c0;
    vals[v] = 0;
    at3 += 3 * coef[v];
  }
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_SIZE || k->vars[v]->kind == IR_VAR_ITER) vals[v] = 3;
  int bad = ir_expr_eval_int(e, vals) != at3;
  ir_free(vals);
  return bad ? -1 : 0;
}

long ir_kernel_elements(const ir_kernel *k, const long *sizes, long max) {
  long total = 0;
  for (int v = 0; v < k->nvars && total <= max; v++) {
    const ir_var *iv = k->vars[v];
    if (iv->kind == IR_VAR_SIZE || iv->kind == IR_VAR_ITER || iv->kind == IR_VAR_EXTENT) continue;
    long n = 1;
    for (int d = 0; d < iv->rank; d++) {
      /* a view: its storage, or its region where sizes that break the
       * assumptions make that the larger (every stage holds the region) */
      long e = ir_expr_eval_int(iv->dims[d], sizes);
      if (ir_var_is_view(iv)) {
        long st = ir_expr_eval_int(iv->store[d], sizes);
        if (st > e) e = st;
      }
      if (e < 0) return -1;
      n = e && n > max / e ? max + 1 : n * e;
    }
    total += n;
  }
  return total;
}

/* ---------------------------------------------------- views, assumptions */

int ir_expr_reads(const ir_expr *e, int v) {
  if (!e) return 0;
  if ((e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) && e->var == v) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (ir_expr_reads(e->args[i], v)) return 1;
  return 0;
}

int ir_stmts_read(const ir_stmt *s, int v) {
  for (; s; s = s->next)
    if (ir_expr_reads(s->lo, v) || ir_expr_reads(s->hi, v) || ir_expr_reads(s->cond, v) ||
        ir_expr_reads(s->lhs, v) || ir_expr_reads(s->rhs, v) || ir_stmts_read(s->body, v) ||
        ir_stmts_read(s->then_body, v) || ir_stmts_read(s->else_body, v))
      return 1;
  return 0;
}

static int stmts_write(const ir_stmt *s, int v) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN && s->lhs->kind == IR_EX_ELEM && s->lhs->var == v) return 1;
    if (s->kind == IR_ST_FOR && stmts_write(s->body, v)) return 1;
    if (s->kind == IR_ST_IF && (stmts_write(s->then_body, v) || stmts_write(s->else_body, v)))
      return 1;
  }
  return 0;
}

int ir_kernel_writes(const ir_kernel *k, int v) { return stmts_write(k->body, v); }

/* Is v an operand of k that a caller's pointer can reach: an array
 * parameter or a file-scope array (not the returned value's array, a
 * local of the emitted code)? */
static int caller_array(const ir_kernel *k, int v) {
  const ir_var *x = k->vars[v];
  if (x->kind != IR_VAR_ARRAY || x->rank == 0) return 0;
  if (x->param_index < 0 && !x->global) return 0; /* a kept loop's slice: a copy */
  return !(k->returns && k->params[k->nparams - 1] == v);
}

int ir_kernel_no_overlap(const ir_kernel *k, int a, int b) {
  if (a == b || !caller_array(k, a) || !caller_array(k, b)) return 0;
  const ir_var *x = k->vars[a], *y = k->vars[b];
  if ((x->global && y->global) || x->restricted || y->restricted) return 0;
  return ir_kernel_writes(k, a) || ir_kernel_writes(k, b);
}

int ir_kernel_assumes_hold(const ir_kernel *k, const long *sizes, char *msg, size_t n) {
  for (int i = 0; i < k->nassumes; i++) {
    const ir_assume *a = &k->assumes[i];
    if (ir_expr_eval_int(a->lo, sizes) <= ir_expr_eval_int(a->hi, sizes)) continue;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
      ir_assume_print(k, a, f);
      fputs(" does not hold (", f);
      int any = 0; /* the sizes it reads, in variable order */
      long *probe = ir_calloc((size_t)k->nvars + 1, sizeof *probe);
      for (int v = 0; v < k->nvars; v++) {
        if (k->vars[v]->kind != IR_VAR_SIZE) continue;
        probe[v] = 1;
        long l1 = ir_expr_eval_int(a->lo, probe), h1 = ir_expr_eval_int(a->hi, probe);
        probe[v] = 0;
        int reads = l1 != ir_expr_eval_int(a->lo, probe) || h1 != ir_expr_eval_int(a->hi, probe);
        if (reads) fprintf(f, "%s%s=%ld", any++ ? ", " : "", k->vars[v]->name, sizes[v]);
      }
      ir_free(probe);
      fputc(')', f);
      fclose(f);
    }
    snprintf(msg, n, "%s", text ? text : "an assumption on the sizes does not hold");
    free(text);
    return 0;
  }
  return 1;
}

void ir_kernel_pin_extents(const ir_kernel *k, long *sizes) {
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_EXTENT) sizes[v] = k->vars[v]->value;
}

void ir_kernel_pin_constants(const ir_kernel *k, long *sizes) {
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_EXTENT || k->vars[v]->pinned) sizes[v] = k->vars[v]->value;
}

int ir_kernel_extent_var(const ir_kernel *k, long c) {
  for (int v = 0; v < k->nvars; v++)
    if (k->vars[v]->kind == IR_VAR_EXTENT && k->vars[v]->value == c) return v;
  return -1;
}

/* One pass of ir_kernel_fit_sizes over k's assumptions; 1 if a size
 * moved. */
static int fit_once(const ir_kernel *k, long *sizes, long *probe) {
  int moved = 0;
  for (int i = 0; i < k->nassumes; i++) {
    const ir_assume *a = &k->assumes[i];
    long gap = ir_expr_eval_int(a->lo, sizes) - ir_expr_eval_int(a->hi, sizes);
    if (gap <= 0) continue;
    /* one size with coefficient c > 0 in hi that lo does not read */
    for (int v = 0; v < k->nvars && gap > 0; v++) {
      if (k->vars[v]->kind != IR_VAR_SIZE) continue;
      probe[v] = 1;
      long c = ir_expr_eval_int(a->hi, probe), l = ir_expr_eval_int(a->lo, probe);
      probe[v] = 0;
      c -= ir_expr_eval_int(a->hi, probe);
      l -= ir_expr_eval_int(a->lo, probe);
      if (c <= 0 || l != 0) continue;
      sizes[v] += (gap + c - 1) / c;
      gap = 0;
      moved = 1;
    }
  }
  return moved;
}

void ir_kernel_fit_sizes(const ir_kernel *k, long *sizes) {
  ir_kernel_pin_extents(k, sizes);
  long *probe = ir_calloc((size_t)k->nvars + 1, sizeof *probe);
  /* a size raised for one assumption may break an earlier one (nested
   * kept loops: j <= i - 1 raises i past i <= n - 1): passes until none
   * moves, at most one a link of the chain */
  for (int pass = 0; pass <= k->nassumes && fit_once(k, sizes, probe); pass++) continue;
  ir_free(probe);
}

size_t ir_var_store_size(const ir_var *v, const long *sizes) {
  size_t n = 1;
  for (int d = 0; d < v->rank; d++) {
    long e = ir_expr_eval_int(ir_var_is_view(v) ? v->store[d] : v->dims[d], sizes);
    n *= e > 0 ? (size_t)e : 0;
  }
  return n;
}

size_t ir_var_store_offset(const ir_var *v, const long *sizes, size_t i) {
  if (!ir_var_is_view(v)) return i;
  size_t off = 0, stride = 1;
  for (int d = v->rank - 1; d >= 0; d--) {
    size_t e = (size_t)ir_expr_eval_int(v->dims[d], sizes);
    size_t idx = e ? i % e : 0;
    i = e ? i / e : 0;
    long st = ir_expr_eval_int(v->store[d], sizes);
    if ((long)idx >= st) return IR_NO_STORE; /* past a padded storage */
    off += idx * stride;
    stride *= (size_t)st;
  }
  return off;
}

static int walk(const ir_stmt *s, const ir_stmt **loops, int depth, int cap,
                ir_assign_fn f, void *user) {
  for (; s; s = s->next) {
    int r = 0;
    switch (s->kind) {
    case IR_ST_FOR:
      if (depth == cap) UNREACHABLE();
      loops[depth] = s;
      r = walk(s->body, loops, depth + 1, cap, f, user);
      break;
    case IR_ST_IF:
      r = walk(s->then_body, loops, depth, cap, f, user);
      if (!r) r = walk(s->else_body, loops, depth, cap, f, user);
      break;
    case IR_ST_ASSIGN: r = f(s, (const ir_stmt *const *)loops, depth, user); break;
    }
    if (r) return r;
  }
  return 0;
}

int ir_kernel_walk_assigns(const ir_kernel *k, ir_assign_fn f, void *user) {
  const ir_stmt *loops[64];
  return walk(k->body, loops, 0, 64, f, user);
}

size_t ir_tensor_size(const ir_tensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= (size_t)t->dims[i];
  return n;
}

void ir_unravel(size_t i, int rank, const long *dims, long *idx) {
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = (long)(i % (size_t)dims[d]);
    i /= (size_t)dims[d];
  }
}
