/* test_frontend.c - the C front end: source snippets written to temporary
 * files, parsed with fe_parse_file, and checked for the loop program's
 * structure (loops, assignments, bounds, types, variable kinds), first as a
 * table of counts and dump substrings, then case by case for the details. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "frontend/frontend.h"
#include "tests/harness.h"

static char dir[] = "/tmp/uplift-fe-XXXXXX";

static const char *write_src(const char *name, const char *text) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return path;
}

static ir_kernel *parse(const char *text, ir_arena *a) {
  const char *path = write_src("k.c", text);
  return path ? fe_parse_file(path, NULL, a) : NULL;
}

/* Parse with stderr silenced (for inputs that must be rejected). */
static ir_kernel *parse_quiet(const char *text, ir_arena *a) {
  fflush(stderr);
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  ir_kernel *k = parse(text, a);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(null);
  return k;
}

static void count(const ir_stmt *s, int *nfor, int *nif, int *nassign) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_FOR) {
      (*nfor)++;
      count(s->body, nfor, nif, nassign);
    } else if (s->kind == IR_ST_IF) {
      (*nif)++;
      count(s->then_body, nfor, nif, nassign);
      count(s->else_body, nfor, nif, nassign);
    } else {
      (*nassign)++;
    }
  }
}

static char *dump(const ir_kernel *k) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  ir_kernel_dump(k, f);
  fclose(f);
  return s;
}

typedef struct fcase {
  const char *name;
  const char *src;
  int nfor, nif, nassign;
  const char *dump[5]; /* substrings the dump must contain */
} fcase;

