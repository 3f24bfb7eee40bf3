/*
 * c.c - the C+BLAS writer (design.md section 9): a raised tensor program
 * becomes one C99 function with the ORIGINAL kernel's signature (same name,
 * parameter order and types, VLA array parameters), so that it can replace
 * the original at link time.
 *
 * How: the program's DAG is walked in topological order (ir_tp_topo).  Every
 * node gets one row-major buffer `upl_v<id>` (an argument leaf is the
 * caller's array itself; everything else is malloc'd and freed at the end).
 * Dims are size symbols and become the size parameters' values at run time.
 * An op node is lowered from its semantic kernel (gram_bind: the interp/
 * kernel name and its attribute values), never from the op's or the
 * benchmark kernel's name:
 *   - dot_general: cblas_?gemm / ?gemv / ?dot (d for f64, s for f32) over
 *     the flattened (batch, free, contracting) dims, batches as a loop; an
 *     operand whose dims are not in a BLAS-compatible order is first copied
 *     into (batch, free, contract) order;
 *   - everything else: plain loops over the result written from the kernel's
 *     semantics (interp/ops_kernels.inc): numpy/CHLO broadcasting for the
 *     elementwise ops (stride 0 where an operand dim is the constant 1),
 *     gathers for transpose and broadcast_in_dim, a fold in row-major order
 *     of the reduced dims for reduce, fills for constants, iota and masks.
 * Poison is not represented: the raised program is only used where the
 * original is defined.  The results are copied into the arrays of the
 * signature the kernel writes, after everything has been computed (results
 * may read the old values of arrays they overwrite).
 *
 * Runtime checks: every size parameter must be >= 0; otherwise the function
 * prints "NAME: sizes must be >= 0: n=.. m=.." on stderr and aborts.  Sizes
 * that the source ties together (two arrays sharing a size symbol) are
 * consistent by construction in C, where one parameter gives both dims.
 * An allocation failure prints a message and aborts as well.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"

#define STR 512 /* room for one index or size expression */

typedef struct cg {
  FILE *out;
  const ir_kernel *k;
  char *err;
  size_t errn;
} cg;

