/*
 * c.c - the C+BLAS writer (docs/architecture.md section 9): a raised tensor program
 * becomes one C99 function with the ORIGINAL kernel's signature (same name,
 * parameter order and types, VLA array parameters), so that it can replace
 * the original at link time.
 *
 * How: the program's DAG is walked in topological order (ir_tp_topo).  Every
 * op node is lowered from its semantic kernel (gram_bind: the interp/ kernel
 * name and its attribute values), never from the op's or the benchmark
 * kernel's name.  Dims are size symbols and become the size parameters'
 * values at run time.
 *
 * Fusion.  Nodes whose value at one index can be written as a C expression
 * of their operands' values ("fusible": the elementwise kernels, compare and
 * select, the gathers transpose and broadcast_in_dim, a dot_general without
 * contracting dims (an outer product: l[b,i] * r[b,j]), iota, constants,
 * masks) are not given a buffer when they can be inlined into the one loop
 * that reads them: a node is materialised (a row-major buffer `upl_v<id>`,
 * malloc'd and freed at the end) only if it is an argument (the caller's
 * array), a result, read by a consumer that needs memory (BLAS, memcpy),
 * not fusible (dot_general with contraction, reduce, reshape), or read
 * twice, or read by a loop that would evaluate it more often than it has
 * elements (a vector broadcast over a matrix).  "Free" nodes (constants,
 * masks, iota, gathers of a buffer, slices (a guarded load of their
 * operand's buffer at shifted indices: a stencil's neighbours) and selects
 * on a mask between such: index arithmetic and at most one load) are
 * inlined into every reader whatever the count.  The result: one loop nest
 * per maximal elementwise tree, reading the materialised leaves; a reduce
 * also reads its operand tree inline.
 *   - dot_general with contraction: cblas_?gemm / ?gemv / ?dot (d for f64,
 *     s for f32) over the flattened (batch, free, contracting) dims, batches
 *     as a loop; an operand is read in place (transpose flag, leading
 *     dimension, increment, batch stride: dot_operand) unless its dims are
 *     interleaved, then copied into (batch, free, contract) order; the same
 *     operand on both sides, not accumulated, is a syrk, mirrored.  When its only reader
 *     is an elementwise add of the same type (directly or through a multiply
 *     by a rank-0 scale), and the add is a loop root, the add's other operand
 *     is written into the add's buffer and the BLAS call accumulates into it
 *     (beta = 1, alpha = the scale): no buffer and no pass for the product.
 *   - a masked contraction (a sum of select(mask, bx * by, 0), bx and by
 *     broadcasts): a gemm on the masked matrix when the other operand (read
 *     in place when it can be) is all finite, checked at run time;
 *     otherwise the exact loops
 *     (masked_dot_open, docs/emit-c.md).
 *   - everything else: plain loops from the kernel's semantics
 *     (interp/ops_kernels.inc): numpy/CHLO broadcasting for the elementwise
 *     ops (index 0 where an operand dim is the constant 1), gathers for
 *     transpose and broadcast_in_dim, a fold in row-major order of the
 *     reduced dims for reduce.
 * Masked windows (docs/emit-c.md): an in-place select(mask, e, base) whose
 * base is the array's own value outside the mask loops over the mask's
 * affine window only; a reduce of select(mask, e, identity) folds over the
 * window of its reduced dims (a masked contraction's gemm too); a
 * temporary read only inside such a window is computed there only.  In a
 * kept loop, temporaries of fixed size are allocated once, and a slice
 * that is a row of its array is a pointer into it.
 * Poison is not represented: the raised program is only used where the
 * original is defined.
 *
 * Results.  A result is written straight into the array it is returned in
 * (its buffer is that array) when nothing reads the array's old value after
 * the result's loop starts, except that loop itself at the element it
 * writes (the reads are collected per loop root, through the inlined
 * trees); otherwise it gets a buffer and is copied into the array after
 * everything has been computed (a result may read the old value of an array
 * it overwrites).
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

/* What a node is to the fusion. */
typedef enum nkind {
  NK_ARG,    /* argument leaf: the caller's array or &scalar */
  NK_VALUE,  /* constant or mask leaf: an expression of the indices */
  NK_ELEM,   /* elementwise kernel with numpy broadcasting (add, select, ...) */
  NK_GATHER, /* transpose, broadcast_in_dim: operand at remapped indices */
  NK_OUTER,  /* dot_general without contracting dims: l * r */
  NK_CHEAP,  /* constant, fill, iota, empty, fill_scalar */
  NK_REDUCE, /* a loop root that reads its operand tree inline */
  NK_SLICE,  /* slice, reverse: one (guarded) load of its operand's buffer */
  NK_OTHER   /* needs its operands in memory: BLAS dot_general, reshape */
} nkind;

/* Per node (indexed by node id). */
typedef struct ninfo {
  nkind kind;
  gram_binding b;            /* op nodes */
  int pos;                   /* position in the topological order */
  int users;                 /* operand edges that read the node */
  const struct ir_tnode *user; /* the reader, if users == 1 */
  int slot;                  /* ... and the kernel operand slot it reads */
  int blocked;               /* read by an NK_OTHER or NK_SLICE consumer */
  int result;                /* a program result */
  int free_;                 /* cheap enough to inline into every reader */
  int mat;                   /* materialised: has a buffer upl_v<id> */
  int absorbed;              /* a dot emitted by the add that reads it */
  const struct ir_tnode *acc; /* loop root add: the dot it accumulates */
  const struct ir_tnode *acc_mul; /* ... through this multiply, or NULL */
  int acc_other;             /* the add's slot that is not the dot */
  int inplace;               /* written straight into this var, or -1 */
} ninfo;

/* One read of an argument array inside the code of a loop root. */
typedef struct aread {
  int var, pos, root, aligned;
} aread;

/* The kept loops around an item of a nested kept loop's body (issue 14),
 * innermost first: the item is a static function whose trailing `long`
 * parameters are their iterators (outermost first), and which cuts their
 * slices it reads itself. */
typedef struct encl {
  const ir_tloop *loop;
  const struct encl *up;
} encl;

typedef struct cg {
  FILE *out;
  const ir_kernel *k;
  ir_error *err; /* may be NULL */
  /* per node: open addressing on the node pointer (node ids are store-wide
   * and may be large), hcap a power of two above twice the node count */
  const ir_tnode **hkey;
  ninfo *info;
  size_t hcap;
  aread *reads; /* the argument reads of every root */
  int nreads, capreads;
  const ir_tloop *loop; /* the kept loop around the program, or NULL */
  int part;             /* a part of a sequence (emit_c_seq) or an item of a
                           nested kept loop: a static function after the
                           file's prelude */
  const encl *outer;    /* an item: the kept loops around it, or NULL */
} cg;

/* The slice of the kept loop around the program or of one around its item
 * (g->outer) that var v is, or NULL. */
static const ir_tslice *slice_of(const cg *g, int v) {
  const ir_tslice *s = ir_tloop_slice(g->loop, v);
  for (const encl *e = g->outer; e && !s; e = e->up) s = ir_tloop_slice(e->loop, v);
  return s;
}

/* The ninfo of node n (inserted on first use). */
static ninfo *ni(const cg *g, const ir_tnode *n) {
  size_t i = ((size_t)n->id * 2654435761u) & (g->hcap - 1);
  while (g->hkey[i] && g->hkey[i] != n) i = (i + 1) & (g->hcap - 1);
  g->hkey[i] = n;
  return &g->info[i];
}