static const fcase cases[] = {
    {"gemm",
     "void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,\n"
     "  double C[ni][nj], double A[ni][nk], double B[nk][nj]) {\n"
     "  int i, j, k;\n"
     "#pragma scop\n"
     "  for (i = 0; i < ni; i++) {\n"
     "    for (j = 0; j < nj; j++) C[i][j] *= beta;\n"
     "    for (k = 0; k < nk; k++)\n"
     "      for (j = 0; j < nj; j++) C[i][j] += alpha * A[i][k] * B[k][j];\n"
     "  }\n"
     "#pragma endscop\n"
     "}\n",
     4, 0, 2,
     {"for (i = 0; i <= ni - 1; i++)", "S0: C[i][j] *= beta;",
      "S1: C[i][j] += alpha * A[i][k] * B[k][j];",
      "double C[ni][nj], double A[ni][nk]"}},
    {"c99 for-int, ++i, <=, x = x + e",
     "void kernel_k(int n, float A[n][n], float x[n]) {\n"
     "  for (int i = 0; i <= n - 1; ++i)\n"
     "    for (int j = 0; j < n; j += 1)\n"
     "      x[i] = x[i] + A[i][j];\n"
     "}\n",
     2, 0, 1, {"S0: x[i] = x[i] + A[i][j];", "float A[n][n]"}},
    {"downward loop",
     "void kernel_k(int n, double y[n]) {\n"
     "  for (int i = n - 1; i >= 0; i--) y[i] = 2.0 * y[i];\n"
     "}\n",
     1, 0, 1, {"for (i = n - 1; i >= 0; i--)"}},
    {"&& bounds",
     "void kernel_k(int n, int m, double A[n]) {\n"
     "  for (int i = 0; i < n && i < m; i = i + 1) A[i] = 0;\n"
     "}\n",
     1, 0, 1, {"i <= min(n - 1, m - 1)"}},
    {"triangular and polybench padding",
     "void kernel_k(int n, double A[n + 0][n + 0]) {\n"
     "  for (int i = 0; i < n; i++)\n"
     "    for (int j = i + 1; j < n; j++) A[i][j] = A[j][i];\n"
     "}\n",
     2, 0, 1, {"double A[n][n]", "for (j = i + 1; j <= n - 1; j++)"}},
    {"if/else on one place with a data condition becomes a select; ternary",
     "#include <math.h>\n"
     "void kernel_k(int n, double eps, double s[n]) {\n"
     "  for (int j = 0; j < n; j++) {\n"
     "    if (s[j] <= eps) s[j] = 1.0; else s[j] = sqrt(s[j]);\n"
     "    s[j] = s[j] > 2.0 ? fmax(s[j], eps) : -s[j];\n"
     "  }\n"
     "}\n",
     1, 0, 2, {"S0: s[j] = s[j] <= eps ? 1.0 : sqrt(s[j]);", "S1: s[j] = s[j] > 2.0 ? fmax(s[j], eps)"}},
    {"if/else on two places stays an if",
     "#include <math.h>\n"
     "void kernel_k(int n, double eps, double s[n], double t[n]) {\n"
     "  for (int j = 0; j < n; j++) {\n"
     "    if (s[j] <= eps) s[j] = 1.0; else t[j] = sqrt(s[j]);\n"
     "  }\n"
     "}\n",
     1, 1, 2, {"if (s[j] <= eps)", "} else {", "t[j] = sqrt(s[j]);"}},
    {"local scalars and statements outside loops",
     "void kernel_k(int n, double A[n], double out[1]) {\n"
     "  double acc = 0.0;\n"
     "  out[0] = 0;\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    double t;\n"
     "    t = A[i] * A[i];\n"
     "    acc += t;\n"
     "  }\n"
     "  out[0] = acc;\n"
     "}\n",
     1, 0, 5, {"double acc;", "double t;", "S0: acc = 0.0;", "S4: out[0] = acc;"}},
    {"polybench-style macros",
     "#include <polybench.h>\n"
     "#define N 10\n"
     "#define _PB_N POLYBENCH_LOOP_BOUND(N, n)\n"
     "static void kernel_k(int n, DATA_TYPE POLYBENCH_1D(x, N, n)) {\n"
     "  int i;\n"
     "  for (i = 0; i < _PB_N; i++) x[i] = SQRT_FUN(SCALAR_VAL(1.5));\n"
     "}\n"
     "int main(void) { int n = 3; while (n) n--; return 0; }\n",
     1, 0, 1, {"double x[n]", "S0: x[i] = sqrt(1.5);"}},
    {"local array and several declarators",
     "void kernel_k(int n, int m, double A[n][m]) {\n"
     "  double tmp[n], a = 1.0, b;\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    tmp[i] = 0;\n"
     "    for (int j = 0; j < m; j++) tmp[i] += a * A[i][j];\n"
     "    b = tmp[i];\n"
     "    A[i][0] = b;\n"
     "  }\n"
     "}\n",
     2, 0, 5, {"double tmp[n];", "double a;", "double b;"}},
    {"lower bound from the condition (IMAX), return at the end",
     "void kernel_k(int n, int m, double A[n]) {\n"
     "  for (int i = 0; i < n && i >= m; i++) A[i] = 0;\n"
     "  return;\n"
     "}\n",
     1, 0, 1, {"for (i = max(0, m); i <= n - 1; i++)"}},
    {"no kernel_*: the only function with loops; sizes after arrays",
     "static float sq(float v) { return v * v; }\n"
     "void scale(float *y, const float *restrict x, float a, int n) {\n"
     "  for (int i = 0; i < n; i++) y[i] = a * x[i];\n"
     "}\n",
     1, 0, 1, {"void scale(float *y /* [n] */, float *x /* [n] */, float a, int n)", "y[i] = a * x[i]"}},
    {"typedefs, size_t, uint32_t sizes and iterators",
     "#include <stddef.h>\n#include <stdint.h>\ntypedef double real_t;\n"
     "void kernel_t(size_t n, uint32_t m, real_t A[n][m]) {\n"
     "  for (size_t i = 0; i < n; i++)\n"
     "    for (uint32_t j = 0; j < m; j++) A[i][j] = 0;\n"
     "}\n",
     2, 0, 1, {"void kernel_t(int n, int m, double A[n][m])", "A[i][j] = 0"}},
    {"flat subscripts delinearized, one row length per pointer",
     "void kernel_g(int m, int n, int k, const float *a, const float *b, float *c) {\n"
     "  for (int i = 0; i < m; i++)\n"
     "    for (int j = 0; j < n; j++)\n"
     "      for (int p = 0; p < k; p++)\n"
     "        c[i * n + j] += a[i * k + p] * b[p * n + j];\n"
     "}\n",
     3, 0, 1, {"float a[m][k]", "float b[k][n]", "float c[m][n]",
               "c[i][j] += a[i][p] * b[p][j]"}},
    {"an int local standing for a row offset; x[0] and x[i] give x[n]",
     "void kernel_r(int m, int n, const double *x, const double *w, double *y) {\n"
     "  for (int i = 0; i < m; i++) {\n"
     "    int row = i * n;\n"
     "    y[i] = x[0];\n"
     "    for (int j = 0; j < n; j++) y[i] += w[row + j] * x[j];\n"
     "  }\n"
     "}\n",
     2, 0, 2, {"double x[n]", "double w[m][n]", "y[i] += w[i][j] * x[j]"}},
    {"counted while loop with pointer walks",
     "void kernel_w(const float *a, const float *b, float *d, unsigned cnt) {\n"
     "  unsigned blk = cnt;\n"
     "  while (blk > 0U) {\n"
     "    *d++ = *a++ + *b++;\n"
     "    blk--;\n"
     "  }\n"
     "}\n",
     1, 0, 1, {"float *a /* [cnt] */", "for (blk = 0; blk <= cnt - 1; blk++)",
               "d[blk] = a[blk] + b[blk]"}},
    {"while (n--) walk, then the pointer's offset moves on",
     "void kernel_w2(int n, const double *x, double *y) {\n"
     "  int c = n;\n"
     "  while (c--) *y++ = *x++;\n"
     "  y[0] = 1.0;\n"
     "}\n",
     1, 0, 2, {"double y[n + 1]", "y[c] = x[c]", "y[n] = 1.0"}},
    {"while (i < n) { ...; i++; } over an int local; chained assignment",
     "void kernel_w3(int n, double *a, double *b) {\n"
     "  int i = 0;\n"
     "  while (i < n) {\n"
     "    a[i] = b[i] = 0.5;\n"
     "    i++;\n"
     "  }\n"
     "}\n",
     1, 0, 2, {"for (i = 0; i <= n - 1; i++)", "b[i] = 0.5", "a[i] = b[i]"}},
    {"a returned value becomes the output ret",
     "static inline float vsum(const float *x, int n) {\n"
     "  float s = 0.0f;\n"
     "  for (int i = 0; i < n; i++) s += x[i];\n"
     "  return s / 2;\n"
     "}\n",
     1, 0, 3, {"float vsum(float *x /* [n] */, int n)", "float ret[1]; /* the returned value",
               "ret[0] = s / 2;"}},
    {"a conditional update of a local becomes a select; others stay ifs",
     "void kernel_m(int n, const double *x, const double *y, double *out) {\n"
     "  double m = (double)1.5L, t = 0;\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    if (x[i] > m) m = x[i];\n"
     "    if (x[i] > 0) t = y[i];\n"
     "    if (i > 2) t = x[i];\n"
     "  }\n"
     "  out[0] = m + t;\n"
     "}\n",
     1, 2, 6, {"m = 1.5;", "S2: m = x[i] > m ? x[i] : m;", "S3: t = y[i];", "S4: t = x[i];"}},
    {"a conditional update of an element that its condition reads becomes a "
     "select; INFINITY is an infinity; other element updates stay ifs",
     "#include <math.h>\n"
     "void kernel_m(int n, int m, float x[n][m], float mx[n], float y[n]) {\n"
     "  for (int i = 0; i < n; i++) {\n"
     "    mx[i] = -INFINITY;\n"
     "    for (int j = 0; j < m; j++) {\n"
     "      if (x[i][j] > mx[i]) mx[i] = x[i][j];\n"
     "      if (x[i][j] > 0) y[i] = x[i][j];\n"
     "    }\n"
     "  }\n"
     "}\n",
     2, 1, 3, {"S0: mx[i] = -inf", "S1: mx[i] = x[i][j] > mx[i] ? x[i][j] : mx[i];",
               "S2: y[i] = x[i][j];"}},
};