static int fail(cg *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, g->errn, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *ctype(ir_elem e) {
  switch (e) {
  case IR_F64: return "double";
  case IR_F32: return "float";
  case IR_I32: return "int";
  default: return "unsigned char";
  }
}

/* Append printf output to buf (size STR). */
static void cat(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cat(char *buf, const char *fmt, ...) {
  size_t len = strlen(buf);
  if (len >= STR - 1) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, STR - len, fmt, ap);
  va_end(ap);
}

/* The run-time value of dim symbol d: "upl_ni" or "1". */
static void dim_str(const cg *g, int d, char *buf) {
  buf[0] = 0;
  if (d == IR_DIM_ONE)
    cat(buf, "1L");
  else
    cat(buf, "upl_%s", g->k->vars[d]->name);
}

/* Product of dims[0..n-1] (size symbols): "(upl_ni*upl_nj)" or "1L". */
static void prod_str(const cg *g, const int *dims, int n, char *buf) {
  buf[0] = 0;
  int any = 0;
  for (int i = 0; i < n; i++) {
    if (dims[i] == IR_DIM_ONE) continue;
    char d[STR];
    dim_str(g, dims[i], d);
    cat(buf, "%s%s", any ? "*" : "(", d);
    any = 1;
  }
  if (any)
    cat(buf, ")");
  else
    cat(buf, "1L");
}

/* Row-major stride of dim j of type t. */
static void stride_str(const cg *g, const ir_type *t, int j, char *buf) {
  prod_str(g, t->dims + j + 1, t->rank - j - 1, buf);
}

/* Offset expression sum_j var[j] * stride(j) over the dims j of t with
 * var[j] >= 0 and a dim other than the constant 1 (loop vars upl_i<var>). */
static void offset_str(const cg *g, const ir_type *t, const int *var, char *buf) {
  buf[0] = 0;
  for (int j = 0; j < t->rank; j++) {
    if (var[j] < 0 || t->dims[j] == IR_DIM_ONE) continue;
    char s[STR];
    stride_str(g, t, j, s);
    cat(buf, "%supl_i%d*%s", buf[0] ? " + " : "", var[j], s);
  }
  if (!buf[0]) cat(buf, "0");
}

/* Access to operand `buf` of type t inside a loop over a result of rank r,
 * numpy-aligned to the right: "upl_v3[upl_i0*upl_nj + upl_i1]". */
static void bcast_access(const cg *g, const char *name, const ir_type *t, int r,
                         char *buf) {
  int var[IR_MAX_RANK];
  for (int j = 0; j < t->rank; j++) var[j] = j + r - t->rank;
  char off[STR] = "";
  offset_str(g, t, var, off);
  buf[0] = 0;
  cat(buf, "%s[%s]", name, off);
}

/* Loops over every index of type t (vars upl_i0..), row-major, running
 * counter upl_o; the statement `dst[upl_o] = expr;`. */
static void emit_loop(cg *g, const ir_type *t, const char *dst, const char *expr) {
  fprintf(g->out, "  {\n    long upl_o = 0;\n");
  for (int j = 0; j < t->rank; j++) {
    char d[STR];
    dim_str(g, t->dims[j], d);
    fprintf(g->out, "    for (long upl_i%d = 0; upl_i%d < %s; upl_i%d++)\n", j, j, d, j);
  }
  fprintf(g->out, "      %s[upl_o++] = %s;\n  }\n", dst, expr);
}

/* ------------------------------------------------------------ dot_general */

/* Does order[0..n-1] list 0..n-1 in sequence? */
static int is_identity(const int *order, int n) {
  for (int i = 0; i < n; i++)
    if (order[i] != i) return 0;
  return 1;
}

/* Make operand `name` (type t) available with its dims in order nt (then
 * *trans = 0) or tr (then *trans = 1, only if tr != NULL); otherwise copy it
 * into order nt in a new buffer `copy`.  Writes the buffer to use to use. */
static void dot_operand(cg *g, const char *name, const ir_type *t, const int *nt,
                        const int *tr, const char *copy, int *trans, char *use,
                        int *copied) {
  *trans = 0;
  *copied = 0;
  use[0] = 0;
  if (is_identity(nt, t->rank)) {
    cat(use, "%s", name);
    return;
  }
  if (tr && is_identity(tr, t->rank)) {
    *trans = 1;
    cat(use, "%s", name);
    return;
  }
  ir_type pt = *t;
  int var[IR_MAX_RANK];
  for (int i = 0; i < t->rank; i++) {
    pt.dims[i] = t->dims[nt[i]];
    var[nt[i]] = i;
  }
  char n[STR], off[STR], expr[STR] = "";
  prod_str(g, pt.dims, pt.rank, n);
  offset_str(g, t, var, off);
  cat(expr, "%s[%s]", name, off);
  fprintf(g->out, "  %s *%s = upl_alloc(%s * sizeof(%s));\n", ctype(t->elem), copy, n,
          ctype(t->elem));
  emit_loop(g, &pt, copy, expr);
  cat(use, "%s", copy);
  *copied = 1;
}

static int emit_dot(cg *g, const ir_tnode *n, const gram_binding *b,
                    const char *const *opn, const ir_type *const *opt) {
  const interp_attr *lb = &b->attrs[0], *rb = &b->attrs[1], *lc = &b->attrs[2],
                    *rc = &b->attrs[3];
  const ir_type *lt = opt[0], *rt = opt[1];
  if (lt->elem != rt->elem || lt->elem != n->type.elem ||
      !ir_elem_is_float(lt->elem))
    return fail(g, "dot_general on %s operands has no BLAS routine",
                ir_elem_mlir_name(lt->elem));
  char p = lt->elem == IR_F64 ? 'd' : 's';
  int nb = lb->n, nc = lc->n;
  /* lhs: batch, free, contract (NoTrans) or batch, contract, free (Trans) */
  int lf[IR_MAX_RANK], nlf = 0, rf[IR_MAX_RANK], nrf = 0;
  unsigned lused = 0, rused = 0;
  for (int i = 0; i < nb; i++) lused |= 1u << lb->v[i], rused |= 1u << rb->v[i];
  for (int i = 0; i < nc; i++) lused |= 1u << lc->v[i], rused |= 1u << rc->v[i];
  for (int d = 0; d < lt->rank; d++)
    if (!(lused & (1u << d))) lf[nlf++] = d;
  for (int d = 0; d < rt->rank; d++)
    if (!(rused & (1u << d))) rf[nrf++] = d;
  int lnt[IR_MAX_RANK], ltr[IR_MAX_RANK], rnt[IR_MAX_RANK], rtr[IR_MAX_RANK], q;
  q = 0;
  for (int i = 0; i < nb; i++) lnt[q++] = lb->v[i];
  for (int i = 0; i < nlf; i++) lnt[q++] = lf[i];
  for (int i = 0; i < nc; i++) lnt[q++] = lc->v[i];
  q = 0;
  for (int i = 0; i < nb; i++) ltr[q++] = lb->v[i];
  for (int i = 0; i < nc; i++) ltr[q++] = lc->v[i];
  for (int i = 0; i < nlf; i++) ltr[q++] = lf[i];
  /* rhs: batch, contract, free (NoTrans) or batch, free, contract (Trans) */
  q = 0;
  for (int i = 0; i < nb; i++) rnt[q++] = rb->v[i];
  for (int i = 0; i < nc; i++) rnt[q++] = rc->v[i];
  for (int i = 0; i < nrf; i++) rnt[q++] = rf[i];
  q = 0;
  for (int i = 0; i < nb; i++) rtr[q++] = rb->v[i];
  for (int i = 0; i < nrf; i++) rtr[q++] = rf[i];
  for (int i = 0; i < nc; i++) rtr[q++] = rc->v[i];

  int bd[IR_MAX_RANK], md[IR_MAX_RANK], kd[IR_MAX_RANK], nd[IR_MAX_RANK];
  for (int i = 0; i < nb; i++) bd[i] = lt->dims[lb->v[i]];
  for (int i = 0; i < nlf; i++) md[i] = lt->dims[lf[i]];
  for (int i = 0; i < nc; i++) kd[i] = lt->dims[lc->v[i]];
  for (int i = 0; i < nrf; i++) nd[i] = rt->dims[rf[i]];
  char B[STR], M[STR], K[STR], N[STR];
  prod_str(g, bd, nb, B);
  prod_str(g, md, nlf, M);
  prod_str(g, kd, nc, K);
  prod_str(g, nd, nrf, N);

  char lname[64], rname[64], luse[STR], ruse[STR];
  snprintf(lname, sizeof lname, "upl_v%d_l", n->id);
  snprintf(rname, sizeof rname, "upl_v%d_r", n->id);
  int ta, tb, lcopy, rcopy;
  dot_operand(g, opn[0], lt, lnt, nlf ? ltr : NULL, lname, &ta, luse, &lcopy);
  dot_operand(g, opn[1], rt, rnt, nrf ? rtr : NULL, rname, &tb, ruse, &rcopy);

  const char *T = ctype(n->type.elem);
  fprintf(g->out,
          "  {\n"
          "    const long upl_B = %s, upl_M = %s, upl_N = %s, upl_K = %s;\n"
          "    for (long upl_b = 0; upl_b < upl_B; upl_b++) {\n"
          "      const %s *upl_l = %s + upl_b * upl_M * upl_K;\n"
          "      const %s *upl_r = %s + upl_b * upl_K * upl_N;\n"
          "      %s *upl_c = upl_v%d + upl_b * upl_M * upl_N;\n"
          "      if (upl_M == 0 || upl_N == 0) continue;\n"
          "      if (upl_K == 0) {\n"
          "        for (long upl_q = 0; upl_q < upl_M * upl_N; upl_q++) upl_c[upl_q] = 0;\n"
          "        continue;\n"
          "      }\n",
          B, M, N, K, T, luse, T, ruse, T, n->id);
  if (!nlf && !nrf)
    fprintf(g->out, "      upl_c[0] = cblas_%cdot((int)upl_K, upl_l, 1, upl_r, 1);\n", p);
  else if (!nrf)
    fprintf(g->out,
            ta ? "      cblas_%cgemv(CblasRowMajor, CblasTrans, (int)upl_K, (int)upl_M, 1, "
                 "upl_l, (int)upl_M, upl_r, 1, 0, upl_c, 1);\n"
               : "      cblas_%cgemv(CblasRowMajor, CblasNoTrans, (int)upl_M, (int)upl_K, 1, "
                 "upl_l, (int)upl_K, upl_r, 1, 0, upl_c, 1);\n",
            p);
  else if (!nlf)
    fprintf(g->out,
            tb ? "      cblas_%cgemv(CblasRowMajor, CblasNoTrans, (int)upl_N, (int)upl_K, 1, "
                 "upl_r, (int)upl_K, upl_l, 1, 0, upl_c, 1);\n"
               : "      cblas_%cgemv(CblasRowMajor, CblasTrans, (int)upl_K, (int)upl_N, 1, "
                 "upl_r, (int)upl_N, upl_l, 1, 0, upl_c, 1);\n",
            p);
  else
    fprintf(g->out,
            "      cblas_%cgemm(CblasRowMajor, %s, %s, (int)upl_M, (int)upl_N, (int)upl_K, 1, "
            "upl_l, (int)%s, upl_r, (int)%s, 0, upl_c, (int)upl_N);\n",
            p, ta ? "CblasTrans" : "CblasNoTrans", tb ? "CblasTrans" : "CblasNoTrans",
            ta ? "upl_M" : "upl_K", tb ? "upl_K" : "upl_N");
  fprintf(g->out, "    }\n  }\n");
  if (lcopy) fprintf(g->out, "  free(%s);\n", lname);
  if (rcopy) fprintf(g->out, "  free(%s);\n", rname);
  return 0;
}

/* ----------------------------------------------------------------- reduce */

static int emit_reduce(cg *g, const ir_tnode *n, const gram_binding *b,
                       const char *const *opn, const ir_type *const *opt) {
  const ir_type *x = opt[0];
  unsigned red = 0;
  for (int i = 0; i < b->attrs[0].n; i++) red |= 1u << b->attrs[0].v[i];
  static const char *const body[] = {"upl_acc + %s", "upl_acc * %s",
                                     "upl_max(upl_acc, %s)", "upl_min(upl_acc, %s)"};
  int bi = b->attrs[1].v[0];
  if (bi < 0 || bi >= 4) return fail(g, "reduce: unknown body %d", bi);
  int var[IR_MAX_RANK];
  for (int j = 0; j < x->rank; j++) var[j] = j;
  char off[STR], acc[STR] = "", step[STR] = "";
  offset_str(g, x, var, off);
  cat(acc, "%s[%s]", opn[0], off);
  cat(step, body[bi], acc);
  const char *T = ctype(n->type.elem);
  fprintf(g->out, "  {\n    long upl_o = 0;\n");
  for (int pass = 0; pass < 2; pass++) {
    for (int j = 0; j < x->rank; j++) {
      if (!!(red & (1u << j)) != pass) continue;
      char d[STR];
      dim_str(g, x->dims[j], d);
      fprintf(g->out, "    for (long upl_i%d = 0; upl_i%d < %s; upl_i%d++)\n", j, j, d, j);
    }
    if (pass == 0) fprintf(g->out, "    {\n      %s upl_acc = %s[0];\n", T, opn[1]);
  }
  fprintf(g->out, "      upl_acc = %s;\n    upl_v%d[upl_o++] = upl_acc;\n    }\n  }\n", step,
          n->id);
  return 0;
}

/* ----------------------------------------------------------------- op nodes */

static int emit_op(cg *g, const ir_tnode *n) {
  const gram_op *op = n->op->owner;
  gram_binding b;
  char err[256];
  if (gram_bind(op, n->attrs, &b, err, sizeof err)) return fail(g, "%s", err);
  const char *kn = b.kernel->name;
  /* the kernel's operands: buffers and types */
  char opn[INTERP_MAX_ARGS][64];
  ir_type kt[INTERP_MAX_ARGS];
  const ir_type *opt[INTERP_MAX_ARGS];
  const char *opp[INTERP_MAX_ARGS];
  for (int i = 0; i < b.nargs; i++) {
    if (b.args[i] >= 0) {
      const ir_tnode *a = n->ops[b.args[i]];
      snprintf(opn[i], sizeof opn[i], "upl_v%d", a->id);
      opt[i] = &a->type;
    } else {
      snprintf(opn[i], sizeof opn[i], "upl_v%d_k%d", n->id, i);
      memset(&kt[i], 0, sizeof kt[i]);
      kt[i].elem = n->type.elem;
      fprintf(g->out, "  %s %s[1] = {%.17g};\n", ctype(n->type.elem), opn[i], b.kconst[i]);
      opt[i] = &kt[i];
    }
    opp[i] = opn[i];
  }
  const ir_type *t = &n->type;
  char dst[64], cnt[STR];
  snprintf(dst, sizeof dst, "upl_v%d", n->id);
  prod_str(g, t->dims, t->rank, cnt);
  fprintf(g->out, "  %s *%s = upl_alloc(%s * sizeof(%s));\n", ctype(t->elem), dst, cnt,
          ctype(t->elem));

  char a[INTERP_MAX_ARGS][STR], e[STR] = "";
  for (int i = 0; i < b.nargs; i++) bcast_access(g, opn[i], opt[i], t->rank, a[i]);
  static const char *const unary[][2] = {
      {"neg", "-%s"}, {"sqrt", "sqrt(%s)"}, {"exp", "exp(%s)"},
      {"rsqrt", "1 / sqrt(%s)"}, {"reciprocal", "1 / %s"}, {"abs", "upl_abs(%s)"}};
  static const char *const binary[][2] = {
      {"add", "%s + %s"}, {"sub", "%s - %s"}, {"mul", "%s * %s"},
      {"div", "%s / %s"}, {"max", "upl_max(%s, %s)"}, {"min", "upl_min(%s, %s)"}};
  static const char *const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
    if (!strcmp(kn, unary[i][0])) {
      cat(e, unary[i][1], a[0]);
      emit_loop(g, t, dst, e);
      return 0;
    }
  for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
    if (!strcmp(kn, binary[i][0])) {
      cat(e, binary[i][1], a[0], a[1]);
      emit_loop(g, t, dst, e);
      return 0;
    }
  if (!strcmp(kn, "compare")) {
    int dir = b.attrs[0].v[0];
    if (dir < 0 || dir >= INTERP_CMP_COUNT) return fail(g, "compare: bad direction");
    cat(e, "%s %s %s", a[0], cmp[dir], a[1]);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "select")) {
    cat(e, "%s ? %s : %s", a[0], a[1], a[2]);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "dot_general")) return emit_dot(g, n, &b, opp, opt);
  if (!strcmp(kn, "reduce")) return emit_reduce(g, n, &b, opp, opt);
  if (!strcmp(kn, "transpose") || !strcmp(kn, "broadcast_in_dim")) {
    /* result dim i reads operand dim src[i] (-1: none) */
    const ir_type *x = opt[0];
    int var[IR_MAX_RANK];
    for (int j = 0; j < x->rank; j++) var[j] = -1;
    const interp_attr *at = &b.attrs[0];
    if (at->n != (kn[0] == 't' ? t->rank : x->rank))
      return fail(g, "%s: attribute has %d entries", kn, at->n);
    if (kn[0] == 't')
      for (int i = 0; i < t->rank; i++) var[at->v[i]] = i;
    else
      for (int j = 0; j < x->rank; j++) var[j] = at->v[j];
    char off[STR];
    offset_str(g, x, var, off);
    cat(e, "%s[%s]", opn[0], off);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "reshape")) {
    fprintf(g->out, "  memcpy(%s, %s, %s * sizeof(%s));\n", dst, opn[0], cnt, ctype(t->elem));
    return 0;
  }
  if (!strcmp(kn, "iota")) {
    cat(e, "upl_i%d", b.attrs[0].v[0]);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "constant") || !strcmp(kn, "fill")) {
    cat(e, "%.17g", b.attrs[0].d);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "fill_scalar")) {
    cat(e, "%s[0]", opn[0]);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (!strcmp(kn, "empty")) {
    emit_loop(g, t, dst, "0");
    return 0;
  }
  return fail(g, "no C lowering for the semantic kernel '%s' (op %s)", kn, op->name);
}