static int fail(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(cg *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_error_vset(g->err, (ir_pos){0}, IR_ERR_INPUT, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *ctype(ir_elem e) {
  switch (e) {
  case IR_F64: return "double";
  case IR_F32: return "float";
  case IR_I1: return "unsigned char";
  default: return ir_elem_c_name(e); /* the integer types */
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

/* --------------------------------------------------------- expressions */

/* A C literal of value v as element type e: "0.5", "2.0", "(-1.0)",
 * "((float)0.5)", "HUGE_VAL". */
static void literal(ir_buf *s, double v, ir_elem e) {
  char num[64];
  if (isinf(v))
    snprintf(num, sizeof num, "%sHUGE_VAL", v < 0 ? "-" : "");
  else if (isnan(v))
    snprintf(num, sizeof num, "NAN");
  else {
    snprintf(num, sizeof num, "%.17g", v);
    if (!strpbrk(num, ".eEn")) strcat(num, ".0"); /* a double, not an int */
  }
  if (e == IR_F64)
    ir_buf_printf(s, num[0] == '-' ? "(%s)" : "%s", num);
  else
    ir_buf_printf(s, "((%s)%s)", ctype(e), num);
}

/* The indices at which kernel operand `slot` of op node n is read, when n
 * is evaluated at var (var[j]: loop variable of n's dim j, -1: index 0;
 * for a reduce, slot 0 is read at var itself, over the operand's dims).
 * ot is the operand's type.  Writes ovar[0..ot->rank-1]. */
static void operand_vars(const cg *g, const ir_tnode *n, int slot, const int *var,
                         const ir_type *ot, int *ovar) {
  const ninfo *in = ni(g, n);
  const gram_binding *b = &in->b;
  int r = n->type.rank;
  for (int j = 0; j < ot->rank; j++) ovar[j] = -1;
  switch (in->kind) {
  case NK_GATHER: {
    const interp_attr *at = &b->attrs[0];
    if (b->kernel->name[0] == 't')
      for (int i = 0; i < r && i < at->n; i++) ovar[at->v[i]] = var[i];
    else
      for (int j = 0; j < ot->rank && j < at->n; j++) ovar[j] = var[at->v[j]];
    break;
  }
  case NK_OUTER: {
    /* result dims: batch, lhs free, rhs free (in operand order) */
    const interp_attr *bd = &b->attrs[slot];
    unsigned used = 0;
    for (int i = 0; i < bd->n; i++) {
      ovar[bd->v[i]] = var[i];
      used |= 1u << bd->v[i];
    }
    int q = bd->n;
    if (slot == 1) { /* skip the lhs free dims */
      const ir_type *lt = &n->ops[b->args[0]]->type;
      q += lt->rank - bd->n;
    }
    for (int d = 0; d < ot->rank; d++)
      if (!(used & (1u << d))) ovar[d] = var[q++];
    break;
  }
  case NK_REDUCE:
    if (slot == 0)
      for (int j = 0; j < ot->rank; j++) ovar[j] = var[j];
    break;
  default: /* numpy broadcasting, aligned to the right */
    for (int j = 0; j < ot->rank && j + r - ot->rank >= 0; j++)
      ovar[j] = var[j + r - ot->rank];
    break;
  }
  for (int j = 0; j < ot->rank; j++)
    if (ot->dims[j] == IR_DIM_ONE) ovar[j] = -1;
}

static void gen(cg *g, const ir_tnode *n, const int *var, ir_buf *s);

/* The type of kernel operand slot of n (a kernel constant: rank 0). */
static ir_type slot_type(const cg *g, const ir_tnode *n, int slot) {
  const gram_binding *b = &ni(g, n)->b;
  if (b->args[slot] >= 0) return n->ops[b->args[slot]]->type;
  ir_type t;
  memset(&t, 0, sizeof t);
  ir_elem elems[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < n->nops && i < IR_TP_MAX_OPERANDS; i++) elems[i] = n->ops[i]->type.elem;
  t.elem = gram_binding_const_elem(b, elems, n->type.elem); /* a rank-0 constant */
  return t;
}

/* Append kernel operand `slot` of n read at ovar (its own indices). */
static void slot_expr(cg *g, const ir_tnode *n, int slot, const int *ovar, ir_buf *s) {
  const gram_binding *b = &ni(g, n)->b;
  if (b->args[slot] >= 0) {
    gen(g, n->ops[b->args[slot]], ovar, s);
  } else {
    ir_elem e = slot_type(g, n, slot).elem;
    literal(s, gram_binding_kconst(b, slot, e), e);
  }
}

/* Append kernel operand `slot` of n as read when n is evaluated at var. */
static void operand_expr(cg *g, const ir_tnode *n, int slot, const int *var, ir_buf *s) {
  ir_type ot = slot_type(g, n, slot);
  int ovar[IR_MAX_RANK];
  operand_vars(g, n, slot, var, &ot, ovar);
  slot_expr(g, n, slot, ovar, s);
}

static const char *const unary_ops[][2] = {
    {"neg", "-%s"}, {"sqrt", "sqrt(%s)"}, {"exp", "exp(%s)"},
    {"rsqrt", "1 / sqrt(%s)"}, {"reciprocal", "1 / %s"}, {"abs", "upl_abs(%s)"}};
static const char *const binary_ops[][2] = {
    {"add", "%s + %s"}, {"sub", "%s - %s"}, {"mul", "%s * %s"},
    {"div", "%s / %s"}, {"max", "upl_max(%s, %s)"}, {"min", "upl_min(%s, %s)"},
    {"fmax", "upl_cfmax(%s, %s)"}, {"fmin", "upl_cfmin(%s, %s)"}};
static const char *const cmp_ops[] = {"==", "!=", "<", "<=", ">", ">="};
/* Integer data: + - * and negation in unsigned arithmetic, which wraps as
 * the tensor program's integer ops do (signed overflow is undefined in C);
 * the result is converted back to the element type (gcc: modulo 2^N).
 * max, min and abs in long (upl_maxl, ...), exact for int and long. */
static const struct {
  const char *kn;
  int arity;
  const char *tmpl[3]; /* 8 to 32 bits, long, unsigned long */
} int_ops[] = {
    {"neg", 1, {"0u - (unsigned)(%s)", "0ul - (unsigned long)(%s)", "0ul - (%s)"}},
    {"add", 2, {"(unsigned)(%s) + (unsigned)(%s)", "(unsigned long)(%s) + (unsigned long)(%s)",
                "(%s) + (%s)"}},
    {"sub", 2, {"(unsigned)(%s) - (unsigned)(%s)", "(unsigned long)(%s) - (unsigned long)(%s)",
                "(%s) - (%s)"}},
    {"mul", 2, {"(unsigned)(%s) * (unsigned)(%s)", "(unsigned long)(%s) * (unsigned long)(%s)",
                "(%s) * (%s)"}},
    {"max", 2, {"upl_maxl(%s, %s)", "upl_maxl(%s, %s)", "upl_maxul(%s, %s)"}},
    {"min", 2, {"upl_minl(%s, %s)", "upl_minl(%s, %s)", "upl_minul(%s, %s)"}},
    {"abs", 1, {"upl_absl(%s)", "upl_absl(%s)", "%s"}},
    /* conversions: the value cast to the result type (gen_value wraps every
     * value in a cast to its type) */
    {"convert", 1, {"%s", "%s", "%s"}},
    /* shifts: built in gen_value (the operand in the type of the shift's
     * signedness) */
    {"shl", 2, {"%s", "%s", "%s"}},
    {"shra", 2, {"%s", "%s", "%s"}},
    {"shrl", 2, {"%s", "%s", "%s"}}};

/* Which int_ops template fits integer type e. */
static int int_tmpl(ir_elem e) {
  return e == IR_U64 ? 2 : ir_elem_bits(e) == 64;
}


/* The template of an elementwise kernel ("%s + %s"), with its arity; NULL
 * if kn is not one. */
static const char *elem_template(const char *kn, ir_elem e, int *arity) {
  for (size_t i = 0; i < sizeof int_ops / sizeof int_ops[0] && !ir_elem_is_float(e); i++)
    if (!strcmp(kn, int_ops[i].kn)) return *arity = int_ops[i].arity, int_ops[i].tmpl[int_tmpl(e)];
  /* integer data converted to a floating value: C's conversion (gen_value
   * casts an f32 value; an f64 one is cast here, so that the operations
   * around it are not integer ones) */
  if (!strcmp(kn, "convert")) return *arity = 1, e == IR_F64 ? "(double)(%s)" : "%s";
  for (size_t i = 0; i < sizeof unary_ops / sizeof unary_ops[0]; i++)
    if (!strcmp(kn, unary_ops[i][0])) return *arity = 1, unary_ops[i][1];
  for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
    if (!strcmp(kn, binary_ops[i][0])) return *arity = 2, binary_ops[i][1];
  if (!strcmp(kn, "select")) return *arity = 3, "%s ? %s : %s";
  if (!strcmp(kn, "compare")) return *arity = 2, "%s";
  return NULL;
}

/* A slice (docs/ops.md) at index var: its operand's element at start +
 * the index in a kept dim, start in a dropped one (counted from the dim's
 * end for keep 2), or 0 where that falls outside the operand (whose buffer
 * exists: a slice blocks its operand). */
static void slice_expr(cg *g, const ir_tnode *n, const int *var, ir_buf *s) {
  const ninfo *in = ni(g, n);
  const ir_tnode *x = n->ops[in->b.args[0]];
  /* pad (issue 14): starts -low, every dim kept, its constant padding
   * value outside x */
  int pad = !strcmp(in->b.kernel->name, "pad");
  const interp_attr *st = &in->b.attrs[0], *keep = &in->b.attrs[1];
  char cond[STR] = "", off[STR] = "";
  for (int d = 0, k = 0; d < x->type.rank; d++) {
    char j[STR] = "", dim[STR], stride[STR];
    int kd = pad ? 1 : keep->v[d], sd = pad ? -st->v[d] : st->v[d];
    dim_str(g, x->type.dims[d], dim);
    if (kd == 1) {
      if (var[k] >= 0) cat(j, "(upl_i%d + %dL)", var[k], sd);
      else cat(j, "%dL", sd); /* a dim of extent 1: index 0 */
      k++;
    } else if (kd == 2) cat(j, "(%s + %dL)", dim, sd);
    else cat(j, "%dL", sd);
    stride_str(g, &x->type, d, stride);
    cat(cond, "%s%s >= 0 && %s < %s", cond[0] ? " && " : "", j, j, dim);
    cat(off, "%s%s*%s", off[0] ? " + " : "", j, stride);
  }
  ir_buf_printf(s, "(%s) ? upl_v%d[%s] : ", cond[0] ? cond : "1", x->id, off[0] ? off : "0");
  literal(s, pad ? in->b.kconst[1] : 0, n->type.elem);
}

/* ---- reverse: x read at the flipped index of its dim (its operand is in
 * memory, as a slice's: one load) */
static void reverse_expr(cg *g, const ir_tnode *n, const int *var, ir_buf *s) {
  const ninfo *in = ni(g, n);
  const ir_tnode *x = n->ops[in->b.args[0]];
  int flip = in->b.attrs[0].v[0];
  char off[STR] = "";
  for (int d = 0; d < x->type.rank; d++) {
    if (var[d] < 0 || x->type.dims[d] == IR_DIM_ONE) continue;
    char dim[STR], stride[STR];
    dim_str(g, x->type.dims[d], dim);
    stride_str(g, &x->type, d, stride);
    if (d == flip) cat(off, "%s(%s - 1 - upl_i%d)*%s", off[0] ? " + " : "", dim, var[d], stride);
    else cat(off, "%supl_i%d*%s", off[0] ? " + " : "", var[d], stride);
  }
  ir_buf_printf(s, "upl_v%d[%s]", x->id, off[0] ? off : "0");
}
/* ---- end reverse */

/* Append the value of node n at index var, computed (not read from n's
 * buffer): the loop body of a root, or an inlined subterm. */
static void gen_value(cg *g, const ir_tnode *n, const int *var, ir_buf *s) {
  const ir_type *t = &n->type;
  if (n->kind == IR_TN_CONST) {
    literal(s, n->value, t->elem);
    return;
  }
  if (n->kind == IR_TN_MASK) {
    const ir_mask *m = n->mask;
    ir_buf_printf(s, "(");
    if (!m->ncons) ir_buf_printf(s, "1");
    for (int c = 0; c < m->ncons; c++) {
      const ir_mask_con *mc = &m->cons[c];
      ir_buf_printf(s, "%s(", c ? " && " : "");
      for (int i = 0; i < t->rank && i < IR_MAX_RANK; i++)
        if (mc->coef[i] && var[i] >= 0) ir_buf_printf(s, "%d*upl_i%d + ", mc->coef[i], var[i]);
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
        if (mc->pcoef[p]) /* symbols checked by classify() */
          ir_buf_printf(s, "%d*upl_%s + ", mc->pcoef[p], g->k->vars[mc->sym[p]]->name);
      ir_buf_printf(s, "%d %s 0)", mc->c, mc->eq ? "==" : ">=");
    }
    ir_buf_printf(s, ")");
    return;
  }
  if (n->kind == IR_TN_ARG) { /* never computed: always read */
    char off[STR];
    offset_str(g, t, var, off);
    ir_buf_printf(s, "upl_v%d[%s]", n->id, off);
    return;
  }
  const ninfo *in = ni(g, n);
  const gram_binding *b = &in->b;
  const char *kn = interp_op_like(b->kernel->name); /* maxnum: max where defined */
  if (t->elem == IR_F64)
    ir_buf_printf(s, "(");
  else
    ir_buf_printf(s, "((%s)(", ctype(t->elem));
  int arity = 0;
  const char *tmpl = elem_template(kn, t->elem, &arity);
  if (in->kind == NK_ELEM && tmpl) {
    ir_buf a[3] = {{0}, {0}, {0}};
    for (int i = 0; i < arity && i < b->nargs; i++) operand_expr(g, n, i, var, &a[i]);
    if (!strcmp(kn, "compare"))
      ir_buf_printf(s, "%s %s %s", ir_buf_str(&a[0]), cmp_ops[b->attrs[0].v[0]], ir_buf_str(&a[1]));
    else if (!strcmp(kn, "shl") || !strcmp(kn, "shra") || !strcmp(kn, "shrl")) {
      /* in C, a count outside 0..N-1 is undefined: StableHLO's 0 or sign
       * fill, spelled out; the shifted value in the type of the shift's
       * signedness (>> of a signed value is arithmetic with gcc and clang) */
      int w = ir_elem_bits(t->elem), left = kn[2] == 'l' && kn[3] == 0;
      const char *st = left ? "unsigned long"
                            : ir_elem_c_name(ir_elem_int(w, !strcmp(kn, "shra")));
      const char *x = ir_buf_str(&a[0]), *c = ir_buf_str(&a[1]);
      ir_buf_printf(s, "(%s) < 0 || (%s) >= %d ? ", c, c, w);
      if (!strcmp(kn, "shra")) ir_buf_printf(s, "((%s)(%s) < 0 ? -1 : 0)", st, x);
      else ir_buf_printf(s, "0");
      ir_buf_printf(s, " : (%s)(%s) %s (%s)", st, x, left ? "<<" : ">>", c);
    }
    else
      ir_buf_printf(s, tmpl, ir_buf_str(&a[0]), ir_buf_str(&a[1]), ir_buf_str(&a[2]));
    for (int i = 0; i < 3; i++) ir_buf_free(&a[i]);
  } else if (in->kind == NK_OUTER) {
    ir_buf l = {0}, r = {0};
    operand_expr(g, n, 0, var, &l);
    operand_expr(g, n, 1, var, &r);
    ir_buf_printf(s, "%s * %s", ir_buf_str(&l), ir_buf_str(&r));
    ir_buf_free(&l);
    ir_buf_free(&r);
  } else if (in->kind == NK_GATHER || !strcmp(kn, "fill_scalar")) {
    operand_expr(g, n, 0, var, s);
  } else if (in->kind == NK_SLICE) {
    if (!strcmp(kn, "reverse")) reverse_expr(g, n, var, s);
    else slice_expr(g, n, var, s);
  } else if (!strcmp(kn, "iota")) {
    int d = b->attrs[0].v[0];
    if (d >= 0 && d < t->rank && var[d] >= 0)
      ir_buf_printf(s, "upl_i%d", var[d]);
    else
      ir_buf_printf(s, "0");
  } else if (!strcmp(kn, "constant") || !strcmp(kn, "fill")) {
    literal(s, b->attrs[0].d, t->elem);
  } else { /* empty; classify() admits nothing else here */
    ir_buf_printf(s, "0");
  }
  ir_buf_printf(s, t->elem == IR_F64 ? ")" : "))");
}

/* Append the value of node n at index var: a read of its buffer if it is
 * materialised, else its inlined expression. */
static void gen(cg *g, const ir_tnode *n, const int *var, ir_buf *s) {
  if (ni(g, n)->mat) {
    char off[STR];
    offset_str(g, &n->type, var, off);
    ir_buf_printf(s, "upl_v%d[%s]", n->id, off);
    return;
  }
  gen_value(g, n, var, s);
}

/* ---------------------------------------------------------------- windows */

/* The window of a loop nest: per loop var v (upl_i<v>, opened outermost
 * first in the order the caller gives), the bounds lo[v] <= upl_i<v> <
 * hi[v] implied by a mask's constraints, "" where a bound is the loop's own
 * (0, the dim).  A constraint bounds the innermost loop var it reads when
 * that var's coefficient is +1 or -1 (its other terms are outer vars and
 * sizes, known when the loop opens); any other constraint is not a bound
 * and only the test inside the loop (the select's, which stays) decides:
 * `exact` is then 0.  The window contains the mask's support, so a loop
 * over it skips only indices where the mask is false. */
typedef struct window {
  char lo[IR_MAX_RANK][STR], hi[IR_MAX_RANK][STR];
  int exact;
  int outer[IR_MAX_RANK]; /* a bound of var v reads another loop var */
} window;

/* Narrow w by the constraints of mask node m read with mask dim j at loop
 * var var[j] (-1: index 0); pos[v] is loop var v's nesting depth (-1: not
 * a loop of this nest, so a constraint reading it is not a bound). */
static void mask_window(const cg *g, const ir_tnode *m, const int *var, const int *pos,
                        window *w) {
  for (int c = 0; c < m->mask->ncons; c++) {
    const ir_mask_con *mc = &m->mask->cons[c];
    int coef[IR_MAX_RANK] = {0}, in = -1, ok = 1;
    for (int j = 0; j < m->type.rank && j < IR_MAX_RANK; j++)
      if (mc->coef[j] && var[j] >= 0) coef[var[j]] += mc->coef[j];
    for (int v = 0; v < IR_MAX_RANK; v++)
      if (coef[v]) {
        if (pos[v] < 0) ok = 0;
        else if (in < 0 || pos[v] > pos[in]) in = v;
      }
    if (!ok || in < 0 || (coef[in] != 1 && coef[in] != -1)) {
      w->exact = 0;
      continue;
    }
    /* the rest: coef[in]*i + rest (== or >=) 0, so i >= -rest (coef 1)
     * or i <= rest (coef -1) */
    char rest[STR] = "";
    int sg = -coef[in]; /* rest's sign in the bound */
    for (int v = 0; v < IR_MAX_RANK; v++)
      if (coef[v] && v != in) {
        cat(rest, " + %d*upl_i%d", sg * coef[v], v);
        w->outer[in] = 1;
      }
    for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
      if (mc->pcoef[p])
        cat(rest, " + %d*upl_%s", sg * mc->pcoef[p], g->k->vars[mc->sym[p]]->name);
    cat(rest, " + %dL", sg * mc->c);
    /* coef 1: lo = rest; coef -1: hi = rest + 1; an equality both */
    for (int side = 0; side < 2; side++) {
      if (!mc->eq && side != (coef[in] == 1 ? 0 : 1)) continue;
      char *b = side ? w->hi[in] : w->lo[in], old[STR];
      snprintf(old, sizeof old, "%s", b);
      b[0] = 0;
      if (!old[0])
        cat(b, side ? "(%s + 1L)" : "(%s)", rest + 3);
      else
        cat(b, side ? "upl_minl(%s, (%s + 1L))" : "upl_maxl(%s, (%s))", old, rest + 3);
    }
  }
}

/* The first index of dim d in the window bounded below by lo (lo[0] == 0:
 * unbounded), and the end (after the last) with upper bound hi. */
static void window_lo(const char *lo, char *buf) {
  buf[0] = 0;
  cat(buf, lo[0] ? "upl_maxl(0L, %s)" : "0L", lo);
}
static void window_hi(const cg *g, int d, const char *hi, char *buf) {
  char dim[STR];
  dim_str(g, d, dim);
  buf[0] = 0;
  if (hi[0]) cat(buf, "upl_minl(%s, %s)", dim, hi);
  else cat(buf, "%s", dim);
}

/* Open the loop of var v over dim d within bounds lo, hi (window_lo). */
static void window_for(cg *g, const char *lo, const char *hi, int v, int d) {
  char a[STR], b[STR];
  window_lo(lo, a);
  window_hi(g, d, hi, b);
  fprintf(g->out, "    for (long upl_i%d = %s; upl_i%d < %s; upl_i%d++)\n", v, a, v, b, v);
}

/* Does mask node a imply mask node b (every constraint of b is one of a's,
 * over the same dims)? */
static int mask_implies(const ir_tnode *a, const ir_tnode *b) {
  if (!ir_type_equal(&a->type, &b->type)) return 0;
  for (int cb = 0; cb < b->mask->ncons; cb++) {
    const ir_mask_con *y = &b->mask->cons[cb];
    int found = 0;
    for (int ca = 0; ca < a->mask->ncons && !found; ca++) {
      const ir_mask_con *x = &a->mask->cons[ca];
      int same = x->c == y->c && x->eq == y->eq;
      for (int j = 0; j < a->type.rank && j < IR_MAX_RANK; j++) same &= x->coef[j] == y->coef[j];
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
        same &= x->pcoef[p] == y->pcoef[p] && (!x->pcoef[p] || x->sym[p] == y->sym[p]);
      found = same;
    }
    if (!found) return 0;
  }
  return 1;
}

/* The select of node n on a mask node: its mask, or NULL. */
static const ir_tnode *select_mask(const cg *g, const ir_tnode *n) {
  if (n->kind != IR_TN_OP) return NULL;
  const ninfo *in = ni(g, n);
  if (in->kind != NK_ELEM || strcmp(in->b.kernel->name, "select") || in->b.nargs != 3 ||
      in->b.args[0] < 0 || in->b.args[2] < 0)
    return NULL;
  const ir_tnode *m = n->ops[in->b.args[0]];
  return m->kind == IR_TN_MASK ? m : NULL;
}

#define WINDOW_MAX_MASKS 8 /* selects in one chain (a longer one keeps the full loop) */

/* Is node x (of type t, read at the index it is written at) equal to the
 * current value of array v wherever every mask of ms[0..*nm-1] is false?
 * So when x is v itself, or a select whose other branch is such a node, its
 * mask added to ms unless it implies one there (a buffer holds its node's
 * value at every index, so a materialised select counts as its
 * expression). */
static int keeps_outside(const cg *g, const ir_tnode *x, const ir_type *t, int v,
                         const ir_tnode **ms, int *nm) {
  if (!ir_type_equal(&x->type, t)) return 0;
  if (x->kind == IR_TN_ARG) return x->arg == v;
  const ir_tnode *xm = select_mask(g, x);
  if (!xm) return 0;
  int known = 0;
  for (int i = 0; i < *nm && !known; i++) known = mask_implies(xm, ms[i]);
  if (!known) {
    if (*nm == WINDOW_MAX_MASKS) return 0;
    ms[(*nm)++] = xm;
  }
  return keeps_outside(g, x->ops[ni(g, x)->b.args[2]], t, v, ms, nm);
}

/* Widen w to hold window u as well (per var: the lower of the lower
 * bounds, the higher of the upper ones, none where either has none). */
static void window_union(window *w, const window *u) {
  for (int v = 0; v < IR_MAX_RANK; v++) {
    char *b[2] = {w->lo[v], w->hi[v]};
    const char *c[2] = {u->lo[v], u->hi[v]};
    for (int s = 0; s < 2; s++) {
      char old[STR];
      snprintf(old, sizeof old, "%s", b[s]);
      b[s][0] = 0;
      if (old[0] && c[s][0]) cat(b[s], s ? "upl_maxl(%s, %s)" : "upl_minl(%s, %s)", old, c[s]);
    }
    w->outer[v] |= u->outer[v];
  }
  w->exact &= u->exact;
}

/* Elementwise root n written in place: when its value is select(m, e,
 * base) with base the array's current value outside the masks of the
 * selects it goes through (keeps_outside), the union of those masks'
 * windows (1, in w) -- the loop can skip the rest, where it would only
 * write the array's own value again; 0 when there is no such window. */
static int inplace_window(const cg *g, const ir_tnode *n, window *w) {
  const ninfo *in = ni(g, n);
  const ir_tnode *ms[WINDOW_MAX_MASKS];
  int nm = 0;
  if (in->inplace < 0 || !select_mask(g, n) || !keeps_outside(g, n, &n->type, in->inplace, ms, &nm))
    return 0;
  int var[IR_MAX_RANK], pos[IR_MAX_RANK], ovar[IR_MAX_RANK];
  for (int j = 0; j < IR_MAX_RANK; j++) var[j] = pos[j] = j < n->type.rank ? j : -1;
  for (int i = 0; i < nm; i++) {
    window u;
    memset(&u, 0, sizeof u);
    u.exact = 1;
    /* each select of the chain has n's type: its mask is read as n's is */
    operand_vars(g, n, 0, var, &ms[i]->type, ovar);
    mask_window(g, ms[i], ovar, pos, &u);
    if (i) window_union(w, &u);
    else *w = u;
  }
  for (int j = 0; j < n->type.rank; j++)
    if (w->lo[j][0] || w->hi[j][0]) return 1;
  return 0;
}

/* The window of a reduce over its operand's dims (type it, the reduced
 * ones in red) where the operand is select(mask, e, identity), sel: bounds
 * on the reduced dims only, the kept dims being opened first (a bound may
 * read them) or, with box, read by no bound (the window is the same box
 * for every kept index).  1 if some reduced dim is bounded. */
static int reduce_window(const cg *g, const ir_tnode *sel, const ir_tnode *mask,
                         const ir_type *it, unsigned red, int box, window *w) {
  int var[IR_MAX_RANK], pos[IR_MAX_RANK], ovar[IR_MAX_RANK], p = 0, any = 0;
  for (int j = 0; j < IR_MAX_RANK; j++) var[j] = pos[j] = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int d = 0; d < it->rank; d++)
      if (!!(red & (1u << d)) == pass) {
        var[d] = d;
        pos[d] = p++;
        if (box && !pass) pos[d] = -1;
      }
  operand_vars(g, sel, 0, var, &mask->type, ovar);
  memset(w, 0, sizeof *w);
  w->exact = 1;
  mask_window(g, mask, ovar, pos, w);
  for (int d = 0; d < IR_MAX_RANK; d++) {
    int keep = d < it->rank && (red & (1u << d)) && !(box && w->outer[d]);
    if (!keep && (w->lo[d][0] || w->hi[d][0])) {
      w->lo[d][0] = w->hi[d][0] = 0;
      w->exact = 0;
    }
    any |= keep && (w->lo[d][0] || w->hi[d][0]);
  }
  return any;
}

/* How many times the tree of x (of type t), inlined into the loop of its
 * root (top: x is the root), reads node d, when every read is at the index
 * the root computes (through elementwise nodes of type t: aligned); -1 if
 * some read is elsewhere. */
static int count_reads(const cg *g, const ir_tnode *x, const ir_tnode *d, const ir_type *t,
                       int top, int aligned) {
  if (x == d) return aligned ? 1 : -1;
  const ninfo *xi = ni(g, x);
  if ((!top && xi->mat) || x->kind != IR_TN_OP) return 0;
  int al = aligned && xi->kind == NK_ELEM && ir_type_equal(&x->type, t), c = 0;
  for (int i = 0; i < xi->b.nargs; i++) {
    int r = xi->b.args[i] >= 0 ? count_reads(g, x->ops[xi->b.args[i]], d, t, 0, al) : 0;
    if (r < 0) return -1;
    c += r;
  }
  return c;
}

/* The window in which the value of node d is needed, when that is less
 * than all of it: d is a temporary read only by one in-place root computed
 * over a window (inplace_window), at the index that root writes (every
 * read of d: count_reads finds them all in that root's code); the
 * window's bounds that read an outer index are dropped (a box).  1 with
 * the window in w, else 0. */
static int demand_window(const cg *g, const ir_tnode *d, window *w) {
  const ninfo *di = ni(g, d);
  if (d->kind != IR_TN_OP || !di->mat || di->result || di->absorbed || di->inplace >= 0 ||
      !di->user)
    return 0; /* (a constant of a kept loop is written once, before it: whole) */
  const ir_tnode *u = di->user; /* the root whose loop reads d: through inlined nodes */
  while (u && !ni(g, u)->mat)
    u = ni(g, u)->users == 1 ? ni(g, u)->user : NULL;
  if (!u) return 0;
  const ninfo *ui = ni(g, u);
  if (ui->acc || !ir_type_equal(&u->type, &d->type) || !inplace_window(g, u, w) ||
      count_reads(g, u, d, &u->type, 1, 1) != di->users)
    return 0;
  int any = 0;
  for (int j = 0; j < d->type.rank; j++) {
    if (w->outer[j]) w->lo[j][0] = w->hi[j][0] = 0;
    any |= w->lo[j][0] || w->hi[j][0];
  }
  return any;
}

/* The loops of emit_loop over window w: each element at its offset (the
 * comment says why the rest is not written). */
static void emit_window_loop(cg *g, const ir_type *t, const window *w, const char *dst,
                             const char *expr, const char *why) {
  int var[IR_MAX_RANK];
  for (int j = 0; j < IR_MAX_RANK; j++) var[j] = j;
  char off[STR];
  offset_str(g, t, var, off);
  fprintf(g->out, "  { /* %s */\n", why);
  for (int j = 0; j < t->rank; j++) window_for(g, w->lo[j], w->hi[j], j, t->dims[j]);
  fprintf(g->out, "      %s[%s] = %s;\n  }\n", dst, off, expr);
}

/* ------------------------------------------------------------ dot_general */

/* Is the group dims[0..n-1] of type t laid out as one flattened index?
 * Its dims other than the constant 1, in the group's order, must be
 * consecutive dims of t (only dims of extent 1 between them).  Writes the
 * flattened index's stride to s ("1L" when the group ends at t's last
 * dim other than 1), or "" when every dim of the group is 1 (any stride). */
static int group_stride(const cg *g, const ir_type *t, const int *dims, int n, char *s) {
  int last = -1;
  s[0] = 0;
  for (int i = 0; i < n; i++) {
    if (t->dims[dims[i]] == IR_DIM_ONE) continue;
    if (last >= 0) {
      if (dims[i] <= last) return 0;
      for (int d = last + 1; d < dims[i]; d++)
        if (t->dims[d] != IR_DIM_ONE) return 0;
    }
    last = dims[i];
  }
  if (last >= 0) stride_str(g, t, last, s);
  return 1;
}

/* How a BLAS call reads one operand of a contraction. */
typedef struct dot_arg {
  char use[STR]; /* the buffer */
  char bs[STR];  /* the stride from one batch to the next */
  char ld[STR];  /* leading dimension (a matrix) or increment (a vector) */
  int trans;     /* a matrix stored (cols, rows) */
  int copied;    /* use is a copy, to free */
} dot_arg;

/* Operand `name` (type t) of a contraction, as batch dims bd[0..nb-1],
 * then a rows x cols matrix (rows dims rd[0..nr-1], cols cd[0..nc-1]; a
 * vector when nr == 0): read in place when each group is one flattened
 * index of the operand's layout and the matrix has a unit stride along
 * its rows (lda = the row stride) or its columns (transposed); otherwise
 * copied into (batch, rows, cols) order in a new buffer `copy`. */
static void dot_operand(cg *g, const char *name, const ir_type *t, const int *bd, int nb,
                        const int *rd, int nr, const int *cd, int nc, const char *copy,
                        dot_arg *a) {
  char sb[STR], sr[STR], sc[STR], pr[STR], pc[STR];
  int rdims[IR_MAX_RANK], cdims[IR_MAX_RANK];
  for (int i = 0; i < nr; i++) rdims[i] = t->dims[rd[i]];
  for (int i = 0; i < nc; i++) cdims[i] = t->dims[cd[i]];
  prod_str(g, rdims, nr, pr);
  prod_str(g, cdims, nc, pc);
  memset(a, 0, sizeof *a);
  if (group_stride(g, t, bd, nb, sb) && group_stride(g, t, rd, nr, sr) &&
      group_stride(g, t, cd, nc, sc)) {
    int cunit = !sc[0] || !strcmp(sc, "1L"), runit = !sr[0] || !strcmp(sr, "1L");
    if (nr == 0 || cunit || runit) {
      cat(a->use, "%s", name);
      cat(a->bs, "%s", sb[0] ? sb : "0L");
      if (nr == 0) /* a vector: its increment */
        cat(a->ld, "%s", sc[0] ? sc : "1L");
      else if (cunit) /* rows x cols, row stride lda */
        cat(a->ld, "%s", sr[0] ? sr : pc);
      else { /* stored cols x rows */
        a->trans = 1;
        cat(a->ld, "%s", sc[0] ? sc : pr);
      }
      return;
    }
  }
  ir_type pt = *t;
  int var[IR_MAX_RANK], q = 0;
  for (int i = 0; i < t->rank; i++) var[i] = -1;
  for (int i = 0; i < nb; i++) var[bd[i]] = q, pt.dims[q++] = t->dims[bd[i]];
  for (int i = 0; i < nr; i++) var[rd[i]] = q, pt.dims[q++] = t->dims[rd[i]];
  for (int i = 0; i < nc; i++) var[cd[i]] = q, pt.dims[q++] = t->dims[cd[i]];
  char n[STR], off[STR], expr[STR] = "";
  prod_str(g, pt.dims, pt.rank, n);
  offset_str(g, t, var, off);
  cat(expr, "%s[%s]", name, off);
  fprintf(g->out, "  %s *%s = upl_alloc(%s * sizeof(%s));\n", ctype(t->elem), copy, n,
          ctype(t->elem));
  emit_loop(g, &pt, copy, expr);
  cat(a->use, "%s", copy);
  cat(a->bs, "%s*%s", pr, pc);
  cat(a->ld, "%s", nr ? pc : "1L");
  a->copied = 1;
}

/* Is contraction n, with nlf and nrf free dims, a symmetric product: the
 * same operand on both sides with the same batch and contracting dims (so
 * the same free dims, and result[b,i,j] == result[b,j,i])? */
static int sym_product(const cg *g, const ir_tnode *n, int nlf, int nrf) {
  const gram_binding *b = &ni(g, n)->b;
  if (!nlf || nlf != nrf || n->ops[b->args[0]] != n->ops[b->args[1]]) return 0;
  for (int a = 0; a < 4; a += 2) {
    if (b->attrs[a].n != b->attrs[a + 1].n) return 0;
    for (int i = 0; i < b->attrs[a].n; i++)
      if (b->attrs[a].v[i] != b->attrs[a + 1].v[i]) return 0;
  }
  return 1;
}

/* dot_general n (operands in buffers upl_v<id>) into dst: dst = alpha *
 * (l . r) if !acc, dst += alpha * (l . r) if acc (BLAS beta = 1). */
static int emit_dot(cg *g, const ir_tnode *n, const char *dst, const char *alpha, int acc,
                    const window *w) {
  const gram_binding *b = &ni(g, n)->b;
  const interp_attr *lb = &b->attrs[0], *rb = &b->attrs[1], *lc = &b->attrs[2],
                    *rc = &b->attrs[3];
  if (b->nargs != 2 || b->args[0] < 0 || b->args[1] < 0)
    return fail(g, "dot_general with a constant operand has no BLAS routine");
  char opn[2][64];
  for (int i = 0; i < 2; i++) snprintf(opn[i], sizeof opn[i], "upl_v%d", n->ops[b->args[i]]->id);
  const ir_type *lt = &n->ops[b->args[0]]->type, *rt = &n->ops[b->args[1]]->type;
  if (lt->elem != rt->elem || lt->elem != n->type.elem)
    return fail(g, "dot_general on %s and %s operands has no BLAS routine",
                ir_elem_mlir_name(lt->elem), ir_elem_mlir_name(rt->elem));
  char p = lt->elem == IR_F64 ? 'd' : 's';
  int nb = lb->n, nc = lc->n;
  int lf[IR_MAX_RANK] = {0}, nlf = 0, rf[IR_MAX_RANK] = {0}, nrf = 0;
  unsigned lused = 0, rused = 0;
  for (int i = 0; i < nb; i++) lused |= 1u << lb->v[i], rused |= 1u << rb->v[i];
  for (int i = 0; i < nc; i++) lused |= 1u << lc->v[i], rused |= 1u << rc->v[i];
  for (int d = 0; d < lt->rank; d++)
    if (!(lused & (1u << d))) lf[nlf++] = d;
  for (int d = 0; d < rt->rank; d++)
    if (!(rused & (1u << d))) rf[nrf++] = d;
  int bd[IR_MAX_RANK] = {0}, md[IR_MAX_RANK] = {0}, kd[IR_MAX_RANK] = {0},
      nd[IR_MAX_RANK] = {0};
  for (int i = 0; i < nb; i++) bd[i] = lt->dims[lb->v[i]];
  for (int i = 0; i < nlf; i++) md[i] = lt->dims[lf[i]];
  for (int i = 0; i < nc; i++) kd[i] = lt->dims[lc->v[i]];
  for (int i = 0; i < nrf; i++) nd[i] = rt->dims[rf[i]];
  char B[STR], M[STR], K[STR], N[STR];
  prod_str(g, bd, nb, B);
  prod_str(g, md, nlf, M);
  prod_str(g, kd, nc, K);
  prod_str(g, nd, nrf, N);

  char lname[64], rname[64];
  snprintf(lname, sizeof lname, "upl_v%d_l", n->id);
  snprintf(rname, sizeof rname, "upl_v%d_r", n->id);
  /* lhs: batch, then M x K (a vector of K without free dims); rhs: batch,
   * then K x N (a vector of K without free dims) */
  dot_arg la, ra;
  dot_operand(g, opn[0], lt, lb->v, nb, lf, nlf, lc->v, nc, lname, &la);
  int sym = !acc && ir_elem_is_float(n->type.elem) && sym_product(g, n, nlf, nrf);
  if (sym) /* syrk reads the lhs only */
    ra = la, ra.copied = 0;
  else if (nrf)
    dot_operand(g, opn[1], rt, rb->v, nb, rc->v, nc, rf, nrf, rname, &ra);
  else
    dot_operand(g, opn[1], rt, rb->v, nb, NULL, 0, rc->v, nc, rname, &ra);
  int ta = la.trans || !nlf, tb = ra.trans; /* a vector: element k at k * inc */

  const char *T = ctype(n->type.elem);
  if (w && !nb && nlf == 1 && nrf == 1 && !sym && !acc && ir_elem_is_float(n->type.elem)) {
    /* a matrix product whose one reader reads it in window w only
     * (demand_window): the gemm of those rows of the lhs and columns of
     * the rhs, into that block of dst; the rest of dst is never read */
    char lo[2][STR], hi[2][STR], ldc[STR];
    for (int j = 0; j < 2; j++) {
      window_lo(w->lo[j], lo[j]);
      window_hi(g, n->type.dims[j], w->hi[j], hi[j]);
    }
    dim_str(g, n->type.dims[1], ldc);
    char loff[2 * STR] = "", roff[2 * STR] = ""; /* the first row of l, column of r */
    cat(loff, ta ? "upl_m0" : "upl_m0 * (long)(%s)", la.ld);
    cat(roff, tb ? "upl_n0 * (long)(%s)" : "upl_n0", ra.ld);
    fprintf(g->out,
            "  { /* only the window its reader reads */\n"
            "    const long upl_m0 = %s, upl_n0 = %s, upl_ldc = %s;\n"
            "    const long upl_M = upl_maxl(0L, %s - upl_m0), upl_N = upl_maxl(0L, %s - upl_n0), "
            "upl_K = %s;\n"
            "    if (upl_M > 0 && upl_N > 0 && upl_K == 0)\n"
            "      for (long upl_m = 0; upl_m < upl_M; upl_m++)\n"
            "        for (long upl_q = 0; upl_q < upl_N; upl_q++)\n"
            "          %s[(upl_m0 + upl_m) * upl_ldc + upl_n0 + upl_q] = 0;\n"
            "    else if (upl_M > 0 && upl_N > 0)\n"
            "      cblas_%cgemm(CblasRowMajor, %s, %s, (int)upl_M, (int)upl_N, (int)upl_K, (%s)(%s), "
            "%s + %s, (int)(%s), %s + %s, (int)(%s), (%s)0, %s + upl_m0 * upl_ldc + upl_n0, "
            "(int)upl_ldc);\n"
            "  }\n",
            lo[0], lo[1], ldc, hi[0], hi[1], K, dst, p, ta ? "CblasTrans" : "CblasNoTrans",
            tb ? "CblasTrans" : "CblasNoTrans", T, alpha, la.use, loff, la.ld, ra.use, roff,
            ra.ld, T, dst);
    if (la.copied) fprintf(g->out, "  free(%s);\n", lname);
    if (ra.copied) fprintf(g->out, "  free(%s);\n", rname);
    return 0;
  }
  const char *U = ir_elem_bits(n->type.elem) == 64 ? "unsigned long" : "unsigned"; /* ints wrap */
  const char *beta = acc ? "1" : "0";
  fprintf(g->out,
          "  {\n"
          "    const long upl_B = %s, upl_M = %s, upl_N = %s, upl_K = %s;\n"
          "    const long upl_lda = %s, upl_ldb = %s;\n"
          "    const %s upl_alpha = %s;\n"
          "    for (long upl_b = 0; upl_b < upl_B; upl_b++) {\n"
          "      const %s *upl_l = %s + upl_b * %s;\n"
          "      const %s *upl_r = %s + upl_b * %s;\n"
          "      %s *upl_c = %s + upl_b * upl_M * upl_N;\n"
          "      if (upl_M == 0 || upl_N == 0) continue;\n",
          B, M, N, K, la.ld, ra.ld, T, alpha, T, la.use, la.bs, T, ra.use, ra.bs, T, dst);
  if (acc)
    fprintf(g->out, "      if (upl_K == 0) continue;\n");
  else
    fprintf(g->out,
            "      if (upl_K == 0) {\n"
            "        for (long upl_q = 0; upl_q < upl_M * upl_N; upl_q++) upl_c[upl_q] = 0;\n"
            "        continue;\n"
            "      }\n");
  if (!ir_elem_is_float(n->type.elem)) /* BLAS has no integer routines: loops, wrapping */
    fprintf(g->out,
            "      for (long upl_m = 0; upl_m < upl_M; upl_m++)\n"
            "        for (long upl_n = 0; upl_n < upl_N; upl_n++) {\n"
            "          %s upl_s = 0;\n"
            "          for (long upl_k = 0; upl_k < upl_K; upl_k++)\n"
            "            upl_s += (%s)upl_l[%s] * (%s)upl_r[%s];\n"
            "          upl_c[upl_m * upl_N + upl_n] = (%s)(%s%s%s(%s)upl_alpha * upl_s);\n"
            "        }\n",
            U, U, ta ? "upl_k * upl_lda + upl_m" : "upl_m * upl_lda + upl_k", U,
            tb ? "upl_n * upl_ldb + upl_k" : "upl_k * upl_ldb + upl_n", T, acc ? "(" : "",
            acc ? U : "", acc ? ")upl_c[upl_m * upl_N + upl_n] + " : "", U);
  else if (sym)
    /* A A^T (A^T A): the upper triangle, mirrored (half the work of gemm) */
    fprintf(g->out,
            "      (void)upl_r, (void)upl_ldb;\n"
            "      cblas_%csyrk(CblasRowMajor, CblasUpper, %s, (int)upl_M, (int)upl_K, upl_alpha, "
            "upl_l, (int)upl_lda, 0, upl_c, (int)upl_N);\n"
            "      for (long upl_m = 1; upl_m < upl_M; upl_m++)\n"
            "        for (long upl_n = 0; upl_n < upl_m; upl_n++)\n"
            "          upl_c[upl_m * upl_N + upl_n] = upl_c[upl_n * upl_N + upl_m];\n",
            p, ta ? "CblasTrans" : "CblasNoTrans");
  else if (!nlf && !nrf)
    fprintf(g->out,
            "      upl_c[0] %s upl_alpha * cblas_%cdot((int)upl_K, upl_l, (int)upl_lda, upl_r, "
            "(int)upl_ldb);\n",
            acc ? "+=" : "=", p);
  else if (!nrf)
    fprintf(g->out,
            ta ? "      cblas_%cgemv(CblasRowMajor, CblasTrans, (int)upl_K, (int)upl_M, upl_alpha, "
                 "upl_l, (int)upl_lda, upl_r, (int)upl_ldb, %s, upl_c, 1);\n"
               : "      cblas_%cgemv(CblasRowMajor, CblasNoTrans, (int)upl_M, (int)upl_K, upl_alpha, "
                 "upl_l, (int)upl_lda, upl_r, (int)upl_ldb, %s, upl_c, 1);\n",
            p, beta);
  else if (!nlf)
    fprintf(g->out,
            tb ? "      cblas_%cgemv(CblasRowMajor, CblasNoTrans, (int)upl_N, (int)upl_K, upl_alpha, "
                 "upl_r, (int)upl_ldb, upl_l, (int)upl_lda, %s, upl_c, 1);\n"
               : "      cblas_%cgemv(CblasRowMajor, CblasTrans, (int)upl_K, (int)upl_N, upl_alpha, "
                 "upl_r, (int)upl_ldb, upl_l, (int)upl_lda, %s, upl_c, 1);\n",
            p, beta);
  else
    fprintf(g->out,
            "      cblas_%cgemm(CblasRowMajor, %s, %s, (int)upl_M, (int)upl_N, (int)upl_K, "
            "upl_alpha, upl_l, (int)upl_lda, upl_r, (int)upl_ldb, %s, upl_c, (int)upl_N);\n",
            p, ta ? "CblasTrans" : "CblasNoTrans", tb ? "CblasTrans" : "CblasNoTrans", beta);
  fprintf(g->out, "    }\n  }\n");
  if (la.copied) fprintf(g->out, "  free(%s);\n", lname);
  if (ra.copied) fprintf(g->out, "  free(%s);\n", rname);
  return 0;
}

/* ----------------------------------------------------------------- reduce */

/* Is kernel operand `slot` of n the constant 0 (a kernel constant or a
 * splat node)? */
static int slot_is_zero(const cg *g, const ir_tnode *n, int slot) {
  const gram_binding *b = &ni(g, n)->b;
  if (b->args[slot] < 0) return b->kconst[slot] == 0;
  const ir_tnode *o = n->ops[b->args[slot]];
  return o->kind == IR_TN_CONST && o->value == 0;
}

/* Write the matrix of node x (evaluated at the indices of the reduce's
 * operand, dims `first` then `second` in their order, `mask` applied when
 * not NULL: 0 outside it) as a row-major buffer `name`, of the extents
 * ext (per operand dim: a window's, wk, or the whole dim's). */
static void masked_matrix(cg *g, const ir_type *it, const ir_tnode *x, const ir_tnode *mask,
                          unsigned first, unsigned second, const window *wk,
                          char ext[][STR], const char *name) {
  ir_type pt = *it;
  int var[IR_MAX_RANK], p = 0, od[IR_MAX_RANK];
  char n[STR] = "";
  for (int pass = 0; pass < 2; pass++)
    for (int d = 0; d < it->rank; d++)
      if ((pass ? second : first) & (1u << d)) {
        pt.dims[p] = it->dims[d];
        cat(n, "%s(%s)", n[0] ? " * " : "", ext[d]);
        od[p] = d;
        var[d] = p++;
      }
  for (int d = 0; d < it->rank; d++)
    if (!((first | second) & (1u << d))) var[d] = -1;
  pt.rank = p;
  ir_buf e = {0};
  if (mask) {
    ir_buf_printf(&e, "(");
    gen(g, mask, var, &e);
    ir_buf_printf(&e, ") ? ");
  }
  gen(g, x, var, &e);
  if (mask) {
    ir_buf_printf(&e, " : ");
    literal(&e, 0, it->elem);
  }
  fprintf(g->out, "  %s *%s = upl_alloc(%s * sizeof(%s));\n", ctype(it->elem), name,
          n[0] ? n : "1L", ctype(it->elem));
  fprintf(g->out, "  {\n    long upl_o = 0;\n");
  for (int q = 0; q < pt.rank; q++)
    window_for(g, wk->lo[od[q]], wk->hi[od[q]], q, pt.dims[q]);
  fprintf(g->out, "      %s[upl_o++] = %s;\n  }\n", name, ir_buf_str(&e));
  ir_buf_free(&e);
}

/* A masked contraction: reduce n sums over dims R, with init 0, the
 * operand select(mask, multiply(bx, by), 0), bx and by broadcasts of their
 * operands whose dims (besides R) are disjoint, the kept dims of one
 * coming before those of the other, and the mask's dims inside one of
 * them.  Then the sum is the matrix product of bx masked (as an M x K
 * matrix) and by (K x N) -- exactly, as long as every element of the
 * unmasked operand is finite (0 * y is then 0, as the original's skipped
 * term).  Emits both matrices and opens `if (finite) { gemm } else`, the
 * caller's exact loops following; returns 1, or 0 (nothing written) if n
 * has another shape.  *names receives the buffers to free. */
static int masked_dot_open(cg *g, const ir_tnode *n, const char *dst, char names[2][64]) {
  const gram_binding *b = &ni(g, n)->b;
  if (!ir_elem_is_float(n->type.elem) || b->attrs[1].v[0] != 0 || b->args[0] < 0 ||
      !slot_is_zero(g, n, 1))
    return 0;
  const ir_tnode *sel = n->ops[b->args[0]];
  const ninfo *si = ni(g, sel);
  if (sel->kind != IR_TN_OP || si->mat || si->kind != NK_ELEM ||
      strcmp(si->b.kernel->name, "select") || si->b.nargs != 3 || si->b.args[0] < 0 ||
      si->b.args[1] < 0 || !slot_is_zero(g, sel, 2))
    return 0;
  const ir_tnode *mask = sel->ops[si->b.args[0]], *mul = sel->ops[si->b.args[1]];
  const ninfo *mi = ni(g, mul);
  if (mask->kind != IR_TN_MASK || mul->kind != IR_TN_OP || mi->mat || mi->kind != NK_ELEM ||
      strcmp(mi->b.kernel->name, "mul") || mi->b.nargs != 2 || mi->b.args[0] < 0 ||
      mi->b.args[1] < 0)
    return 0;
  const ir_type *it = &sel->type;
  unsigned red = 0, all = (1u << it->rank) - 1, dims[2] = {0, 0}, mdims = 0;
  for (int i = 0; i < b->attrs[0].n; i++) red |= 1u << b->attrs[0].v[i];
  const ir_tnode *x[2];
  for (int s = 0; s < 2; s++) {
    x[s] = mul->ops[mi->b.args[s]];
    const ninfo *xi = ni(g, x[s]);
    if (!ir_type_equal(&x[s]->type, it) || xi->kind != NK_GATHER ||
        strcmp(xi->b.kernel->name, "broadcast_in_dim"))
      return 0;
    ir_type ot = slot_type(g, x[s], 0);
    for (int j = 0; j < ot.rank && j < xi->b.attrs[0].n; j++)
      if (ot.dims[j] != IR_DIM_ONE) dims[s] |= 1u << xi->b.attrs[0].v[j];
  }
  if ((dims[0] & dims[1]) != red || (dims[0] | dims[1]) != all || !red) return 0;
  for (int c = 0; c < mask->mask->ncons; c++)
    for (int j = 0; j < it->rank; j++)
      if (mask->mask->cons[c].coef[j]) mdims |= 1u << j;
  /* l: the operand whose kept dims come first (row-major result) */
  unsigned f0 = dims[0] & ~red, f1 = dims[1] & ~red;
  int l;
  if (f0 && f1) {
    unsigned hi0 = f0, hi1 = f1;
    while (hi0 & (hi0 - 1)) hi0 &= hi0 - 1;
    while (hi1 & (hi1 - 1)) hi1 &= hi1 - 1;
    if (hi0 < (f1 & -f1)) l = 0;
    else if (hi1 < (f0 & -f0)) l = 1;
    else return 0; /* interleaved kept dims */
  } else
    l = f0 ? 0 : 1;
  int r = 1 - l, mside = (mdims & ~dims[l]) == 0 ? l : (mdims & ~dims[r]) == 0 ? r : -1;
  if (mside < 0) return 0;
  const char *T = ctype(n->type.elem);
  char p = n->type.elem == IR_F64 ? 'd' : 's';
  int dm[IR_MAX_RANK], dn[IR_MAX_RANK], nm = 0, nn = 0;
  for (int d = 0; d < it->rank; d++) {
    if (red & (1u << d)) continue;
    else if (dims[l] & (1u << d)) dm[nm++] = it->dims[d];
    else dn[nn++] = it->dims[d];
  }
  char M[STR], K[STR], N[STR];
  prod_str(g, dm, nm, M);
  prod_str(g, dn, nn, N);
  /* the mask's window on the reduced dims, where its bounds there read no
   * other index (a box): the product runs over it only, both matrices
   * written over it (the terms left out are the masked zeros) */
  window wk;
  char ext[IR_MAX_RANK][STR];
  int boxed = reduce_window(g, sel, mask, it, red, 1, &wk);
  K[0] = 0;
  for (int d = 0; d < it->rank; d++) {
    ext[d][0] = 0;
    if (boxed && (red & (1u << d)) && (wk.lo[d][0] || wk.hi[d][0])) {
      char a[STR], b[STR];
      window_lo(wk.lo[d], a);
      window_hi(g, it->dims[d], wk.hi[d], b);
      cat(ext[d], "upl_maxl(0L, %s - %s)", b, a);
    } else
      dim_str(g, it->dims[d], ext[d]);
    if (red & (1u << d)) cat(K, "%s(%s)", K[0] ? " * " : "", ext[d]);
  }
  snprintf(names[0], 64, "upl_v%d_l", n->id);
  snprintf(names[1], 64, "upl_v%d_r", n->id);
  fprintf(g->out, "  /* masked contraction: BLAS when the operand meeting masked zeros is finite */\n");
  /* the matrices: l is M x K, r is K x N; the masked one is written, the
   * other is read in place when it broadcasts a materialised value laid
   * out as that matrix (dot_operand: else copied) */
  dot_arg a[2];
  for (int s = 0; s < 2; s++) {
    int side = s ? r : l;
    unsigned first = s ? red : dims[l] & ~red, second = s ? dims[r] & ~red : red;
    const ir_tnode *o = NULL;
    const ninfo *xi = ni(g, x[side]);
    if (!boxed && side != mside && xi->b.args[0] >= 0 && ni(g, x[side]->ops[xi->b.args[0]])->mat)
      o = x[side]->ops[xi->b.args[0]];
    if (o) { /* the broadcast's operand dims of each group, in the group's order */
      int rd[IR_MAX_RANK], cd[IR_MAX_RANK], nr = 0, nc = 0;
      const interp_attr *bd = &xi->b.attrs[0];
      for (int d = 0; d < it->rank; d++)
        for (int j = 0; j < o->type.rank && j < bd->n; j++)
          if (bd->v[j] == d && o->type.dims[j] != IR_DIM_ONE) {
            if (first & (1u << d)) rd[nr++] = j;
            if (second & (1u << d)) cd[nc++] = j;
          }
      char on[64];
      snprintf(on, sizeof on, "upl_v%d", o->id);
      dot_operand(g, on, &o->type, NULL, 0, rd, nr, cd, nc, names[s], &a[s]);
      if (nr == 0) /* a vector of K (M == 1): a 1 x K matrix stored K x 1, lda = inc */
        a[s].trans = 1;
    } else {
      masked_matrix(g, it, x[side], side == mside ? mask : NULL, first, second, &wk, ext,
                    names[s]);
      memset(&a[s], 0, sizeof a[s]);
      cat(a[s].use, "%s", names[s]);
      cat(a[s].ld, "%s", s ? N : K);
      a[s].copied = 1;
    }
    if (!a[s].copied) names[s][0] = 0; /* nothing to free */
  }
  int c = mside == l ? 1 : 0; /* the side checked for finiteness */
  int id = n->id;
  char at[2 * STR] = "";
  cat(at, a[c].trans ? "upl_q * (%s) + upl_p" : "upl_p * (%s) + upl_q", a[c].ld);
  fprintf(g->out,
          "  const long upl_M%d = %s, upl_N%d = %s, upl_K%d = %s;\n"
          "  int upl_fin%d = 1;\n",
          id, M, id, N, id, K, id);
  if (boxed && wk.exact) /* the mask holds in the whole window: no masked zero is multiplied */
    fprintf(g->out, "  /* the mask holds in its window: no masked zero to check */\n");
  else
    fprintf(g->out,
          "  for (long upl_p = 0; upl_p < upl_%c%d && upl_fin%d; upl_p++)\n"
          "    for (long upl_q = 0; upl_q < upl_%c%d; upl_q++)\n"
          "      if (!isfinite(%s[%s])) { upl_fin%d = 0; break; }\n",
          c ? 'K' : 'M', id, id, c ? 'N' : 'K', id, a[c].use, at, id);
  fprintf(g->out,
          "  if (upl_fin%d) {\n"
          "    if (upl_M%d > 0 && upl_N%d > 0 && upl_K%d == 0)\n"
          "      for (long upl_q = 0; upl_q < upl_M%d * upl_N%d; upl_q++) %s[upl_q] = 0;\n"
          "    else if (upl_M%d > 0 && upl_N%d > 0)\n"
          "      cblas_%cgemm(CblasRowMajor, %s, %s, (int)upl_M%d, (int)upl_N%d, "
          "(int)upl_K%d, (%s)1, %s, (int)(%s), %s, (int)(%s), (%s)0, %s, (int)upl_N%d);\n"
          "  } else\n",
          id, id, id, id, id, id, dst, id, id, p, a[0].trans ? "CblasTrans" : "CblasNoTrans",
          a[1].trans ? "CblasTrans" : "CblasNoTrans", id, id, id, T, a[0].use, a[0].ld, a[1].use,
          a[1].ld, T, dst, id);
  return 1;
}

/* Is reduce n (body bi: 0 sum, 1 product) of sel = select(mask, e, z)
 * such that z is the body's identity and leaving out its terms gives the
 * same value, exactly?  A product: z is 1 (x * 1 is x).  A sum: z is 0 and
 * either -0 (x + -0 is x for every x) or +0 with an initial value other
 * than -0: the accumulator is then never -0 (a sum is -0 only when both
 * terms are), and x + +0 is x for every other x.  Integer sums and
 * products wrap, with the same identities. */
static int identity_outside(const cg *g, const ir_tnode *n, const ir_tnode *sel, int bi) {
  const gram_binding *b = &ni(g, n)->b, *sb = &ni(g, sel)->b;
  const ir_tnode *z = sel->ops[sb->args[2]];
  if (z->kind != IR_TN_CONST || bi > 1) return 0;
  if (bi == 1) return z->value == 1;
  double init;
  if (b->args[1] < 0) init = b->kconst[1];
  else if (n->ops[b->args[1]]->kind == IR_TN_CONST) init = n->ops[b->args[1]]->value;
  else return 0;
  if (!ir_elem_is_float(n->type.elem)) return z->value == 0;
  return z->value == 0 && (signbit(z->value) || !(init == 0 && signbit(init)));
}

/* reduce n into dst: the operand tree is read inline, row-major over the
 * kept dims, folding the reduced dims in row-major order (a masked
 * contraction first tries BLAS, masked_dot_open). */
static int emit_reduce(cg *g, const ir_tnode *n, const char *dst) {
  const gram_binding *b = &ni(g, n)->b;
  if (b->nargs != 2) return fail(g, "reduce: %d operands", b->nargs);
  char mnames[2][64];
  int masked = masked_dot_open(g, n, dst, mnames);
  ir_type x = slot_type(g, n, 0);
  unsigned red = 0;
  for (int i = 0; i < b->attrs[0].n; i++) red |= 1u << b->attrs[0].v[i];
  static const char *const body[] = {"upl_acc + %s", "upl_acc * %s",
                                     "upl_max(upl_acc, %s)", "upl_min(upl_acc, %s)"};
  static const char *const ibody_order[] = {"upl_maxl(upl_acc, %s)", "upl_minl(upl_acc, %s)"};
  static const char *const ibody[2][2] = { /* int, long: wrapping */
      {"(unsigned)upl_acc + (unsigned)(%s)", "(unsigned)upl_acc * (unsigned)(%s)"},
      {"(unsigned long)upl_acc + (unsigned long)(%s)",
       "(unsigned long)upl_acc * (unsigned long)(%s)"}};
  int bi = b->attrs[1].v[0];
  if (bi < 0 || bi >= INTERP_BODY_COUNT) return fail(g, "reduce: unknown body %d", bi);
  /* a conditional update compares the element with the accumulator as
   * the C it came from does (the element read once) */
  int upd = interp_body_update_dir((interp_body)bi);
  int var[IR_MAX_RANK];
  for (int j = 0; j < x.rank; j++) var[j] = j;
  ir_buf acc = {0}, init = {0};
  operand_expr(g, n, 0, var, &acc);
  operand_expr(g, n, 1, var, &init);
  const char *T = ctype(n->type.elem);
  window w;
  memset(&w, 0, sizeof w);
  const ir_tnode *sel = b->args[0] >= 0 ? n->ops[b->args[0]] : NULL;
  const ir_tnode *mask = sel && !ni(g, sel)->mat ? select_mask(g, sel) : NULL;
  if (mask && identity_outside(g, n, sel, bi))
    reduce_window(g, sel, mask, &x, red, 0, &w);
  fprintf(g->out, "  {\n    long upl_o = 0;\n");
  for (int pass = 0; pass < 2; pass++) {
    for (int j = 0; j < x.rank; j++)
      if (!!(red & (1u << j)) == pass) window_for(g, w.lo[j], w.hi[j], j, x.dims[j]);
    if (pass == 0) fprintf(g->out, "    {\n      %s upl_acc = %s;\n", T, ir_buf_str(&init));
  }
  int wrap = !ir_elem_is_float(n->type.elem) && bi < 2; /* wraps, unsigned */
  if (upd >= 0) {
    fprintf(g->out, "      {\n        %s upl_v = %s;\n        if (upl_v %s upl_acc) upl_acc = upl_v;\n      }\n",
            T, ir_buf_str(&acc), cmp_ops[upd]);
  } else {
    fprintf(g->out, wrap ? "      upl_acc = (%s)(" : "      upl_acc = (", T);
    fprintf(g->out,
            wrap                              ? ibody[ir_elem_bits(n->type.elem) == 64][bi]
            : !ir_elem_is_float(n->type.elem) ? ibody_order[bi - 2]
                                              : body[bi],
            ir_buf_str(&acc));
    fprintf(g->out, ");\n");
  }
  fprintf(g->out, "    %s[upl_o++] = upl_acc;\n    }\n  }\n", dst);
  for (int i = 0; masked && i < 2; i++)
    if (mnames[i][0]) fprintf(g->out, "  free(%s);\n", mnames[i]);
  ir_buf_free(&acc);
  ir_buf_free(&init);
  return 0;
}

/* ----------------------------------------------------------- the fusion */

/* Classify node n (binding op nodes); -1 with a message if it has no C
 * lowering. */
static int classify(cg *g, const ir_tnode *n) {
  ninfo *in = ni(g, n);
  in->inplace = -1;
  if (n->kind == IR_TN_ARG) {
    in->kind = NK_ARG;
    return 0;
  }
  if (n->kind == IR_TN_MASK) {
    for (int c = 0; c < n->mask->ncons; c++)
      for (int p = 0; p < IR_MASK_MAX_SYMS; p++)
        if (n->mask->cons[c].pcoef[p] &&
            (n->mask->cons[c].sym[p] < 0 || n->mask->cons[c].sym[p] >= g->k->nvars))
          return fail(g, "mask names size symbol %d", n->mask->cons[c].sym[p]);
    in->kind = NK_VALUE;
    return 0;
  }
  if (n->kind == IR_TN_CONST) {
    in->kind = NK_VALUE;
    return 0;
  }
  const gram_op *op = n->op->owner;
  ir_error err;
  if (gram_bind(op, n->attrs, &in->b, &err)) return fail(g, "%s", err.msg);
  const gram_binding *b = &in->b;
  const char *kn = interp_op_like(b->kernel->name);
  int arity = 0;
  if (elem_template(kn, n->type.elem, &arity)) {
    if (b->nargs < arity) return fail(g, "%s: %d operands", kn, b->nargs);
    if (!strcmp(kn, "compare") && (b->attrs[0].v[0] < 0 || b->attrs[0].v[0] >= INTERP_CMP_COUNT))
      return fail(g, "compare: bad direction");
    in->kind = NK_ELEM;
  } else if (!strcmp(kn, "transpose") || !strcmp(kn, "broadcast_in_dim")) {
    if (b->nargs < 1) return fail(g, "%s: no operand", kn);
    ir_type x = slot_type(g, n, 0);
    const interp_attr *at = &b->attrs[0];
    if (at->n != (kn[0] == 't' ? n->type.rank : x.rank))
      return fail(g, "%s: attribute has %d entries", kn, at->n);
    in->kind = NK_GATHER;
  } else if (!strcmp(kn, "dot_general")) {
    in->kind = NK_OTHER;
    /* no contracting dims: an elementwise product (outer product) */
    if (b->attrs[2].n == 0 && b->nargs == 2 && ir_elem_is_float(n->type.elem))
      in->kind = NK_OUTER;
  } else if (!strcmp(kn, "reduce")) {
    in->kind = NK_REDUCE;
  } else if (!strcmp(kn, "reshape") || !strcmp(kn, "slice") || !strcmp(kn, "reverse")) {
    if (b->nargs < 1 || b->args[0] < 0) return fail(g, "%s of a constant", kn);
    in->kind = strcmp(kn, "reshape") ? NK_SLICE : NK_OTHER;
  } else if (!strcmp(kn, "pad")) { /* issue 14: a slice with a constant padding value */
    if (b->nargs != 2 || b->args[0] < 0 || b->args[1] >= 0)
      return fail(g, "pad: only of an operand with a constant padding value");
    in->kind = NK_SLICE;
  } else if (!strcmp(kn, "iota") || !strcmp(kn, "constant") || !strcmp(kn, "fill") ||
             !strcmp(kn, "empty") || !strcmp(kn, "fill_scalar")) {
    if (!strcmp(kn, "fill_scalar") && b->nargs < 1) return fail(g, "fill_scalar: no operand");
    in->kind = NK_CHEAP;
  } else
    return fail(g, "no C lowering for the semantic kernel '%s' (op %s)", kn, op->name);
  return 0;
}

/* Do a and b have the same number of elements for every size (the same
 * dims up to order, ignoring the constant 1)? */
static int same_elems(const ir_type *a, const ir_type *b) {
  int x[IR_MAX_RANK], y[IR_MAX_RANK], nx = 0, ny = 0;
  for (int j = 0; j < a->rank; j++)
    if (a->dims[j] != IR_DIM_ONE) x[nx++] = a->dims[j];
  for (int j = 0; j < b->rank; j++)
    if (b->dims[j] != IR_DIM_ONE) y[ny++] = b->dims[j];
  if (nx != ny) return 0;
  for (int i = 0; i < nx; i++) {
    int k = 0;
    while (k < ny && y[k] != x[i]) k++;
    if (k == ny) return 0;
    y[k] = y[--ny];
  }
  return 1;
}

/* Are n's kernel operands from slot `from` on constants, free or
 * materialised (read by index arithmetic and at most one load)? */
static int operands_cheap(cg *g, const ir_tnode *n, int from) {
  const gram_binding *b = &ni(g, n)->b;
  for (int i = from; i < b->nargs; i++)
    if (b->args[i] >= 0) {
      const ninfo *o = ni(g, n->ops[b->args[i]]);
      if (!o->mat && !o->free_) return 0;
    }
  return 1;
}

/* Decide free_ and mat of n (operands decided already: topological order). */
static void decide(cg *g, const ir_tnode *n) {
  ninfo *in = ni(g, n);
  switch (in->kind) {
  case NK_VALUE:
    in->free_ = 1;
    break;
  case NK_CHEAP:
  case NK_GATHER:
    in->free_ = operands_cheap(g, n, 0);
    break;
  case NK_SLICE: /* its operand is in memory (blocked): one guarded load */
    in->free_ = 1;
    break;
  case NK_ELEM:
    /* select on a mask between free or materialised values: the C
     * conditional evaluates one branch, so index arithmetic and at most one
     * load as well */
    if (!strcmp(in->b.kernel->name, "select") && in->b.nargs == 3 && in->b.args[0] >= 0 &&
        ni(g, n->ops[in->b.args[0]])->kind == NK_VALUE)
      in->free_ = operands_cheap(g, n, 1);
    break;
  default:
    break;
  }
  if (in->kind == NK_ARG || in->kind == NK_REDUCE || in->kind == NK_OTHER || in->result ||
      in->blocked)
    in->mat = 1;
  else if (in->free_)
    in->mat = 0;
  else if (in->users == 1) {
    /* inline into the one reader if it evaluates n once per element */
    const ninfo *u = ni(g, in->user);
    const ir_type *iter = u->kind == NK_REDUCE && in->slot == 0 ? &n->type : &in->user->type;
    in->mat = !same_elems(&n->type, iter);
  } else
    in->mat = 1;
}

/* Let loop root n (an add) accumulate a BLAS product that only it reads:
 * add(x, dot) or add(x, multiply(dot, s)) with s of rank 0, all of n's
 * type. */
static void find_accumulation(cg *g, const ir_tnode *n) {
  ninfo *in = ni(g, n);
  if (in->kind != NK_ELEM || strcmp(in->b.kernel->name, "add") || in->b.nargs != 2) return;
  for (int s = 0; s < 2; s++) {
    if (in->b.args[s] < 0) continue;
    const ir_tnode *d = n->ops[in->b.args[s]], *m = NULL;
    const ninfo *di = ni(g, d);
    if (!ir_type_equal(&d->type, &n->type)) continue;
    if (di->kind == NK_ELEM && !strcmp(di->b.kernel->name, "mul") && !di->mat &&
        di->users == 1) {
      int found = 0;
      for (int t = 0; t < 2 && !found; t++) {
        if (di->b.args[t] < 0) continue;
        const ir_tnode *dd = d->ops[di->b.args[t]];
        ir_type other = slot_type(g, d, 1 - t);
        if (ni(g, dd)->kind == NK_OTHER && other.rank == 0) {
          m = d;
          d = dd;
          found = 1;
        }
      }
      if (!found) continue;
      di = ni(g, d);
      if (!ir_type_equal(&d->type, &n->type)) continue;
    }
    if (di->kind != NK_OTHER || strcmp(di->b.kernel->name, "dot_general") || di->users != 1 ||
        di->result || di->absorbed)
      continue;
    ni(g, d)->absorbed = 1;
    in->acc = d;
    in->acc_mul = m;
    in->acc_other = 1 - s;
    return;
  }
}

static void add_read(cg *g, int var, int pos, int root, int aligned) {
  if (g->nreads == g->capreads) {
    g->capreads = g->capreads ? 2 * g->capreads : 32;
    g->reads = ir_realloc(g->reads, (size_t)g->capreads * sizeof *g->reads);
  }
  g->reads[g->nreads++] = (aread){var, pos, root, aligned};
}

/* Record the argument reads of n evaluated at var inside root's code (n is
 * computed, not read, when n == root).  aligned_ok: the root writes its
 * element upl_o at the same time (a loop root). */
static void note_reads(cg *g, const ir_tnode *n, const int *var, const ir_tnode *root,
                       int aligned_ok) {
  const ninfo *in = ni(g, n);
  if (n->kind == IR_TN_ARG) {
    int al = aligned_ok && n->type.rank == root->type.rank;
    for (int j = 0; al && j < n->type.rank; j++)
      al = n->type.dims[j] == root->type.dims[j] &&
           (var[j] == j || n->type.dims[j] == IR_DIM_ONE);
    add_read(g, n->arg, ni(g, root)->pos, root->id, al);
    return;
  }
  if ((in->mat && n != root) || n->kind != IR_TN_OP) return;
  for (int s = 0; s < in->b.nargs; s++) {
    if (in->b.args[s] < 0) continue;
    const ir_tnode *o = n->ops[in->b.args[s]];
    int ovar[IR_MAX_RANK];
    operand_vars(g, n, s, var, &o->type, ovar);
    /* a slice reads its operand at other indices than the root writes */
    note_reads(g, o, ovar, root, aligned_ok && in->kind != NK_SLICE);
  }
}

/* The argument reads of the code emitted for materialised node n. */
static void root_reads(cg *g, const ir_tnode *n) {
  const ninfo *in = ni(g, n);
  int var[IR_MAX_RANK];
  for (int j = 0; j < IR_MAX_RANK; j++) var[j] = j;
  if (in->acc) {
    ir_type ot = slot_type(g, n, in->acc_other);
    int ovar[IR_MAX_RANK];
    operand_vars(g, n, in->acc_other, var, &ot, ovar);
    if (in->b.args[in->acc_other] >= 0)
      note_reads(g, n->ops[in->b.args[in->acc_other]], ovar, n, 1);
    const ninfo *di = ni(g, in->acc);
    for (int s = 0; s < di->b.nargs; s++)
      if (di->b.args[s] >= 0) note_reads(g, in->acc->ops[di->b.args[s]], var, n, 0);
    if (in->acc_mul) note_reads(g, in->acc_mul, var, n, 0);
    return;
  }
  note_reads(g, n, var, n, in->kind != NK_REDUCE && in->kind != NK_OTHER);
}

/* ------------------------------------------------------------- roots */

/* Emit the code of materialised node n (not an argument) into dst. */
static int emit_root(cg *g, const ir_tnode *n, const char *dst) {
  ninfo *in = ni(g, n);
  int var[IR_MAX_RANK];
  for (int j = 0; j < IR_MAX_RANK; j++) var[j] = j;
  if (in->acc) {
    /* dst = the other operand; dst += alpha * dot */
    const ir_tnode *o = in->b.args[in->acc_other] >= 0 ? n->ops[in->b.args[in->acc_other]] : NULL;
    int same = o && o->kind == IR_TN_ARG && o->arg == in->inplace && ir_type_equal(&o->type, &n->type);
    int zero = o ? o->kind == IR_TN_CONST && o->value == 0 : in->b.kconst[in->acc_other] == 0;
    if (!same && !zero) {
      ir_buf e = {0};
      operand_expr(g, n, in->acc_other, var, &e);
      emit_loop(g, &n->type, dst, ir_buf_str(&e));
      ir_buf_free(&e);
    }
    ir_buf alpha = {0};
    if (in->acc_mul) {
      const ninfo *mi = ni(g, in->acc_mul);
      int ds = mi->b.args[0] >= 0 && in->acc_mul->ops[mi->b.args[0]] == in->acc ? 0 : 1;
      int novar[IR_MAX_RANK] = {0};
      slot_expr(g, in->acc_mul, 1 - ds, novar, &alpha);
    } else
      ir_buf_printf(&alpha, "1");
    int rc = emit_dot(g, in->acc, dst, ir_buf_str(&alpha), !zero, NULL);
    ir_buf_free(&alpha);
    return rc;
  }
  switch (in->kind) {
  case NK_REDUCE:
    return emit_reduce(g, n, dst);
  case NK_OTHER:
    if (!strcmp(in->b.kernel->name, "dot_general")) {
      window w;
      return emit_dot(g, n, dst, "1", 0, demand_window(g, n, &w) ? &w : NULL);
    }
    {
      char cnt[STR];
      prod_str(g, n->type.dims, n->type.rank, cnt);
      fprintf(g->out, "  memcpy(%s, upl_v%d, %s * sizeof(%s));\n", dst,
              n->ops[in->b.args[0]]->id, cnt, ctype(n->type.elem));
    }
    return 0;
  default: {
    ir_buf e = {0};
    gen_value(g, n, var, &e);
    window w;
    if (inplace_window(g, n, &w))
      emit_window_loop(g, &n->type, &w, dst, ir_buf_str(&e),
                       "the mask's window: the rest keeps its value");
    else if (demand_window(g, n, &w))
      emit_window_loop(g, &n->type, &w, dst, ir_buf_str(&e),
                       "only the window its reader reads");
    else
      emit_loop(g, &n->type, dst, ir_buf_str(&e));
    ir_buf_free(&e);
    return 0;
  }
  }
}

/* ------------------------------------------------------------ the function */

static const char prelude[] =
    "#include <math.h>\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "\n"
    "#include <cblas.h>\n"
    "\n"
    "static inline void *upl_alloc(size_t n) {\n"
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
    "/* C's fmax/fmin as the interpreter defines them: a NaN operand gives the\n"
    "   other, equal operands the first (C leaves the zero's sign open) */\n"
    "static inline double upl_cfmax(double a, double b) { return a >= b || b != b ? a : b; }\n"
    "static inline double upl_cfmin(double a, double b) { return a <= b || b != b ? a : b; }\n"
    "static inline double upl_abs(double a) { return fabs(a); } /* abs(-0) is +0 */\n"
    "/* on integer data (int converts to long exactly); abs wraps at the\n"
    "   minimum as the tensor program's does */\n"
    "static inline long upl_maxl(long a, long b) { return a > b ? a : b; }\n"
    "static inline long upl_minl(long a, long b) { return a < b ? a : b; }\n"
    "static inline long upl_absl(long a) {\n"
    "  return (long)(a < 0 ? 0ul - (unsigned long)a : (unsigned long)a);\n"
    "}\n"
    "static inline unsigned long upl_maxul(unsigned long a, unsigned long b) { return a > b ? a : b; }\n"
    "static inline unsigned long upl_minul(unsigned long a, unsigned long b) { return a < b ? a : b; }\n";

/* Plan the fusion of the program nodes[0..nn-1] (results p, written to
 * vars rvar): classify, count readers, decide what is materialised, find
 * BLAS accumulations and the results written in place. */
static int plan(cg *g, const ir_tprog *p, const int *rvar, const ir_tnode **nodes, int nn) {
  for (int i = 0; i < nn; i++) {
    ni(g, nodes[i])->pos = i;
    if (classify(g, nodes[i])) return -1;
  }
  for (int i = 0; i < nn; i++) {
    const ir_tnode *n = nodes[i];
    const ninfo *in = ni(g, n);
    if (n->kind != IR_TN_OP) continue;
    for (int s = 0; s < in->b.nargs; s++) {
      if (in->b.args[s] < 0) continue;
      if (in->b.args[s] >= n->nops) return fail(g, "operand %d of node %d missing", s, n->id);
      ninfo *o = ni(g, n->ops[in->b.args[s]]);
      o->users++;
      o->user = n;
      o->slot = s;
      if (in->kind == NK_OTHER || in->kind == NK_SLICE) o->blocked = 1;
    }
  }
  for (int i = 0; i < p->nresults; i++) ni(g, p->results[i])->result = 1;
  for (int i = 0; i < nn; i++) decide(g, nodes[i]);
  for (int i = 0; i < nn; i++)
    if (ni(g, nodes[i])->mat && nodes[i]->kind == IR_TN_OP) find_accumulation(g, nodes[i]);
  for (int i = 0; i < nn; i++) {
    const ninfo *in = ni(g, nodes[i]);
    if (in->mat && !in->absorbed && in->kind != NK_ARG) root_reads(g, nodes[i]);
  }
  /* results written straight into their arrays */
  for (int i = 0; i < p->nresults; i++) {
    const ir_tnode *r = p->results[i];
    ninfo *ri = ni(g, r);
    const ir_var *v = g->k->vars[rvar[i]];
    if (r->kind == IR_TN_ARG || ri->inplace >= 0 || v->elem != r->type.elem) continue;
    int ok = !ir_var_is_view(v); /* a region: copied out at its offsets */
    for (int j = 0; j < p->nresults && ok; j++) {
      if (j == i) continue;
      if (rvar[j] == rvar[i]) ok = 0; /* written twice */
      const ir_tnode *o = p->results[j];
      if (o->kind == IR_TN_ARG && o->arg == rvar[i]) ok = 0; /* old value copied out */
    }
    for (int j = 0; j < g->nreads && ok; j++) {
      const aread *a = &g->reads[j];
      if (a->var == rvar[i] && a->pos >= ri->pos && !(a->root == r->id && a->aligned)) ok = 0;
    }
    if (ok) ri->inplace = rvar[i];
  }
  return 0;
}

/* The results' array parameters (rvar) and the arguments of nodes[0..nn-1]
 * checked against k's signature. */
static int check_signature(cg *g, const ir_tprog *p, const ir_tnode **nodes, int nn, int *rvar) {
  const ir_kernel *k = g->k;
  for (int i = 0; i < p->nresults; i++) {
    rvar[i] = p->result_names[i] ? ir_kernel_find_var(k, p->result_names[i]) : -1;
    if (rvar[i] < 0 || k->vars[rvar[i]]->kind != IR_VAR_ARRAY)
      return fail(g, "result %d (%s) is not an array parameter of %s", i,
                  p->result_names[i] ? p->result_names[i] : "?", k->name);
  }
  for (int i = 0; i < nn; i++) {
    const ir_tnode *n = nodes[i];
    if (n->kind != IR_TN_ARG) continue;
    if (n->arg < 0 || n->arg >= k->nvars) return fail(g, "argument %d out of range", n->arg);
    const ir_var *v = k->vars[n->arg];
    if ((v->param_index < 0 && !v->size_value && !slice_of(g, n->arg)) ||
        (v->kind != IR_VAR_ARRAY && v->kind != IR_VAR_SCALAR))
      return fail(g, "argument %s is not a parameter of %s", v->name, k->name);
    if (v->elem != n->type.elem)
      return fail(g, "argument %s is %s in the program, %s in C", v->name,
                  ir_elem_mlir_name(n->type.elem), ir_elem_mlir_name(v->elem));
  }
  return 0;
}

/* The prelude and the file-scope arrays k reads or writes, declared. */
static void write_file_head(const ir_kernel *k, FILE *out) {
  fputs(prelude, out);
  fputc('\n', out);
  for (int i = 0; i < k->nparams; i++) /* file-scope arrays it reads or writes */
    if (k->vars[k->params[i]]->global) {
      fputs("extern ", out);
      ir_param_print(k, i, out);
      fputs(";\n", out);
    }
}

/* k's signature, then (an item of a nested kept loop) the iterators of the
 * kept loops around it as `long` parameters, outermost first, and their
 * upl_ names (they may be sizes of the item). */
static void write_signature(const ir_kernel *k, const encl *outer, FILE *out) {
  int n = 0;
  for (const encl *e = outer; e; e = e->up) n++;
  char **extra = ir_calloc((size_t)n + 1, sizeof *extra);
  int i = n;
  for (const encl *e = outer; e; e = e->up) {
    const char *it = k->vars[e->loop->iter]->name;
    size_t len = strlen(it) + 8;
    extra[--i] = ir_malloc(len);
    snprintf(extra[i], len, "long %s", it);
  }
  ir_signature_print_with(k, (const char *const *)extra, n, out);
  fputs(" {\n", out);
  for (i = 0; i < n; i++) {
    fprintf(out, "  const long upl_%s = %s;\n  (void)upl_%s;\n", extra[i] + 5, extra[i] + 5,
            extra[i] + 5);
    ir_free(extra[i]);
  }
  ir_free(extra);
}

/* The file's comment (what the plan made of the program), the prelude and
 * the function's signature. */
static void write_head(cg *g, const ir_tnode **nodes, int nn) {
  const ir_kernel *k = g->k;
  int nops = 0, nbuf = 0, nroots = 0, nacc = 0, ninpl = 0;
  for (int i = 0; i < nn; i++) {
    const ninfo *in = ni(g, nodes[i]);
    if (nodes[i]->kind == IR_TN_OP) nops++;
    if (!in->mat || in->kind == NK_ARG || in->absorbed) continue;
    nroots++;
    nbuf += in->inplace < 0;
    nacc += in->acc != NULL;
    ninpl += in->inplace >= 0;
  }
  if (g->part) /* the sequence wrote the comment, prelude and externs */
    fputs("static ", g->out);
  else
    fprintf(g->out,
          "/* generated by uplift: %s raised to a tensor program and written as C\n"
          " * with CBLAS calls (compile with `pkg-config --cflags --libs openblas`).\n"
          " * A drop-in replacement for %s of %s.\n"
          " * %d ops in %d steps (loop nests or BLAS calls): %d temporary buffers,\n"
          " * %d results written in place, %d BLAS calls accumulating into a loop's\n"
          " * result. */\n",
          k->name, k->name, k->file ? k->file : "the original", nops, nroots, nbuf, ninpl,
          nacc);
  if (!g->part) write_file_head(k, g->out);
  write_signature(k, g->outer, g->out);
  if (k->returns && !g->part) { /* the returned value's array, a local */
    const ir_var *r = k->vars[k->params[k->nparams - 1]];
    fprintf(g->out, "  %s %s[1] = {0};\n", ctype(r->elem), r->name);
  }
  for (int v = 0; v < k->nvars; v++) { /* sizes used as values */
    const ir_var *sv = k->vars[v];
    if (!sv->size_value) continue;
    fprintf(g->out, "  %s %s = (%s)(", ctype(sv->elem), sv->name, ctype(sv->elem));
    ir_expr_print(k, sv->size_value, g->out);
    fputs(");\n", g->out);
  }
}

/* The kernel's assumptions (its views are regions of their storage only
 * under them, k <= lda): each checked, a failing one aborts with a message
 * naming it and the sizes it reads. */
static void write_assumes(const ir_kernel *k, FILE *out) {
  for (int i = 0; i < k->nassumes; i++) {
    const ir_assume *a = &k->assumes[i];
    if (a->kept) continue;
    fputs("  if (!((long)(", out);
    ir_expr_print(k, a->lo, out);
    fputs(") <= (long)(", out);
    ir_expr_print(k, a->hi, out);
    fprintf(out, "))) {\n    fprintf(stderr, \"%s: the sizes break the assumption ", k->name);
    ir_assume_print(k, a, out);
    fputs(" (", out);
    int n = 0;
    for (int j = 0; j < k->nparams; j++) {
      const ir_var *v = k->vars[k->params[j]];
      if (v->kind == IR_VAR_SIZE && (ir_expr_reads(a->lo, v->id) || ir_expr_reads(a->hi, v->id)))
        fprintf(out, "%s%s=%%ld", n++ ? ", " : "", v->name);
    }
    fputs("), under which this code is the original kernel\\n\"", out);
    for (int j = 0; j < k->nparams; j++) {
      const ir_var *v = k->vars[k->params[j]];
      if (v->kind == IR_VAR_SIZE && (ir_expr_reads(a->lo, v->id) || ir_expr_reads(a->hi, v->id)))
        fprintf(out, ", (long)%s", v->name);
    }
    fputs(");\n    abort();\n  }\n", out);
  }
}

/* "(uintptr_t)v + bytes": the end of array v's storage (its declared
 * extents: a view's store, else its dims; a padded dim's storage too). */
static void write_storage_end(const ir_kernel *k, const ir_var *v, FILE *out) {
  fprintf(out, "(uintptr_t)%s + sizeof(%s)", v->name, ctype(v->elem));
  for (int d = 0; d < v->rank; d++) {
    fputs(" * (size_t)(", out);
    ir_expr_print(k, v->store[0] ? v->store[d] : v->dims[d], out);
    fputc(')', out);
  }
}

/* The overlap assumptions (ir_kernel_no_overlap): for each pair, a check
 * that the two arrays' storage is disjoint, else abort with a message. */
static void write_overlaps(const ir_kernel *k, FILE *out) {
  for (int i = 0; i < k->nparams; i++)
    for (int j = i + 1; j < k->nparams; j++) {
      const ir_var *a = k->vars[k->params[i]], *b = k->vars[k->params[j]];
      if (!ir_kernel_no_overlap(k, a->id, b->id)) continue;
      fputs("  if (!(", out);
      write_storage_end(k, a, out);
      fprintf(out, " <= (uintptr_t)%s || ", b->name);
      write_storage_end(k, b, out);
      fprintf(out, " <= (uintptr_t)%s)) {\n", a->name);
      fprintf(out,
              "    fprintf(stderr, \"%s: %s and %s overlap in memory; this code assumes they "
              "do not (the original allows it)\\n\");\n    abort();\n  }\n",
              k->name, a->name, b->name);
    }
}

/* The row-major index "((upl_r0) * (long)(E1) + upl_r1)" over extents ext. */
static void write_rowmajor(const ir_kernel *k, struct ir_expr *const *ext, int rank, FILE *out) {
  for (int d = 0; d < rank; d++) fputc('(', out);
  for (int d = 0; d < rank; d++) {
    if (d) {
      fputs(" * (long)(", out);
      ir_expr_print(k, ext[d], out);
      fputs(") + ", out);
    }
    fprintf(out, "upl_r%d)", d);
  }
}

/* Copy view v (a region of its storage, ir_var.store) between its storage
 * (the caller's array) and the row-major buffer upl_v<id>: in (storage to
 * buffer) or out.  A padded pointer's elements past its storage are zeros
 * going in and left out going out. */
static void write_view_copy(const ir_kernel *k, const ir_var *v, int id, int in, FILE *out) {
  const char *T = ctype(v->elem);
  int ind = 2 + 2 * v->rank;
  for (int d = 0; d < v->rank; d++) {
    fprintf(out, "%*sfor (long upl_r%d = 0; upl_r%d < (long)(", 2 + 2 * d, "", d, d);
    ir_expr_print(k, v->dims[d], out);
    fprintf(out, "); upl_r%d++)\n", d);
  }
  if (v->padded) { /* inside the storage in every padded dim */
    fprintf(out, "%*sif (", ind, "");
    int c = 0;
    for (int d = 0; d < v->rank; d++) {
      if (!(v->padded & (1u << d))) continue;
      fprintf(out, "%supl_r%d < (long)(", c++ ? " && " : "", d);
      ir_expr_print(k, v->store[d], out);
      fputc(')', out);
    }
    fputs(")\n", out);
    ind += 2;
  }
  fprintf(out, "%*s", ind, "");
  for (int pass = 0; pass < 2; pass++) { /* destination = source */
    if (pass) fputs(" = ", out);
    if (pass == (in ? 1 : 0)) {
      fprintf(out, "((%s *)%s)[", T, v->name);
      write_rowmajor(k, v->store, v->rank, out);
    } else {
      fprintf(out, "upl_v%d[", id);
      write_rowmajor(k, v->dims, v->rank, out);
    }
    fputc(']', out);
  }
  fputs(";\n", out);
  if (v->padded && in) {
    fprintf(out, "%*selse\n%*supl_v%d[", ind - 2, "", ind, "", id);
    write_rowmajor(k, v->dims, v->rank, out);
    fprintf(out, "] = (%s)0;\n", T);
  }
}

/* Is slice s a run of consecutive elements of its array: the dims it cuts
 * at the iterator all come before the ones it keeps (a row, not a column)?
 * Then it is read in place, through a pointer to the run's start (its
 * array is not written by the body: ir_tslice). */
static int slice_in_place(const ir_kernel *k, const ir_tslice *s) {
  const ir_var *src = k->vars[s->src];
  if (ir_var_is_view(src)) return 0;
  for (int d = 1; d < src->rank; d++)
    if (s->at[d] && !s->at[d - 1]) return 0;
  return 1;
}

/* The row-major index in the storage of array src of the element at[d] in
 * each dim d (written through ir_expr_print_c's hook read, NULL: as
 * written); where at[d] is NULL, the r-th such dim's index is upl_r<r>, or
 * 0 with first. */
static void write_storage_index(const ir_kernel *k, const ir_var *src, const ir_expr *const *at,
                                int first, ir_var_print_fn read, void *user, FILE *out) {
  struct ir_expr *const *ext = ir_var_is_view(src) ? src->store : src->dims;
  for (int d = 0; d < src->rank; d++) fputc('(', out);
  for (int d = 0, r = 0; d < src->rank; d++) {
    if (d) {
      fputs(" * (long)(", out);
      ir_expr_print(k, ext[d], out);
      fputs(") + ", out);
    }
    if (at[d]) {
      fputs("(long)(", out);
      ir_expr_print_c(k, at[d], read, user, out);
      fputs("))", out);
    } else if (first) {
      fputs("0L)", out);
    } else {
      fprintf(out, "upl_r%d)", r++);
    }
  }
}

/* The index in array src of slice s's element (upl_r0, upl_r1, ...) or,
 * with first, of its first element. */
static void write_slice_index(const ir_kernel *k, const ir_tslice *s, int first, FILE *out) {
  write_storage_index(k, k->vars[s->src], s->at, first, NULL, NULL, out);
}

/* Copy slice s of a kept loop (ir_tslice) from its array at the iterator's
 * value into the row-major buffer upl_v<id>. */
static void write_slice_copy(const ir_kernel *k, const ir_tslice *s, int id, FILE *out) {
  const ir_var *v = k->vars[s->var], *src = k->vars[s->src];
  const char *T = ctype(v->elem);
  for (int d = 0; d < v->rank; d++) {
    fprintf(out, "%*sfor (long upl_r%d = 0; upl_r%d < (long)(", 2 + 2 * d, "", d, d);
    ir_expr_print(k, v->dims[d], out);
    fprintf(out, "); upl_r%d++)\n", d);
  }
  fprintf(out, "%*supl_v%d[", 2 + 2 * v->rank, "", id);
  if (v->rank) write_rowmajor(k, v->dims, v->rank, out);
  else fputc('0', out);
  fprintf(out, "] = ((%s *)%s)[", T, src->name);
  write_slice_index(k, s, 0, out);
  fputs("];\n", out);
}

/* The sizes: checked (a negative one aborts with a message), then as longs. */
static void write_sizes(const ir_kernel *k, FILE *out) {
  for (int i = 0; i < k->nvars; i++) /* constant extents (float w[3]) */
    if (k->vars[i]->kind == IR_VAR_EXTENT || k->vars[i]->pinned)
      fprintf(out, "  const long upl_%s = %ldL;\n  (void)upl_%s;\n", k->vars[i]->name,
              k->vars[i]->value, k->vars[i]->name);
  int nsz = 0;
  for (int i = 0; i < k->nparams; i++)
    if (k->vars[k->params[i]]->kind == IR_VAR_SIZE) nsz++;
  if (!nsz) return;
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
  write_assumes(k, out);
}

/* Is n a temporary of a kept loop's body allocated once, before the loop,
 * and freed after it?  So every temporary whose size does not read the
 * iterator: allocating it at each iteration costs the page faults of
 * fresh memory every time (most of gramschmidt's time); each iteration
 * writes it before reading it, as the first would. */
static int hoisted(const cg *g, const ir_tnode *n) {
  const ninfo *in = ni(g, n);
  if (!g->loop || n->kind == IR_TN_ARG || !in->mat || in->absorbed || in->inplace >= 0)
    return 0;
  for (int j = 0; j < n->type.rank; j++)
    if (n->type.dims[j] == g->loop->iter) return 0;
  return 1;
}

/* Allocate the hoisted temporaries (before the kept loop); a constant's
 * is written there too, once. */
static int write_hoisted(cg *g, const ir_tnode **nodes, int nn) {
  for (int i = 0; i < nn; i++) {
    if (!hoisted(g, nodes[i])) continue;
    const ir_type *t = &nodes[i]->type;
    char cnt[STR], dst[64];
    prod_str(g, t->dims, t->rank, cnt);
    fprintf(g->out, "  %s *upl_v%d = upl_alloc(%s * sizeof(%s)); /* for every iteration */\n",
            ctype(t->elem), nodes[i]->id, cnt, ctype(t->elem));
    snprintf(dst, sizeof dst, "upl_v%d", nodes[i]->id);
    if (nodes[i]->kind == IR_TN_CONST && emit_root(g, nodes[i], dst)) return -1;
  }
  return 0;
}

/* One step per materialised node: the arguments as pointers, every other
 * root into its buffer (or its result array, in place). */
static int write_steps(cg *g, const ir_tnode **nodes, int nn) {
  const ir_kernel *k = g->k;
  FILE *out = g->out;
  for (int i = 0; i < nn; i++) {
    const ir_tnode *n = nodes[i];
    const ninfo *in = ni(g, n);
    const ir_type *t = &n->type;
    const char *T = ctype(t->elem);
    if (n->kind == IR_TN_ARG && ir_var_is_view(k->vars[n->arg])) {
      char cnt[STR];
      prod_str(g, t->dims, t->rank, cnt);
      fprintf(out, "  %s *upl_v%d = upl_alloc(%s * sizeof(%s)); /* the region of %s */\n", T,
              n->id, cnt, T, k->vars[n->arg]->name);
      write_view_copy(k, k->vars[n->arg], n->id, 1, out);
      continue;
    }
    const ir_tslice *sl = n->kind == IR_TN_ARG ? slice_of(g, n->arg) : NULL;
    if (sl && slice_in_place(k, sl)) { /* a run of its array: a pointer to it */
      fprintf(out, "  %s *upl_v%d = (%s *)%s + ", T, n->id, T, k->vars[sl->src]->name);
      write_slice_index(k, sl, 1, out);
      fprintf(out, "; /* %s, read in place in %s */\n  (void)upl_v%d;\n",
              k->vars[n->arg]->name, k->vars[sl->src]->name, n->id);
      continue;
    }
    if (sl) { /* a kept loop's slice: cut at this iteration */
      char cnt[STR];
      prod_str(g, t->dims, t->rank, cnt);
      fprintf(out, "  %s *upl_v%d = upl_alloc(%s * sizeof(%s)); /* %s, cut from %s */\n", T,
              n->id, cnt, T, k->vars[n->arg]->name, k->vars[sl->src]->name);
      write_slice_copy(k, sl, n->id, out);
      continue;
    }
    if (n->kind == IR_TN_ARG) {
      const ir_var *v = k->vars[n->arg];
      fprintf(out, "  %s *upl_v%d = (%s *)%s%s;\n  (void)upl_v%d;\n", T, n->id, T,
              v->kind == IR_VAR_SCALAR ? "&" : "", v->name, n->id);
      continue;
    }
    if (!in->mat || in->absorbed || (n->kind == IR_TN_CONST && hoisted(g, n))) continue;
    if (in->inplace >= 0) {
      fprintf(out, "  %s *upl_v%d = (%s *)%s; /* written in place */\n", T, n->id, T,
              k->vars[in->inplace]->name);
    } else if (!hoisted(g, n)) {
      char cnt[STR];
      prod_str(g, t->dims, t->rank, cnt);
      fprintf(out, "  %s *upl_v%d = upl_alloc(%s * sizeof(%s));\n", T, n->id, cnt, T);
    }
    char dst[64];
    snprintf(dst, sizeof dst, "upl_v%d", n->id);
    if (emit_root(g, n, dst)) return -1;
  }
  return 0;
}

/* Copy the results out (those not written in place), free the temporaries
 * and close the function. */
static void write_tail(cg *g, const ir_tprog *p, const int *rvar, const ir_tnode **nodes, int nn) {
  FILE *out = g->out;
  for (int i = 0; i < p->nresults; i++) {
    const ir_tnode *r = p->results[i];
    const ir_var *v = g->k->vars[rvar[i]];
    if (r->kind == IR_TN_ARG && r->arg == rvar[i]) continue; /* unchanged */
    if (ni(g, r)->inplace == rvar[i]) continue;             /* written already */
    if (ir_var_is_view(v)) {
      write_view_copy(g->k, v, r->id, 0, out);
      continue;
    }
    char cnt[STR];
    prod_str(g, r->type.dims, r->type.rank, cnt);
    fprintf(out, "  for (long upl_q = 0; upl_q < %s; upl_q++)\n", cnt);
    fprintf(out, "    ((%s *)%s)[upl_q] = (%s)upl_v%d[upl_q];\n", ctype(v->elem), v->name,
            ctype(v->elem), r->id);
  }
  for (int pass = 0; pass < 2; pass++) { /* in the loop, then the hoisted ones after it */
    for (int i = 0; i < nn; i++) {
      const ninfo *in = ni(g, nodes[i]);
      const ir_tslice *sl =
          nodes[i]->kind == IR_TN_ARG ? slice_of(g, nodes[i]->arg) : NULL;
      if (((in->mat && in->kind != NK_ARG && !in->absorbed && in->inplace < 0) ||
           (nodes[i]->kind == IR_TN_ARG && ir_var_is_view(g->k->vars[nodes[i]->arg])) ||
           (sl && !slice_in_place(g->k, sl))) &&
          hoisted(g, nodes[i]) == pass)
        fprintf(out, "  free(upl_v%d);\n", nodes[i]->id);
    }
    if (!pass && p->loop) fputs("  }\n", out); /* the kept loop */
  }
  if (g->k->returns)
    fprintf(out, "  return %s[0];\n", g->k->vars[g->k->params[g->k->nparams - 1]]->name);
  fprintf(out, "}\n");
}

/* Open kept loop l (issue 14): upl_kept runs over its iterator's values,
 * which the slices' indices (the iterator's name) and the body's sizes
 * (upl_NAME) read. */
static void write_kept_open(const ir_kernel *k, const ir_tloop *l, FILE *out) {
  fputs("  for (long upl_kept = ", out);
  ir_expr_print(k, l->down ? l->hi : l->lo, out);
  fputs(l->down ? "; upl_kept >= " : "; upl_kept <= ", out);
  ir_expr_print(k, l->down ? l->lo : l->hi, out);
  fprintf(out, "; upl_kept%s) { /* the kept loop %s */\n", l->down ? "--" : "++",
          k->vars[l->iter]->name);
  const char *it = k->vars[l->iter]->name;
  if (l->nslices || l->iter_size) /* the slices' indices read it */
    fprintf(out, "  const long %s = upl_kept;\n  (void)%s;\n", it, it);
  if (l->iter_size) /* a size of the body */
    fprintf(out, "  const long upl_%s = upl_kept;\n  (void)upl_%s;\n", it, it);
}

/* The call `NAME(k's arguments, the iterators of the loops around
 * (outermost first), last)` (outer, last may be NULL). */
static void write_call(const ir_kernel *k, const char *name, const encl *outer, const char *last,
                       FILE *out) {
  fprintf(out, "  %s(", name);
  int n = ir_kernel_nargs(k), sep = 0;
  for (int a = 0; a < n; a++) fprintf(out, "%s%s", sep++ ? ", " : "", k->vars[k->params[a]]->name);
  int depth = 0;
  for (const encl *e = outer; e; e = e->up) depth++;
  for (int d = depth - 1; d >= 0; d--) { /* outermost first */
    const encl *e = outer;
    for (int i = 0; i < d; i++) e = e->up;
    fprintf(out, "%s%s", sep++ ? ", " : "", k->vars[e->loop->iter]->name);
  }
  if (last) fprintf(out, "%s%s", sep ? ", " : "", last);
  fputs(");\n", out);
}

static int emit_func(const ir_tprog *p, const ir_kernel *k, int part, const encl *outer, FILE *out,
                     ir_error *err);

/* A kept loop whose body is a sequence of items (ir_tprog.items: nested
 * kept loops, issue 14): each item a static function NAME_itemJ
 * (emit_func; a kept loop in turn, its items NAME_itemJ_itemK) whose last
 * parameters are the iterators of the loops around it, then NAME, the
 * loop calling the items in order at each iteration.  part and outer as
 * for emit_func. */
static int emit_nested(const ir_tprog *p, const ir_kernel *k, int part, const encl *outer,
                       FILE *out, ir_error *err) {
  cg g = {out, k, err, NULL, NULL, 0, NULL, 0, 0, p->loop, part, outer};
  if (k->returns)
    return fail(&g, "a kernel that returns a value is not written as C around nested kept loops");
  if (!part) {
    fprintf(out,
            "/* generated by uplift: %s raised to a kept loop whose body is a sequence of\n"
            " * %d tensor programs (its statements and kept loops in order), written as C\n"
            " * with CBLAS calls (compile with `pkg-config --cflags --libs openblas`).\n"
            " * A drop-in replacement for %s of %s: each item a function, called in\n"
            " * order at each iteration on the arrays as the one before leaves them. */\n",
            k->name, p->nitems, k->name, k->file ? k->file : "the original");
    write_file_head(k, out);
  }
  encl me = {p->loop, outer};
  char name[256];
  for (int i = 0; i < p->nitems; i++) {
    ir_kernel item = *p->items[i]->kernel;
    snprintf(name, sizeof name, "%s_item%d", k->name, i);
    item.name = name;
    fputc('\n', out);
    if (emit_func(p->items[i], &item, 1, &me, out, err)) return -1;
  }
  fputc('\n', out);
  if (part) fputs("static ", out);
  write_signature(k, outer, out);
  write_sizes(k, out);
  write_overlaps(k, out);
  write_kept_open(k, p->loop, out);
  for (int i = 0; i < p->nitems; i++) {
    snprintf(name, sizeof name, "%s_item%d", k->name, i);
    fputs("  ", out);
    write_call(k, name, outer, "upl_kept", out);
  }
  fputs("  }\n}\n", out);
  return 0;
}

/* ---- scalar items (issue 14; docs/emit-c.md, "Scalar items"): the
 * statements as written, as C loops over element reads and writes. */

/* A read of a variable of a scalar item (ir_expr_print_c's hook): an
 * element of an array (or of the array an enclosing kept loop's slice is
 * cut from, at the slice's indices) at its row-major index in its storage,
 * whatever the C parameter's form (a VLA, a flat pointer); a carried
 * local, a one-element array, as its element. */
static int scalar_read(const ir_kernel *k, const ir_expr *e, void *user, FILE *out) {
  const cg *g = user;
  const ir_var *v = k->vars[e->var];
  const ir_tslice *sl = slice_of(g, e->var);
  if (e->kind == IR_EX_VAR && !sl) {
    if (v->kind != IR_VAR_ARRAY || !v->carried) return 0;
    fprintf(out, "%s[0]", v->name);
    return 1;
  }
  const ir_var *src = sl ? k->vars[sl->src] : v;
  const ir_expr *at[IR_MAX_RANK] = {0};
  for (int d = 0, r = 0; d < src->rank; d++) at[d] = sl && sl->at[d] ? sl->at[d] : e->args[r++];
  fprintf(out, "((%s *)%s)[", ctype(src->elem), src->name);
  write_storage_index(k, src, at, 0, scalar_read, user, out);
  fputc(']', out);
  return 1;
}

/* The statements s as C, indented by depth. */
static void scalar_stmts(const cg *g, const ir_stmt *s, int depth) {
  static const char *ops[] = {"=", "+=", "-=", "*=", "/="};
  const ir_kernel *k = g->k;
  FILE *out = g->out;
  for (; s; s = s->next) {
    fprintf(out, "%*s", 2 * depth, "");
    switch (s->kind) {
    case IR_ST_FOR: {
      const char *it = k->vars[s->iter]->name;
      fprintf(out, "for (long %s = ", it);
      ir_expr_print_c(k, s->step > 0 ? s->lo : s->hi, scalar_read, (void *)g, out);
      fprintf(out, "; %s %s ", it, s->step > 0 ? "<=" : ">=");
      ir_expr_print_c(k, s->step > 0 ? s->hi : s->lo, scalar_read, (void *)g, out);
      fprintf(out, "; %s%s) {\n", it, s->step > 0 ? "++" : "--");
      scalar_stmts(g, s->body, depth + 1);
      fprintf(out, "%*s}\n", 2 * depth, "");
      break;
    }
    case IR_ST_IF:
      fputs("if (", out);
      ir_expr_print_c(k, s->cond, scalar_read, (void *)g, out);
      fputs(") {\n", out);
      scalar_stmts(g, s->then_body, depth + 1);
      if (s->else_body) {
        fprintf(out, "%*s} else {\n", 2 * depth, "");
        scalar_stmts(g, s->else_body, depth + 1);
      }
      fprintf(out, "%*s}\n", 2 * depth, "");
      break;
    case IR_ST_ASSIGN:
      ir_expr_print_c(k, s->lhs, scalar_read, (void *)g, out);
      fprintf(out, " %s ", ops[s->op]);
      ir_expr_print_c(k, s->rhs, scalar_read, (void *)g, out);
      fputs(";\n", out);
      break;
    }
  }
}

/* The scalar item p (ir_tprog.scalar) as a function with k's signature
 * (part and outer as for emit_func) running k's statements as written. */
static int emit_scalar(const ir_tprog *p, const ir_kernel *k, int part, const encl *outer,
                       FILE *out, ir_error *err) {
  cg g = {out, k, err, NULL, NULL, 0, NULL, 0, 0, p->loop, part, outer};
  if (!part) {
    fprintf(out,
            "/* generated by uplift: %s, whose statements stay scalar loops (a true\n"
            " * recurrence, issue 14), written as C as the original runs them.\n"
            " * A drop-in replacement for %s of %s. */\n",
            k->name, k->name, k->file ? k->file : "the original");
    write_file_head(k, out);
  } else {
    fputs("/* a scalar item: its statements as written (issue 14) */\nstatic ", out);
  }
  write_signature(k, outer, out);
  write_sizes(k, out);
  if (k->returns && !part) { /* the returned value's array, a local */
    const ir_var *r = k->vars[k->params[k->nparams - 1]];
    fprintf(out, "  %s %s[1] = {0};\n", ctype(r->elem), r->name);
  }
  for (int v = 0; v < k->nvars; v++) { /* its locals, and sizes used as values */
    const ir_var *x = k->vars[v];
    if (x->size_value) {
      fprintf(out, "  %s %s = (%s)(", ctype(x->elem), x->name, ctype(x->elem));
      ir_expr_print(k, x->size_value, out);
      fputs(");\n", out);
    }
    if (x->kind != IR_VAR_LOCAL && x->kind != IR_VAR_LOCAL_ARRAY) continue;
    fprintf(out, "  %s %s", ctype(x->elem), x->name);
    for (int d = 0; d < x->rank; d++) {
      fputc('[', out);
      ir_expr_print_c(k, x->dims[d], scalar_read, &g, out);
      fputc(']', out);
    }
    fprintf(out, ";\n  (void)%s;\n", x->name);
  }
  scalar_stmts(&g, k->body, 1);
  if (k->returns)
    fprintf(out, "  return %s[0];\n", k->vars[k->params[k->nparams - 1]]->name);
  fputs("}\n", out);
  return 0;
}

/* emit_c_func, or, with part, one part of a sequence or an item of a nested
 * kept loop's body (cg.part; outer: the kept loops around the item). */
static int emit_func(const ir_tprog *p, const ir_kernel *k, int part, const encl *outer, FILE *out,
                     ir_error *err) {
  ir_error_clear(err);
  if (p->nitems) return emit_nested(p, k, part, outer, out, err);
  if (p->scalar) return emit_scalar(p, k, part, outer, out, err);
  cg g = {out, k, err, NULL, NULL, 0, NULL, 0, 0, p->loop, part, outer};
  int cap = 4096;
  const ir_tnode **nodes = ir_malloc((size_t)cap * sizeof *nodes);
  int nn = ir_tp_topo(p->results, p->nresults, nodes, cap);
  int rvar[IR_TP_MAX_RESULTS]; /* results: which parameter each one is written to */
  int rc = nn < 0 ? fail(&g, "program too large (more than %d nodes)", cap)
                  : check_signature(&g, p, nodes, nn, rvar);
  if (rc == 0) {
    g.hcap = 16;
    while (g.hcap < 2 * (size_t)nn) g.hcap *= 2;
    g.hkey = ir_calloc(g.hcap, sizeof *g.hkey);
    g.info = ir_calloc(g.hcap, sizeof *g.info);
    rc = plan(&g, p, rvar, nodes, nn);
  }
  if (rc == 0) {
    write_head(&g, nodes, nn);
    write_sizes(k, out);
    write_overlaps(k, out);
    if (p->loop) { /* a kept loop (issue 14): the body's steps at each iteration */
      if (write_hoisted(&g, nodes, nn)) rc = -1;
      write_kept_open(k, p->loop, out);
    }
    if (rc == 0) rc = write_steps(&g, nodes, nn);
  }
  if (rc == 0) write_tail(&g, p, rvar, nodes, nn);
  ir_free(g.hkey);
  ir_free(g.info);
  ir_free(g.reads);
  ir_free(nodes);
  return rc;
}

int emit_c_func(const gram_dialect *d, const ir_tprog *p, const ir_kernel *k, FILE *out,
                ir_error *err) {
  (void)d;
  return emit_func(p, k, 0, NULL, out, err);
}

/* ---- carried locals: a part's locals carried from one part to another
 * (ir_var.carried) as C parameters after the kernel's, one-element arrays
 * (`float e[1]`) the part reads and writes and the wrapper declares. */
typedef struct carried_c {
  ir_var **vars;  /* the part's variables, the carried ones copies */
  ir_var **mine;  /* the copies, nmine of them */
  int nmine;
  int *params;
  ir_expr *one;   /* their extent */
} carried_c;

/* Make part's carried locals C parameters (in c's memory: carried_free). */
static void carried_params(ir_kernel *part, carried_c *c) {
  memset(c, 0, sizeof *c);
  if (!part->ncarried) return;
  int nargs = ir_kernel_nargs(part);
  c->one = ir_calloc(1, sizeof *c->one);
  c->one->kind = IR_EX_CONST;
  c->one->type = IR_I32;
  c->one->value = 1;
  c->one->is_int = 1;
  c->vars = ir_calloc((size_t)part->nvars, sizeof *c->vars);
  memcpy(c->vars, part->vars, sizeof *c->vars * (size_t)part->nvars);
  c->mine = ir_calloc((size_t)part->ncarried, sizeof *c->mine);
  c->params = ir_calloc((size_t)part->nparams, sizeof *c->params);
  memcpy(c->params, part->params, sizeof *c->params * (size_t)nargs);
  int np = nargs;
  for (int a = nargs; a < part->nparams; a++) { /* the carried ones first */
    int v = part->params[a];
    if (!part->vars[v]->carried) continue;
    ir_var *x = ir_calloc(1, sizeof *x);
    *x = *part->vars[v];
    x->kind = IR_VAR_ARRAY;
    x->rank = 1;
    x->dims[0] = c->one;
    x->param_index = np;
    c->vars[v] = x;
    c->mine[c->nmine++] = x;
    c->params[np++] = v;
  }
  for (int a = nargs; a < part->nparams; a++)
    if (!part->vars[part->params[a]]->carried) c->params[np++] = part->params[a];
  part->vars = c->vars;
  part->params = c->params;
  part->ncarried = 0;
}

static void carried_free(carried_c *c) {
  for (int i = 0; i < c->nmine; i++) ir_free(c->mine[i]);
  ir_free(c->mine);
  ir_free(c->vars);
  ir_free(c->params);
  ir_free(c->one);
}
/* ---- end carried locals */

int emit_c_seq(const gram_dialect *d, const ir_tprog *const *ps, const ir_kernel *const *ks,
               int n, const ir_kernel *k, FILE *out, ir_error *err) {
  (void)d;
  ir_error_clear(err);
  fprintf(out,
          "/* generated by uplift: %s raised to a sequence of %d tensor programs (the\n"
          " * statements and kept loops of its top level, in order) and written as C with\n"
          " * CBLAS calls (compile with `pkg-config --cflags --libs openblas`).\n"
          " * A drop-in replacement for %s of %s: each part a function, called in\n"
          " * order on the arrays as the one before leaves them. */\n",
          k->name, n, k->name, k->file ? k->file : "the original");
  write_file_head(k, out);
  for (int i = 0; i < n; i++) {
    ir_kernel part = *ks[i];
    char name[256];
    snprintf(name, sizeof name, "%s_part%d", k->name, i);
    part.name = name;
    fputc('\n', out);
    carried_c c;
    carried_params(&part, &c);
    int rc = emit_func(ps[i], &part, 1, NULL, out, err);
    carried_free(&c);
    if (rc) return -1;
  }
  fputc('\n', out);
  ir_signature_print(k, out);
  fputs(" {\n", out);
  /* the locals carried from one part to another: one element each */
  unsigned char *decl = ir_calloc((size_t)k->nvars + 1, 1);
  for (int i = 0; i < n; i++)
    for (int a = ir_kernel_nargs(ks[i]); a < ks[i]->nparams; a++) {
      const ir_var *v = ks[i]->vars[ks[i]->params[a]];
      if (!v->carried || decl[v->id]) continue;
      decl[v->id] = 1;
      fprintf(out, "  %s %s[1]; /* a local carried from one part to another */\n",
              ir_elem_c_name(v->elem), v->name);
    }
  ir_free(decl);
  for (int i = 0; i < n; i++) {
    char name[256], carried[512] = "";
    snprintf(name, sizeof name, "%s_part%d", k->name, i);
    size_t at = 0;
    for (int a = ir_kernel_nargs(ks[i]); a < ks[i]->nparams && at < sizeof carried; a++)
      if (ks[i]->vars[ks[i]->params[a]]->carried)
        at += (size_t)snprintf(carried + at, sizeof carried - at, "%s%s", at ? ", " : "",
                               ks[i]->vars[ks[i]->params[a]]->name);
    write_call(k, name, NULL, at ? carried : NULL, out);
  }
  fputs("}\n", out);
  return 0;
}