static void test_table(void) {
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const fcase *t = &cases[c];
    ir_arena a;
    ir_arena_init(&a);
    const char *path = write_src("k.c", t->src);
    ir_kernel *k = path ? fe_parse_file(path, NULL, &a) : NULL;
    CHECKF(k != NULL, "%s: parses", t->name);
    if (k) {
      int nfor = 0, nif = 0, nassign = 0;
      count(k->body, &nfor, &nif, &nassign);
      CHECKF(nfor == t->nfor, "%s: %d loops, want %d", t->name, nfor, t->nfor);
      CHECKF(nif == t->nif, "%s: %d ifs, want %d", t->name, nif, t->nif);
      CHECKF(nassign == t->nassign && k->nassign == t->nassign,
             "%s: %d assignments, want %d", t->name, nassign, t->nassign);
      for (int i = 0; i < k->nvars; i++)
        CHECKF(k->vars[i]->id == i, "%s: vars[%d]->id", t->name, i);
      char *d = dump(k);
      for (int i = 0; i < 5 && t->dump[i]; i++)
        CHECKF(strstr(d, t->dump[i]) != NULL, "%s: dump has '%s'\n%s", t->name,
               t->dump[i], d);
      free(d);
    }
    ir_arena_free(&a);
  }
}

static const ir_stmt *first(const ir_stmt *s, ir_stmt_kind kind) {
  for (; s; s = s->next) {
    if (s->kind == kind) return s;
    const ir_stmt *r = NULL;
    if (s->kind == IR_ST_FOR) r = first(s->body, kind);
    if (s->kind == IR_ST_IF) r = first(s->then_body, kind);
    if (r) return r;
  }
  return NULL;
}

/* gemm: parameters, kinds, bounds, ids, positions. */
static void details_gemm(ir_arena *a) {
  ir_kernel *k;
  k = parse(cases[0].src, a);
  CHECK("gemm parses", k != NULL);
  if (k) {
    CHECK("kernel name", !strcmp(k->name, "kernel_gemm"));
    CHECK("8 parameters", k->nparams == 8);
    int ni = ir_kernel_find_var(k, "ni"), al = ir_kernel_find_var(k, "alpha");
    int C = ir_kernel_find_var(k, "C"), i = ir_kernel_find_var(k, "i");
    CHECK("ni is a size parameter", ni >= 0 && k->vars[ni]->kind == IR_VAR_SIZE &&
                                        k->vars[ni]->elem == IR_I32);
    CHECK("alpha is a double scalar", al >= 0 && k->vars[al]->kind == IR_VAR_SCALAR &&
                                          k->vars[al]->elem == IR_F64);
    CHECK("C is a 2-d array", C >= 0 && k->vars[C]->kind == IR_VAR_ARRAY &&
                                  k->vars[C]->rank == 2);
    CHECK("C's first dim is ni", C >= 0 && k->vars[C]->dims[0]->kind == IR_EX_VAR &&
                                     k->vars[C]->dims[0]->var == ni);
    CHECK("params in signature order", k->params[0] == ni && k->vars[C]->param_index == 5);
    CHECK("i is an iterator", i >= 0 && k->vars[i]->kind == IR_VAR_ITER);
    CHECK("data type double", k->data_type == IR_F64);
    const ir_stmt *f = k->body;
    CHECK("outer loop", f && f->kind == IR_ST_FOR && f->iter == i && f->step == 1);
    if (f && f->kind == IR_ST_FOR) {
      long vals[64] = {0};
      vals[ni] = 7;
      CHECK("lo = 0", ir_expr_eval_int(f->lo, vals) == 0);
      CHECK("hi = ni - 1 (inclusive)", ir_expr_eval_int(f->hi, vals) == 6);
      CHECK("loop position", f->pos.line == 5 && f->pos.col == 3);
    }
    const ir_stmt *s0 = first(k->body, IR_ST_ASSIGN);
    CHECK("S0 is C[i][j] *= beta", s0 && s0->id == 0 && s0->op == IR_ASSIGN_MUL &&
                                        s0->lhs->kind == IR_EX_ELEM && s0->lhs->var == C &&
                                        s0->lhs->nargs == 2);
    CHECK("S0 position", s0 && s0->pos.line == 6 && s0->pos.col == 30);
    CHECK("expression types", s0 && s0->rhs->type == IR_F64 && s0->lhs->args[0]->type == IR_I32);
  }
}

/* Constants, casts and float. */
static void details_casts(ir_arena *a) {
  ir_kernel *k;
  k = parse("void kernel_k(int n, float A[n], double B[n]) {\n"
            "  for (int i = 0; i < n; i++) {\n"
            "    A[i] = 0;\n"
            "    B[i] = B[i] / n + (double)A[i] + (float)B[i] + 2.5f;\n"
            "  }\n"
            "}\n", a);
  CHECK("casts kernel parses", k != NULL);
  if (k) {
    const ir_stmt *s0 = first(k->body, IR_ST_ASSIGN);
    CHECK("integer literal takes the float type", s0 && s0->rhs->kind == IR_EX_CONST &&
                                                      s0->rhs->type == IR_F32 && s0->rhs->is_int);
    const ir_stmt *s1 = s0 ? s0->next : NULL;
    CHECK("second statement", s1 && s1->kind == IR_ST_ASSIGN && s1->id == 1);
    if (s1) {
      /* ((B/n + (double)A) + (double)(float)B) + 2.5f */
      const ir_expr *e = s1->rhs;
      CHECK("sum is double", e->kind == IR_EX_ADD && e->type == IR_F64);
      CHECK("2.5f is a float constant cast or retyped to double",
            e->args[1]->kind == IR_EX_CONST && e->args[1]->type == IR_F64);
      const ir_expr *l = e->args[0]->args[0]; /* B/n + (double)A */
      const ir_expr *div = l->args[0];
      CHECK("B / n is a floating division", div->kind == IR_EX_DIV && div->type == IR_F64);
      /* (double)n, a size as a value, is the scalar n_val (details_size_values) */
      int nv = div->args[1]->kind == IR_EX_VAR ? div->args[1]->var : -1;
      CHECK("n is converted to double: the scalar n_val = (double)n",
            nv >= 0 && k->vars[nv]->elem == IR_F64 && k->vars[nv]->size_value &&
                k->vars[nv]->size_value->type == IR_I32);
      CHECK("(double)A[i] is a cast", l->args[1]->kind == IR_EX_CAST &&
                                          l->args[1]->args[0]->type == IR_F32);
      const ir_expr *fb = e->args[0]->args[1];
      CHECK("(float)B[i] promoted back to double", fb->kind == IR_EX_CAST &&
                                                       fb->type == IR_F64 &&
                                                       fb->args[0]->kind == IR_EX_CAST &&
                                                       fb->args[0]->type == IR_F32);
    }
    CHECK("data type is the widest array type", k->data_type == IR_F64);
  }
}