/* ----------------------------------------------------------------- leaves */

static int emit_leaf(cg *g, const ir_tnode *n) {
  const ir_type *t = &n->type;
  const char *T = ctype(t->elem);
  if (n->kind == IR_TN_ARG) {
    if (n->arg < 0 || n->arg >= g->k->nvars) return fail(g, "argument %d out of range", n->arg);
    const ir_var *v = g->k->vars[n->arg];
    if (v->param_index < 0 || (v->kind != IR_VAR_ARRAY && v->kind != IR_VAR_SCALAR))
      return fail(g, "argument %s is not a parameter of %s", v->name, g->k->name);
    if (v->elem != t->elem)
      return fail(g, "argument %s is %s in the program, %s in C", v->name,
                  ir_elem_mlir_name(t->elem), ir_elem_mlir_name(v->elem));
    fprintf(g->out, "  %s *upl_v%d = (%s *)%s%s;\n", T, n->id, T,
            v->kind == IR_VAR_SCALAR ? "&" : "", v->name);
    return 0;
  }
  char cnt[STR], e[STR] = "";
  prod_str(g, t->dims, t->rank, cnt);
  fprintf(g->out, "  %s *upl_v%d = upl_alloc(%s * sizeof(%s));\n", T, n->id, cnt, T);
  char dst[64];
  snprintf(dst, sizeof dst, "upl_v%d", n->id);
  if (n->kind == IR_TN_CONST) {
    if (isinf(n->value))
      cat(e, "%sHUGE_VAL", n->value < 0 ? "-" : "");
    else if (isnan(n->value))
      cat(e, "NAN");
    else
      cat(e, "%.17g", n->value);
    emit_loop(g, t, dst, e);
    return 0;
  }
  if (n->kind == IR_TN_MASK) {
    const ir_mask *m = n->mask;
    if (!m->ncons) cat(e, "1");
    for (int c = 0; c < m->ncons; c++) {
      const ir_mask_con *mc = &m->cons[c];
      cat(e, "%s(", c ? " && " : "");
      for (int i = 0; i < t->rank && i < IR_MAX_RANK; i++)
        if (mc->coef[i]) cat(e, "%d*upl_i%d + ", mc->coef[i], i);
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
        if (mc->pcoef[p]) {
          if (mc->sym[p] < 0 || mc->sym[p] >= g->k->nvars)
            return fail(g, "mask names size symbol %d", mc->sym[p]);
          cat(e, "%d*upl_%s + ", mc->pcoef[p], g->k->vars[mc->sym[p]]->name);
        }
      cat(e, "%d %s 0)", mc->c, mc->eq ? "==" : ">=");
    }
    emit_loop(g, t, dst, e);
    return 0;
  }
  UNREACHABLE();
}