/* Loop bounds: a downward loop, bounds joined by &&. */
static void details_bounds(ir_arena *a) {
  ir_kernel *k;
  k = parse("void kernel_k(int n, int m, double A[n]) {\n"
            "  int i;\n"
            "  for (i = n - 1; i >= 1 && i > m; --i) A[i] = A[i - 1];\n"
            "}\n", a);
  CHECK("downward kernel parses", k != NULL);
  if (k) {
    const ir_stmt *f = k->body;
    CHECK("step -1", f && f->kind == IR_ST_FOR && f->step == -1);
    if (f && f->kind == IR_ST_FOR) {
      CHECK("lo is IMAX of the two lower bounds", f->lo->kind == IR_EX_IMAX);
      long vals[64] = {0};
      vals[ir_kernel_find_var(k, "n")] = 10;
      vals[ir_kernel_find_var(k, "m")] = 4;
      CHECK("hi = n - 1", ir_expr_eval_int(f->hi, vals) == 9);
      CHECK("lo = max(1, m + 1)", ir_expr_eval_int(f->lo, vals) == 5);
      const ir_expr *sub = f->body->rhs->args[0];
      vals[ir_kernel_find_var(k, "i")] = 3;
      CHECK("subscript i - 1", ir_expr_eval_int(sub, vals) == 2);
    }
  }

  /* upper bounds joined by && become IMIN */
  k = parse("void kernel_k(int n, int m, double A[n]) {\n"
            "  for (int i = 0; i < n && i <= m + 2; i++) A[i] = 1;\n"
            "}\n", a);
  CHECK("&& kernel parses", k && k->body && k->body->kind == IR_ST_FOR);
  if (k && k->body) {
    CHECK("hi is IMIN", k->body->hi->kind == IR_EX_IMIN && k->body->hi->type == IR_I32);
    long vals[64] = {0};
    vals[ir_kernel_find_var(k, "n")] = 10;
    vals[ir_kernel_find_var(k, "m")] = 4;
    CHECK("hi = min(n - 1, m + 2)", ir_expr_eval_int(k->body->hi, vals) == 6);
  }
}

/* Local scalars and shared iterators; errors return NULL. */
static void details_locals(ir_arena *a) {
  ir_kernel *k;
  /* local scalars, declarations as assignments, x = x + e */
  k = parse("void kernel_k(int n, double A[n], double out[1]) {\n"
            "  double s = 0;\n"
            "  for (int i = 0; i < n; i++) {\n"
            "    double t = A[i];\n"
            "    s = s + t * t;\n"
            "  }\n"
            "  out[0] = s;\n"
            "}\n", a);
  CHECK("locals kernel parses", k != NULL);
  if (k) {
    int s = ir_kernel_find_var(k, "s"), t = ir_kernel_find_var(k, "t");
    CHECK("s is a local scalar", s >= 0 && k->vars[s]->kind == IR_VAR_LOCAL &&
                                     k->vars[s]->param_index == -1);
    CHECK("t is a local scalar", t >= 0 && k->vars[t]->kind == IR_VAR_LOCAL);
    const ir_stmt *s0 = k->body;
    CHECK("declaration with initializer is S0 outside loops",
          s0 && s0->kind == IR_ST_ASSIGN && s0->id == 0 && s0->lhs->kind == IR_EX_VAR &&
              s0->lhs->var == s && s0->rhs->kind == IR_EX_CONST && s0->rhs->type == IR_F64);
    const ir_stmt *loop = s0 ? s0->next : NULL;
    const ir_stmt *s1 = loop && loop->kind == IR_ST_FOR ? loop->body : NULL;
    CHECK("t = A[i] is S1 in the loop", s1 && s1->id == 1 && s1->lhs->var == t);
    const ir_stmt *s2 = s1 ? s1->next : NULL;
    CHECK("s = s + t * t keeps its form", s2 && s2->id == 2 && s2->op == IR_ASSIGN &&
                                              s2->rhs->kind == IR_EX_ADD &&
                                              s2->rhs->args[0]->kind == IR_EX_VAR &&
                                              s2->rhs->args[0]->var == s);
    const ir_stmt *s3 = loop ? loop->next : NULL;
    CHECK("statement after the loop", s3 && s3->kind == IR_ST_ASSIGN && s3->id == 3);
    CHECK("nassign", k->nassign == 4);
  }

  /* two sequential for (int i ...) loops share one iterator variable */
  k = parse("void kernel_k(int n, double A[n]) {\n"
            "  for (int i = 0; i < n; i++) A[i] = 0;\n"
            "  for (int i = 0; i < n; i++) A[i] += 1;\n"
            "}\n", a);
  CHECK("sequential loops parse", k && k->body && k->body->next);
  if (k && k->body && k->body->next)
    CHECK("one iterator for both", k->body->iter == k->body->next->iter && k->nvars == 3);

  /* errors return NULL */
  CHECK("a while loop that is not counted is rejected",
        !parse_quiet("void kernel_k(int n, double A[n]) { while (1) A[0] = 1; }\n", a));
  CHECK("non-affine subscript is rejected",
        !parse_quiet("void kernel_k(int n, double A[n]) {\n"
                     " for (int i = 0; i < n; i++) A[i * i] = 1; }\n", a));
  CHECK("missing kernel is rejected", !parse_quiet("void f(void) { }\n", a));
}

/* views: a region of declared storage, under a stated assumption */
static void details_views(ir_arena *a) {
  ir_kernel *k;
  k = parse("void f(int m, int k, int lda, double *a, double *y) {\n"
            " for (int i = 0; i < m; i++) for (int j = 0; j < k; j++)\n"
            "  y[i] += a[i * lda + j]; }\n", a);
  CHECK("a leading dimension parses", k != NULL);
  if (k) {
    const ir_var *v = k->vars[ir_kernel_find_var(k, "a")];
    long sz[16] = {0};
    int m = ir_kernel_find_var(k, "m"), kk = ir_kernel_find_var(k, "k"),
        lda = ir_kernel_find_var(k, "lda");
    sz[m] = 3, sz[kk] = 4, sz[lda] = 2;
    char msg[200];
    CHECK("a is the region [m][k] of storage [m][lda]",
          ir_var_is_view(v) && v->rank == 2 && v->dims[1]->kind == IR_EX_VAR &&
              v->dims[1]->var == kk && v->store[1]->kind == IR_EX_VAR &&
              v->store[1]->var == lda);
    CHECK("one assumption k <= lda, broken by k=4, lda=2",
          k->nassumes == 1 && !ir_kernel_assumes_hold(k, sz, msg, sizeof msg) &&
              strstr(msg, "k <= lda does not hold (k=4, lda=2)"));
    ir_kernel_fit_sizes(k, sz);
    CHECK("fitting the sizes raises lda to k", sz[lda] == 4 && sz[kk] == 4 && sz[m] == 3 &&
                                                   ir_kernel_assumes_hold(k, sz, msg, sizeof msg));
    sz[lda] = 6;
    CHECK("region element (1, 2) is storage element 1*lda + 2 = 8",
          ir_var_store_size(v, sz) == 18 && ir_var_store_offset(v, sz, 1 * 4 + 2) == 8);
  }
  k = parse("void f(int n, int incx, double *x) {\n"
            " for (int i = 0; i < n; i++) x[i * incx] = 0; }\n", a);
  CHECK("a stride parses: x is the region [n][1] of x[n][incx], assuming 1 <= incx",
        k && ir_var_is_view(k->vars[ir_kernel_find_var(k, "x")]) && k->nassumes == 1 &&
            k->assumes[0].lo->kind == IR_EX_CONST);
  k = parse("void f(int n, double x[n + 8], double y[n + 8]) {\n"
            " for (int i = 0; i < n; i++) y[i] = x[i]; }\n", a);
  CHECK("padded extents: regions [n] of [n + 8], no assumption (it always holds)",
        k && ir_var_is_view(k->vars[ir_kernel_find_var(k, "y")]) && k->nassumes == 0);
  k = parse("void f(int n, const double *x, double *y) {\n"
            " for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] + x[i + 1]; }\n", a);
  if (k) {
    const ir_var *y = k->vars[ir_kernel_find_var(k, "y")];
    const ir_var *x = k->vars[ir_kernel_find_var(k, "x")];
    long sz[16] = {0};
    sz[ir_kernel_find_var(k, "n")] = 5;
    CHECK("a pointer reaching n - 1 elements is padded to [n], storage n - 1, no assumption",
          y->padded == 1 && ir_var_is_view(y) && y->dims[0]->kind == IR_EX_VAR &&
              k->nassumes == 0 && ir_var_store_size(y, sz) == 4 &&
              ir_var_store_offset(y, sz, 3) == 3 && ir_var_store_offset(y, sz, 4) == IR_NO_STORE);
    CHECK("a pointer reaching n elements is not padded", x && !x->padded && !ir_var_is_view(x));
    sz[ir_kernel_find_var(k, "n")] = 0;
    CHECK("at n = 0 the padded storage is empty (not n - 1 = -1)", ir_var_store_size(y, sz) == 0);
  } else {
    CHECK("a pointer stencil over 1 <= i < n-1 parses", 0);
  }
  k = parse("void f(int n, const double *x, double *y) {\n"
            " for (int i = 0; i < n - 1; i++) y[i] = x[i + n]; }\n", a);
  CHECK("an extent 2 * n - 1 is not padded (not a size minus a constant)",
        k && !k->vars[ir_kernel_find_var(k, "x")]->padded);
  k = parse("void f(int n, int m, double x[n]) {\n"
            " for (int i = 0; i < m; i++) x[i] = 0; }\n", a);
  CHECK("loops to m over x[n]: the region [m] of x[n], assuming m <= n",
        k && ir_var_is_view(k->vars[ir_kernel_find_var(k, "x")]) && k->nassumes == 1 &&
            k->assumes[0].lo->kind == IR_EX_VAR &&
            k->assumes[0].lo->var == ir_kernel_find_var(k, "m"));
  CHECK("a column index always past its row length is refused",
        !parse_quiet("void f(int m, int k, double *a) {\n"
                     " for (int i = 0; i < m; i++) for (int j = 0; j <= k; j++)\n"
                     "  a[i * k + j] = 0; }\n", a));
  k = parse("#include <stdint.h>\nvoid f(int n, const uint8_t *a, uint8_t *x) {\n"
            " for (int i = 0; i < n; i++) x[i] = (a[i] + x[i]) >> 1; }\n", a);
  {
    const ir_stmt *st = k ? k->body->body : NULL;
    const ir_expr *r = st ? st->rhs : NULL;
    CHECK("uint8_t data: ui8, the sum promoted to int (explicit casts), >> in int, the "
          "store converting back",
          k && k->data_type == IR_U8 && k->vars[ir_kernel_find_var(k, "x")]->elem == IR_U8 &&
              r && r->kind == IR_EX_CAST && r->type == IR_U8 && r->args[0]->kind == IR_EX_SHR &&
              r->args[0]->type == IR_I32 && r->args[0]->args[0]->kind == IR_EX_ADD &&
              r->args[0]->args[0]->args[0]->kind == IR_EX_CAST &&
              r->args[0]->args[0]->args[0]->type == IR_I32);
  }
  k = parse("void f(int n, unsigned x[n], unsigned short y[n]) {\n"
            " for (int i = 0; i < n; i++) x[i] = x[i] * 3u + y[i]; }\n", a);
  CHECK("unsigned data: ui32 arithmetic (the usual arithmetic conversions), ui16 data "
        "promoted to int, then to unsigned",
        k && k->vars[ir_kernel_find_var(k, "x")]->elem == IR_U32 &&
            k->vars[ir_kernel_find_var(k, "y")]->elem == IR_U16 &&
            k->body->body->rhs->type == IR_U32 && k->body->body->rhs->kind == IR_EX_ADD);
  k = parse("#include <stdint.h>\nvoid f(int n, int64_t *x, long y[n]) {\n"
            " for (int i = 0; i < n; i++) y[i] = x[i] * 2 + i; }\n", a);
  CHECK("int64_t and long element data are i64, the kernel's data type",
        k && k->data_type == IR_I64 && k->vars[ir_kernel_find_var(k, "x")]->elem == IR_I64 &&
            k->vars[ir_kernel_find_var(k, "y")]->elem == IR_I64);
  k = parse("void f(int n, int x[n], long y[n], signed char z[n]) {\n"
            " for (int i = 0; i < n; i++) y[i] = x[i] + z[i]; }\n", a);
  CHECK("int, long and signed char data in one kernel: the sum in int, converted to long",
        k && k->vars[ir_kernel_find_var(k, "z")]->elem == IR_I8 &&
            k->body->body->rhs->kind == IR_EX_CAST && k->body->body->rhs->type == IR_I64 &&
            k->body->body->rhs->args[0]->type == IR_I32);
  CHECK("_Bool element data is refused",
        !parse_quiet("void f(int n, _Bool x[n]) {\n"
                     " for (int i = 0; i < n; i++) x[i] = 0; }\n", a));
  CHECK("a shift of a floating value is refused",
        !parse_quiet("void f(int n, float x[n], int y[n]) {\n"
                     " for (int i = 0; i < n; i++) y[i] = x[i] >> 1; }\n", a));
  k = parse("#include <stdint.h>\nvoid f(int n, float s, uint8_t x[n]) {\n"
            " for (int i = 0; i < n; i++) x[i] = s * x[i]; }\n", a);
  CHECK("a floating value stored into uint8_t data is C's conversion at the store: "
        "(unsigned char)(s * (float)x[i])",
        k && k->body->body->rhs->kind == IR_EX_CAST && k->body->body->rhs->type == IR_U8 &&
            k->body->body->rhs->args[0]->type == IR_F32 &&
            k->body->body->rhs->args[0]->kind == IR_EX_MUL);
  CHECK("an explicit cast of a floating value to uint8_t is refused",
        !parse_quiet("#include <stdint.h>\nvoid f(int n, float s, uint8_t x[n]) {\n"
                     " for (int i = 0; i < n; i++) x[i] = (uint8_t)(s * x[i]); }\n", a));
  CHECK("'&' on integer data is refused",
        !parse_quiet("void f(int n, unsigned x[n]) {\n"
                     " for (int i = 0; i < n; i++) x[i] = x[i] & 255u; }\n", a));
  CHECK("integer division of long data is refused",
        !parse_quiet("void f(int n, long x[n]) {\n"
                     " for (int i = 0; i < n; i++) x[i] = x[i] / 2; }\n", a));
  /* int locals that change or hold data are integer data: local scalars of
   * their type; a counter of a while loop and an index expression stay
   * what they were */
  static const struct {
    const char *text, *name;
    ir_elem elem;
  } ilocals[] = {
      {"void f(int n, double *x) { int t = 0;\n"
       " for (int i = 0; i < n; i++) { x[i] = 0; t += 1; } }\n", "t", IR_I32},
      {"#include <stdint.h>\nvoid f(uint32_t *out, const uint32_t *a, const uint32_t *b, int n) {\n"
       " uint32_t s = 0;\n for (int i = 0; i < n; i++) s += a[i] * b[i];\n out[0] = s; }\n", "s", IR_U32},
      {"void f(int n, int A[n], double B[n]) {\n"
       " for (int i = 0; i < n; i++) { int c = A[i]; B[i] = c; } }\n", "c", IR_I32},
      {"void f(int n, long *y, const long *x) { long c;\n"
       " c = 0; for (int i = 0; i < n; i++) { c++; y[i] = x[i] * c; } }\n", "c", IR_I64},
  };
  for (size_t t = 0; t < sizeof ilocals / sizeof ilocals[0]; t++) {
    k = parse(ilocals[t].text, a);
    int found = 0;
    for (int v = 0; k && v < k->nvars; v++)
      found |= k->vars[v]->kind == IR_VAR_LOCAL && !strcmp(k->vars[v]->name, ilocals[t].name) &&
               k->vars[v]->elem == ilocals[t].elem;
    CHECKF(found, "int local %zu: '%s' is a local scalar of type %s", t, ilocals[t].name,
           ir_elem_mlir_name(ilocals[t].elem));
  }
  k = parse("void f(int n, double *x) { int k = 0;\n"
            " while (k < n) { x[k] = 1; k++; } }\n", a);
  CHECK("an int local counting a while loop stays its iterator",
        k && k->body && k->body->kind == IR_ST_FOR);
  CHECK("an int data local in a subscript is refused",
        !parse_quiet("void f(int n, int *A, double *B) {\n"
                     " for (int i = 0; i < n; i++) { int c = A[i]; B[c] = 1; } }\n", a));
  k = parse("double f(int n, double *x) { double ret = 0;\n"
            " for (int i = 0; i < n; i++) ret += x[i]; return ret * 2; }\n", a);
  CHECK("a returned value parses", k != NULL);
  if (k) {
    int r = k->params[k->nparams - 1];
    CHECK("returns: the last parameter, not a C one", k->returns && k->nparams == 3 &&
                                                       ir_kernel_nargs(k) == 2);
    CHECK("the returned value is a one-element double output 'ret_2'",
          k->vars[r]->kind == IR_VAR_ARRAY && k->vars[r]->rank == 1 &&
              k->vars[r]->elem == IR_F64 && !strcmp(k->vars[r]->name, "ret_2"));
  }
  CHECK("an int result is refused",
        !parse_quiet("int f(int n, double *x) { for (int i = 0; i < n; i++) x[i] = 0;\n"
                     " return n; }\n", a));
}