/* ------------------------------------------------------------ the function */

/* An affine dim expression of the signature, as C. */
static void print_dim(const ir_kernel *k, const ir_expr *e, FILE *out) {
  ir_expr_print(k, e, out);
}

static void print_signature(const ir_kernel *k, FILE *out) {
  fprintf(out, "void %s(", k->name);
  for (int i = 0; i < k->nparams; i++) {
    const ir_var *v = k->vars[k->params[i]];
    fprintf(out, "%s%s %s", i ? ", " : "", v->kind == IR_VAR_SIZE ? "int" : ctype(v->elem),
            v->name);
    for (int d = 0; d < v->rank; d++) {
      fputc('[', out);
      print_dim(k, v->dims[d], out);
      fputc(']', out);
    }
  }
  fprintf(out, ")");
}

static const char prelude[] =
    "#include <math.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "\n"
    "#include <cblas.h>\n"
    "\n"
    "static void *upl_alloc(size_t n) {\n"
    "  void *p = malloc(n ? n : 1);\n"
    "  if (!p) {\n"
    "    fprintf(stderr, \"uplift-generated code: out of memory (%zu bytes)\\n\", n);\n"
    "    abort();\n"
    "  }\n"
    "  return p;\n"
    "}\n"
    "/* maximum/minimum as the interpreter defines them (NaN propagates) */\n"
    "static inline double upl_max(double a, double b) {\n"
    "  if (a != a || b != b) return a + b;\n"
    "  if (a == b) return signbit(a) ? b : a;\n"
    "  return a > b ? a : b;\n"
    "}\n"
    "static inline double upl_min(double a, double b) {\n"
    "  if (a != a || b != b) return a + b;\n"
    "  if (a == b) return signbit(a) ? a : b;\n"
    "  return a < b ? a : b;\n"
    "}\n"
    "static inline double upl_abs(double a) { return a < 0 ? -a : a; }\n";