/* constant extents and file-scope arrays */
static void details_extents(ir_arena *a) {
  ir_kernel *k;
  k = parse("void f(int n, double *y, double x[n]) {\n"
            " for (int i = 0; i < 20; i++) y[i] = x[i]; }\n", a);
  CHECK("constant loop bounds over a parameter extent: the region [20] of x[n]",
        k && ir_var_is_view(k->vars[ir_kernel_find_var(k, "x")]) && k->nassumes == 1);
  if (k) {
    int e = ir_kernel_extent_var(k, 20);
    CHECK("the constant extent 20 is a dim symbol pinned to 20",
          e >= 0 && k->vars[e]->kind == IR_VAR_EXTENT && k->vars[e]->value == 20);
    long sizes[16] = {0};
    if (k->nvars <= 16) ir_kernel_pin_extents(k, sizes);
    CHECK("ir_kernel_pin_extents sets it", e >= 0 && k->nvars <= 16 && sizes[e] == 20);
  }
  k = parse("#define C 3\nvoid f(int n, float px[n][C], const float w[C], float o[n]) {\n"
            " for (int i = 0; i < n; i++) { o[i] = 0;\n"
            "  for (int c = 0; c < C; c++) o[i] += w[c] * px[i][c]; } }\n", a);
  CHECK("constant extents parse, one extent symbol per value",
        k && ir_kernel_extent_var(k, 3) >= 0 && ir_kernel_extent_var(k, 2) < 0);
  k = parse("#define LEN 8\nfloat ga[LEN], gb[LEN];\nstatic double unused[4];\n"
            "void f(void) { for (int i = 0; i < LEN; i++) ga[i] += gb[i]; }\n", a);
  CHECK("file-scope arrays the kernel subscripts are operands", k && k->nglobals == 2 &&
                                                                k->nparams == 2 &&
                                                                ir_kernel_nargs(k) == 0);
  if (k) {
    int g = ir_kernel_find_var(k, "ga");
    CHECK("a file-scope operand: a global float array of extent 8",
          g >= 0 && k->vars[g]->global && k->vars[g]->kind == IR_VAR_ARRAY &&
              k->vars[g]->elem == IR_F32 && k->vars[g]->rank == 1 &&
              ir_kernel_find_var(k, "unused") < 0);
  }
  k = parse("float g[4];\nfloat f(int n, float x[n]) { float s = 0;\n"
            " for (int i = 0; i < n; i++) s += x[i] * g[0]; return s; }\n", a);
  CHECK("globals come before the returned value", k && k->nglobals == 1 && k->returns &&
                                                  ir_kernel_nargs(k) == 2 &&
                                                  k->vars[k->params[2]]->global);
  k = parse("void f(int n, const float *x, float *y) { for (int i = 0; i < n; i++)\n"
            " for (int c = 0; c < 3; c++) y[3*i + c] = x[3*i + c]; }\n", a);
  CHECK("a constant row length: x[3*i + c] is [n][3]",
        k && k->vars[ir_kernel_find_var(k, "x")]->rank == 2 &&
            !ir_var_is_view(k->vars[ir_kernel_find_var(k, "x")]) &&
            ir_kernel_extent_var(k, 3) >= 0);
  k = parse("void f(int n, const double *x, double *y) { for (int i = 0; i < n; i++)\n"
            " y[i] = x[2*i]; }\n", a);
  CHECK("a constant stride: x[2*i] is the region [n][1] of [n][2], no assumption",
        k && ir_var_is_view(k->vars[ir_kernel_find_var(k, "x")]) && k->nassumes == 0);
  CHECK("a const file-scope table is refused",
        !parse_quiet("const float t[2] = {1, 2};\n"
                     "void f(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] *= t[1]; }\n",
                     a));
  CHECK("a file-scope scalar is refused",
        !parse_quiet("float s;\n"
                     "void f(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] *= s; }\n",
                     a));
  CHECK("two functions with loops and no kernel_* are ambiguous",
        !parse_quiet("void f(int n, double x[n]) { for (int i = 0; i < n; i++) x[i] = 0; }\n"
                     "void g(int n, double x[n]) { for (int i = 0; i < n; i++) x[i] = 1; }\n",
                      a));
  CHECK("empty file is rejected", !parse_quiet("", a));
}

typedef struct nth_ctx {
  int id;
  const ir_stmt *st;
} nth_ctx;

static int nth_visit(const ir_stmt *st, const ir_stmt *const *loops, int depth, void *user) {
  (void)loops;
  (void)depth;
  nth_ctx *c = user;
  if (st->id == c->id) c->st = st;
  return 0;
}

/* The assignment S<id> of k, or NULL. */
static const ir_stmt *nth_assign(const ir_kernel *k, int id) {
  nth_ctx c = {id, NULL};
  ir_kernel_walk_assigns(k, nth_visit, &c);
  return c.st;
}

/* A size used as a value (`ss /= n`): a read-only scalar of the element
 * type that stands for (T)(size expression), one per expression and type;
 * sizes in subscripts, bounds and integer conditions stay sizes. */
static void details_size_values(ir_arena *a) {
  ir_kernel *k;
  k = parse("void f(float *o, const float *x, int n) { float ss = 0.0f;\n"
            " for (int j = 0; j < n; j++) ss += x[j] * x[j];\n"
            " ss /= n; for (int j = 0; j < n; j++) o[j] = x[j] * ss; }\n", a);
  int v = k ? ir_kernel_find_var(k, "n_val") : -1;
  CHECK("ss /= n: n as a value is the scalar n_val = (float)n, not a parameter",
        v >= 0 && k->vars[v]->kind == IR_VAR_SCALAR && k->vars[v]->elem == IR_F32 &&
            k->vars[v]->param_index < 0 && k->vars[v]->size_value &&
            k->vars[v]->size_value->kind == IR_EX_VAR &&
            k->vars[k->vars[v]->size_value->var]->kind == IR_VAR_SIZE && k->nparams == 3);
  const ir_stmt *st = k ? nth_assign(k, 2) : NULL;
  CHECK("the division reads n_val", st && st->rhs->kind == IR_EX_VAR && st->rhs->var == v);
  k = parse("void f(int b, int s, double y[b][s], const double x[b][s]) {\n"
            " for (int i = 0; i < b; i++) for (int j = 0; j < s; j++)\n"
            "  y[i][j] = x[i][j] * (1.0 / (b * s)) + 2.0 / (b * s); }\n",
            a);
  v = k ? ir_kernel_find_var(k, "size_val") : -1;
  CHECK("1.0 / (b * s): a product of sizes is one scalar, size_val, for both uses",
        v >= 0 && k->vars[v]->elem == IR_F64 && k->vars[v]->size_value &&
            k->vars[v]->size_value->kind == IR_EX_MUL &&
            ir_kernel_find_var(k, "size_val_2") < 0);
  k = parse("void f(int n, double x[n]) { for (int i = 0; i < n; i++) x[i] = x[i] * i; }\n", a);
  CHECK("an iterator used as a value stays a cast (not a size)",
        k && ir_kernel_find_var(k, "i_val") < 0 && ir_kernel_find_var(k, "size_val") < 0);
  k = parse("void f(int n, double x[n]) { for (int i = 0; i < n; i++) if (i < n - 1) x[i] = 0; }\n",
            a);
  CHECK("sizes in bounds and integer conditions stay sizes",
        k && ir_kernel_find_var(k, "n_val") < 0);
}