int emit_c_func(const gram_dialect *d, const ir_tprog *p, const ir_kernel *k,
                FILE *out, char *err, size_t errn) {
  (void)d;
  char dummy[8];
  cg g = {out, k, err ? err : dummy, err ? errn : sizeof dummy};
  g.err[0] = 0;
  int cap = 4096;
  const ir_tnode **nodes = ir_malloc((size_t)cap * sizeof *nodes);
  int nn = ir_tp_topo(p->results, p->nresults, nodes, cap);
  int rc = 0;
  if (nn < 0) {
    rc = fail(&g, "program too large (more than %d nodes)", cap);
    goto done;
  }
  /* results: which parameter each one is written to */
  int rvar[IR_TP_MAX_RESULTS];
  for (int i = 0; i < p->nresults; i++) {
    rvar[i] = p->result_names[i] ? ir_kernel_find_var(k, p->result_names[i]) : -1;
    if (rvar[i] < 0 || k->vars[rvar[i]]->kind != IR_VAR_ARRAY) {
      rc = fail(&g, "result %d (%s) is not an array parameter of %s", i,
                p->result_names[i] ? p->result_names[i] : "?", k->name);
      goto done;
    }
  }

  fprintf(out,
          "/* generated by uplift: %s raised to a tensor program and written as C\n"
          " * with CBLAS calls (compile with `pkg-config --cflags --libs openblas`).\n"
          " * A drop-in replacement for %s of %s. */\n",
          k->name, k->name, k->file ? k->file : "the original");
  fputs(prelude, out);
  fputc('\n', out);
  print_signature(k, out);
  fprintf(out, " {\n");
  /* sizes: checked, then as longs */
  int nsz = 0;
  for (int i = 0; i < k->nparams; i++)
    if (k->vars[k->params[i]]->kind == IR_VAR_SIZE) nsz++;
  if (nsz) {
    fprintf(out, "  if (");
    int c = 0;
    for (int i = 0; i < k->nparams; i++) {
      const ir_var *v = k->vars[k->params[i]];
      if (v->kind == IR_VAR_SIZE) fprintf(out, "%s%s < 0", c++ ? " || " : "", v->name);
    }
    fprintf(out, ") {\n    fprintf(stderr, \"%s: sizes must be >= 0:", k->name);
    for (int i = 0; i < k->nparams; i++) {
      const ir_var *v = k->vars[k->params[i]];
      if (v->kind == IR_VAR_SIZE) fprintf(out, " %s=%%d", v->name);
    }
    fprintf(out, "\\n\"");
    for (int i = 0; i < k->nparams; i++) {
      const ir_var *v = k->vars[k->params[i]];
      if (v->kind == IR_VAR_SIZE) fprintf(out, ", %s", v->name);
    }
    fprintf(out, ");\n    abort();\n  }\n");
    for (int i = 0; i < k->nparams; i++) {
      const ir_var *v = k->vars[k->params[i]];
      if (v->kind == IR_VAR_SIZE)
        fprintf(out, "  const long upl_%s = %s;\n  (void)upl_%s;\n", v->name, v->name, v->name);
    }
  }
  for (int i = 0; i < nn && !rc; i++) {
    const ir_tnode *n = nodes[i];
    rc = n->kind == IR_TN_OP ? emit_op(&g, n) : emit_leaf(&g, n);
  }
  if (rc) goto done;
  /* copy the results out, then free the temporaries */
  for (int i = 0; i < p->nresults; i++) {
    const ir_tnode *r = p->results[i];
    const ir_var *v = k->vars[rvar[i]];
    if (r->kind == IR_TN_ARG && r->arg == rvar[i]) continue; /* unchanged */
    char cnt[STR];
    prod_str(&g, r->type.dims, r->type.rank, cnt);
    fprintf(out, "  for (long upl_q = 0; upl_q < %s; upl_q++)\n", cnt);
    fprintf(out, "    ((%s *)%s)[upl_q] = (%s)upl_v%d[upl_q];\n", ctype(v->elem), v->name,
            ctype(v->elem), r->id);
  }
  for (int i = 0; i < nn; i++)
    if (nodes[i]->kind != IR_TN_ARG) fprintf(out, "  free(upl_v%d);\n", nodes[i]->id);
  fprintf(out, "}\n");
done:
  ir_free(nodes);
  return rc;
}