/* Overlap assumptions: a written array and another operand, neither
 * restrict, may overlap in C; the proofs assume they do not. */
static void details_overlaps(ir_arena *a) {
  static const struct {
    const char *src;
    int x_y, x_z, y_z; /* ir_kernel_no_overlap of each pair */
    const char *what;
  } cases[] = {
      {"void f(int n, const float *x, const float *y, float *z) {\n"
       " for (int i = 0; i < n; i++) z[i] = x[i] + y[i]; }\n",
       0, 1, 1, "z written: z with x and with y; not the two read-only x, y"},
      {"void f(int n, const float *x, const float *y, float *restrict z) {\n"
       " for (int i = 0; i < n; i++) z[i] = x[i] + y[i]; }\n",
       0, 0, 0, "z restrict: no assumption"},
      {"void f(int n, const float *restrict x, const float *y, float *z) {\n"
       " for (int i = 0; i < n; i++) z[i] = x[i] + y[i]; }\n",
       0, 0, 1, "x restrict: only y with z"},
      {"void f(int n, double x[restrict n], double y[n], double z[__restrict n]) {\n"
       " for (int i = 0; i < n; i++) { y[i] = x[i]; z[i] = y[i]; } }\n",
       0, 0, 0, "array parameters declared restrict in their first bracket"},
      {"void f(int n, double x[n], double y[n], double z[n]) {\n"
       " for (int i = 0; i < n; i++) { y[i] = x[i]; z[i] = y[i]; } }\n",
       1, 1, 1, "two written arrays and a read one: every pair"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    ir_kernel *k = parse(cases[c].src, a);
    int ok = k != NULL;
    if (ok) {
      int x = ir_kernel_find_var(k, "x"), y = ir_kernel_find_var(k, "y"),
          z = ir_kernel_find_var(k, "z");
      ok = ir_kernel_no_overlap(k, x, y) == cases[c].x_y &&
           ir_kernel_no_overlap(k, x, z) == cases[c].x_z &&
           ir_kernel_no_overlap(k, y, z) == cases[c].y_z &&
           ir_kernel_no_overlap(k, z, y) == cases[c].y_z && !ir_kernel_no_overlap(k, z, z);
    }
    CHECK(cases[c].what, ok);
  }
  ir_kernel *k = parse("float g[64];\nvoid f(float *out) {\n"
                       " for (int i = 0; i < 64; i++) out[i] = g[i]; }\n", a);
  char buf[256] = "";
  FILE *m = fmemopen(buf, sizeof buf, "w");
  if (k && m) ir_kernel_print_overlaps(k, "// ", m);
  if (m) fclose(m);
  CHECK("a file-scope array and a written pointer: stated",
        !strcmp(buf, "// assumes out overlaps none of g in memory (none is restrict)\n"));
}

static void test_details(void) {
  ir_arena a;
  ir_arena_init(&a);
  details_gemm(&a);
  details_casts(&a);
  details_bounds(&a);
  details_locals(&a);
  details_views(&a);
  details_extents(&a);
  details_size_values(&a);
  details_overlaps(&a);
  ir_arena_free(&a);
}

int main(void) {
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_table();
  test_details();
  CHECK("no memory left live", ir_mem_live() == 0);
  char path[600];
  snprintf(path, sizeof path, "%s/k.c", dir);
  unlink(path);
  rmdir(dir);
  return TEST_REPORT();
}
