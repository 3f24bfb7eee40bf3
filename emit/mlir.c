/*
 * mlir.c - MLIR text of tensor programs, from the dialect's templates.
 *
 * The program's nodes are written in topological order, one SSA value per
 * node: arguments are the function's block arguments (%NAME), constants and
 * masks are dense literals written through the dialect's `constant`
 * template, ops through their `emit` lines (or `emit.broadcast` when an
 * operand's shape differs from the result's) with each placeholder
 * ($res, $a.type, $perm, $%fresh, ...; see docs/dialects.md) replaced.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "enumerator/enumerator.h"

/* ---------------------------------------------------------------- types */

static long dim_size(int d, const long *sizes, int nsizes) {
  if (d == IR_DIM_ONE) return 1;
  if (d < 0 || d >= nsizes || !sizes) return -1;
  return sizes[d];
}

/* The spelling of element type e in dialect d's text: StableHLO's (ui8),
 * or without the signedness where d says `signless` (MLIR's builtin
 * integers: the ops carry it). */
static const char *elem_name(const gram_dialect *d, ir_elem e) {
  return d && d->signless ? ir_elem_mlir_signless(e) : ir_elem_mlir_name(e);
}

/* The arith op converting element type `from` to `to` as C does
 * (extension by the source's signedness, truncation modulo 2^N, rounding
 * toward zero from floating values). */
static const char *arith_convert(ir_elem from, ir_elem to) {
  int fi = ir_elem_is_int(from), ti = ir_elem_is_int(to);
  int wf = ir_elem_bits(from), wt = ir_elem_bits(to);
  if (fi && ti) {
    if (wt == wf) return "arith.bitcast"; /* i32 and ui32 are both i32 */
    if (wt < wf) return "arith.trunci";
    return ir_elem_is_signed(from) ? "arith.extsi" : "arith.extui";
  }
  if (fi) return ir_elem_is_signed(from) ? "arith.sitofp" : "arith.uitofp";
  if (ti) return ir_elem_is_signed(to) ? "arith.fptosi" : "arith.fptoui";
  return wt > wf ? "arith.extf" : "arith.truncf";
}

static char *type_str(const gram_dialect *d, const ir_type *t, const long *sizes, int nsizes,
                      char *buf, size_t n) {
  size_t at = (size_t)snprintf(buf, n, "tensor<");
  for (int i = 0; i < t->rank && at < n; i++) {
    long s = dim_size(t->dims[i], sizes, nsizes);
    if (s < 0) at += (size_t)snprintf(buf + at, n - at, "?x");
    else at += (size_t)snprintf(buf + at, n - at, "%ldx", s);
  }
  if (at < n) snprintf(buf + at, n - at, "%s>", elem_name(d, t->elem));
  return buf;
}

char *emit_mlir_type(const ir_type *t, const long *sizes, int nsizes, char *buf,
                     size_t n) {
  return type_str(NULL, t, sizes, nsizes, buf, n);
}

/* A float literal MLIR reads back exactly (hex for non-finite values). */
static void put_elem(ir_buf *b, ir_elem e, double v) {
  switch (e) {
  case IR_I1: ir_buf_puts(b, v != 0 ? "true" : "false"); return;
  case IR_I32: /* a max or min reduction's identity: the type's bound */
    if (isinf(v)) v = v > 0 ? INT_MAX : INT_MIN;
    ir_buf_printf(b, "%ld", (long)v);
    return;
  case IR_I64:
    if (isinf(v)) ir_buf_printf(b, "%ld", v > 0 ? LONG_MAX : LONG_MIN);
    else ir_buf_printf(b, "%ld", (long)v);
    return;
  case IR_I8: case IR_U8: case IR_I16: case IR_U16: case IR_U32: case IR_U64: {
    /* a max or min reduction's identity: the type's bound */
    int w = ir_elem_bits(e), sg = ir_elem_is_signed(e);
    if (isinf(v) && v > 0) v = sg ? ldexp(1, w - 1) - 1 : ldexp(1, w) - 1;
    else if (isinf(v)) v = sg ? -ldexp(1, w - 1) : 0;
    if (e == IR_U64) ir_buf_printf(b, "%lu", (unsigned long)v);
    else ir_buf_printf(b, "%ld", (long)v);
    return;
  }
  case IR_F32:
    if (isnan(v)) ir_buf_puts(b, "0x7FC00000");
    else if (isinf(v)) ir_buf_puts(b, v > 0 ? "0x7F800000" : "0xFF800000");
    else ir_buf_printf(b, "%.9e", v);
    return;
  case IR_F64:
    if (isnan(v)) ir_buf_puts(b, "0x7FF8000000000000");
    else if (isinf(v)) ir_buf_puts(b, v > 0 ? "0x7FF0000000000000" : "0xFFF0000000000000");
    else ir_buf_printf(b, "%.17e", v);
    return;
  }
}

/* dense<...> : TYPE for a tensor of `dims` whose element i is val(i). */
static void put_dense(ir_buf *b, const ir_type *t, const long *dims,
                      double (*val)(long i, void *u), void *u, const char *type) {
  ir_buf_puts(b, "dense<");
  long total = 1;
  for (int i = 0; i < t->rank; i++) total *= dims[i];
  if (t->rank == 0) put_elem(b, t->elem, val(0, u));
  else if (total == 0) /* no elements: `dense<>` (`[]` is read as shape [0] only) */
    ;
  else {
    long stride[IR_MAX_RANK];
    stride[t->rank - 1] = 1;
    for (int i = t->rank - 2; i >= 0; i--) stride[i] = stride[i + 1] * dims[i + 1];
    for (long idx = 0; idx < total; idx++) {
      int open = 0;
      for (int i = 0; i < t->rank; i++)
        if (idx % (stride[i] * dims[i]) == 0) open++;
      if (idx) ir_buf_puts(b, ", ");
      for (int i = 0; i < open; i++) ir_buf_puts(b, "[");
      put_elem(b, t->elem, val(idx, u));
      int close = 0;
      for (int i = 0; i < t->rank; i++)
        if ((idx + 1) % (stride[i] * dims[i]) == 0) close++;
      for (int i = 0; i < close; i++) ir_buf_puts(b, "]");
    }
  }
  ir_buf_printf(b, "> : %s", type);
}

/* ------------------------------------------------------------- emission */

#define MAX_IDX_CONSTS 64

typedef struct ectx {
  const gram_dialect *d;
  const emit_opts *o;
  ir_buf *b;
  const ir_tnode **nodes;
  int nnodes;
  int failed;
  int dyn;                   /* dynamic shapes */
  int wdyn;                  /* the node being written computes its windows
                                as index values (dynamic shapes, or a dim
                                that is an index argument) */
  const long *tsizes;        /* sizes for types: o->sizes, NULL when dynamic */
  int nsyms;                 /* symbols 0..nsyms-1 */
  char (*symssa)[64];        /* dynamic: the SSA value of each size symbol
                                ("" if no argument has it) */
  long idx[MAX_IDX_CONSTS];  /* index constants used (%idx_N) */
  int nidx;
  const ir_tprog *prog;
  int ndefined;              /* nodes[0..ndefined-1] are emitted */
  unsigned char *skip;       /* nodes[i] not written (a broadcast only folded
                                unit reduces use, emit.unit) */
  const ir_tnode *from, *to; /* while a node is written: operand `from` is
                                named `to` (emit.unit) */
} ectx;

/* The name of the index constant v (defined in the prologue). */
static const char *idx_const(ectx *c, long v, char *buf, size_t n) {
  int i = 0;
  while (i < c->nidx && c->idx[i] != v) i++;
  if (i == c->nidx && c->nidx < MAX_IDX_CONSTS) c->idx[c->nidx++] = v;
  else if (i == c->nidx) c->failed = 1;
  snprintf(buf, n, "%%idx_%s%ld", v < 0 ? "m" : "", v < 0 ? -v : v);
  return buf;
}

static int is_sym_arg(const emit_opts *o, int sym);

/* Does t have a dim that is an index argument (a kept iterator the body
 * reads as a size: a window of extent k)?  Such a dim is `?` whatever the
 * shapes, its value the argument. */
static int has_arg_dim(const ectx *c, const ir_type *t) {
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != IR_DIM_ONE && is_sym_arg(c->o, t->dims[i])) return 1;
  return 0;
}

/* Does t have a dim that is a size symbol? */
static int has_sym_dim(const ir_type *t) {
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != IR_DIM_ONE) return 1;
  return 0;
}

/* The SSA index value of dim i of t (a symbol's value or a constant). */
static const char *dim_value(ectx *c, const ir_type *t, int i, char *buf, size_t n) {
  int d = t->dims[i];
  if (d == IR_DIM_ONE) return idx_const(c, 1, buf, n);
  if (is_sym_arg(c->o, d) && c->prog->kernel) { /* an index argument */
    snprintf(buf, n, "%%%s", c->prog->kernel->vars[d]->name);
    return buf;
  }
  if (!c->dyn) return idx_const(c, dim_size(d, c->o->sizes, c->o->nsizes), buf, n);
  if (d < 0 || d >= c->nsyms || !c->symssa[d][0]) {
    c->failed = 1;
    snprintf(buf, n, "%%unknown_size");
    return buf;
  }
  snprintf(buf, n, "%s", c->symssa[d]);
  return buf;
}

static void node_name(const ir_tnode *n, char *buf, size_t len) {
  if (n->kind == IR_TN_ARG) {
    if (n->name) snprintf(buf, len, "%%%s", n->name);
    else snprintf(buf, len, "%%arg%d", n->arg);
  } else {
    snprintf(buf, len, "%%v%d", n->id);
  }
}

/* The name of v where it is used: v must be an argument of the function
 * or a node emitted before; anything else is an internal error (the text
 * would use an undefined SSA value), which fails the emission. */
static void use_name(ectx *c, const ir_tnode *v, char *buf, size_t len) {
  int defined = 0;
  if (v == c->from) v = c->to;
  if (v->kind == IR_TN_ARG) {
    for (int i = 0; i < c->prog->nargs && !defined; i++)
      defined = c->prog->args[i] == v;
  } else {
    /* nodes[ndefined] is the node being emitted: its own result is defined */
    for (int i = 0; i <= c->ndefined && i < c->nnodes && !defined; i++)
      defined = c->nodes[i] == v && !(c->skip && c->skip[i]);
  }
  node_name(v, buf, len);
  if (!defined) {
    if (!c->failed)
      fprintf(stderr, "uplift: internal error: the program uses %s, which is neither an "
                      "argument nor computed before\n", buf);
    c->failed = 1;
  }
}

static void put_type(ectx *c, const ir_type *t) {
  char buf[96];
  ir_buf_puts(c->b, type_str(c->d, t, c->tsizes, c->o->nsizes, buf, sizeof buf));
}

/* "3, 4"; a dynamic dim is written -1. */
static void put_shape(ectx *c, const ir_type *t) {
  for (int i = 0; i < t->rank; i++)
    ir_buf_printf(c->b, "%s%ld", i ? ", " : "", dim_size(t->dims[i], c->tsizes, c->o->nsizes));
}

/* The `?` dims' SSA values ($x.dyn; empty with static shapes). */
static void put_dyn(ectx *c, const ir_type *t) {
  if (!c->dyn && !has_arg_dim(c, t)) return;
  char buf[64];
  int first = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] == IR_DIM_ONE || (!c->dyn && !is_sym_arg(c->o, t->dims[i]))) continue;
    ir_buf_printf(c->b, "%s%s", first ? "" : ", ", dim_value(c, t, i, buf, sizeof buf));
    first = 0;
  }
}

/* The core of t: its dims that are not a constant 1, in order. */
static ir_type core_type(const ir_type *t) {
  ir_type k = *t;
  k.rank = 0;
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != IR_DIM_ONE) k.dims[k.rank++] = t->dims[i];
  return k;
}

/* The reassociation of t onto its core ($x.core_reassoc): each core dim
 * grouped with the unit dims before it (trailing ones join the last group),
 * ` [[0, 1], [2]]` (with a space before); ` []` for a core of rank 0;
 * empty when t has no unit
 * dim (then $x.collapse and $x.expand are tensor.cast, which takes none). */
static void put_core_reassoc(ectx *c, const ir_type *t) {
  ir_type k = core_type(t);
  if (k.rank == t->rank) return;
  ir_buf_puts(c->b, " [");
  int d = 0;
  for (int g = 0; g < k.rank; g++) {
    ir_buf_printf(c->b, "%s[", g ? ", " : "");
    int first = 1;
    while (d < t->rank) { /* the unit dims, then the core dim */
      int is_core = t->dims[d] != IR_DIM_ONE;
      ir_buf_printf(c->b, "%s%d", first ? "" : ", ", d++);
      first = 0;
      if (is_core) break;
    }
    if (g == k.rank - 1)
      while (d < t->rank) ir_buf_printf(c->b, ", %d", d++);
    ir_buf_puts(c->b, "]");
  }
  ir_buf_puts(c->b, "]");
}

/* Every dim as an SSA index value ($x.dims). */
static void put_dims(ectx *c, const ir_type *t) {
  char buf[64];
  for (int i = 0; i < t->rank; i++)
    ir_buf_printf(c->b, "%s%s", i ? ", " : "", dim_value(c, t, i, buf, sizeof buf));
}

typedef struct leafval {
  const ir_tnode *n;
  long dims[IR_MAX_RANK];
  const long *sizes;
  int nsizes;
} leafval;

static long symval(int sym, void *u) {
  const leafval *l = u;
  return dim_size(sym, l->sizes, l->nsizes);
}

static double leaf_value(long i, void *u) {
  const leafval *l = u;
  if (l->n->kind == IR_TN_CONST) return l->n->value;
  long idx[IR_MAX_RANK] = {0};
  for (int k = l->n->type.rank - 1; k >= 0; k--) {
    idx[k] = i % l->dims[k];
    i /= l->dims[k];
  }
  return ir_mask_contains(l->n->mask, idx, symval, (void *)l);
}

/* ------------------------------------------------- windows (slice ops) */

/* What a window attribute (start s and keep per operand dim, docs/
 * dialects.md; a start counted from the end, keep 2, is X + s here) makes
 * of operand x into result r, per dim d of x, as a
 * slice of x padded with zeros: X = x's dim, R = r's dim (1 where d is
 * dropped), low = min(R, max(0, -s)) zeros before, the slice x[off,
 * off + size) with off = min(X, max(0, s)) and size = max(0, min(X -
 * off, R - low)), then high = R - low - size zeros after; limit = off +
 * size. */
enum { W_OFF, W_SIZE, W_LOW, W_HIGH, W_LIMIT, W_COUNT };
static const char w_tag[W_COUNT] = {'o', 's', 'l', 'h', 'e'};

/* Is attribute ai of n's op a window, or a shift (issue 14's pad: edge
 * padding (low, high) per dim with low + high = 0, written as the window
 * that starts at high and keeps every dim)? */
static gram_dom attr_dom(const ir_tnode *n, int ai) {
  return ((const gram_op *)n->op->owner)->attrs[ai].dom;
}
static int is_window(const ir_tnode *n, int ai) {
  return attr_dom(n, ai) == GRAM_DOM_WINDOW || attr_dom(n, ai) == GRAM_DOM_SHIFT;
}

/* Start and keep of dim d of window (or shift) attribute ai of n. */
static long window_start(const ir_tnode *n, int ai, int d) {
  return n->attrs[ai].v[2 * d + (attr_dom(n, ai) == GRAM_DOM_SHIFT)];
}
static int window_keep(const ir_tnode *n, int ai, int d) {
  return attr_dom(n, ai) == GRAM_DOM_SHIFT ? 1 : n->attrs[ai].v[2 * d + 1];
}

/* The result dim of n that operand dim d of its window attribute ai keeps,
 * or -1 when it is dropped. */
static int window_rdim(const ir_tnode *n, int ai, int d) {
  if (window_keep(n, ai, d) != 1) return -1;
  int k = 0;
  for (int e = 0; e < d; e++) k += window_keep(n, ai, e) == 1;
  return k;
}

/* The operand of n a window attribute ranges over. */
static const ir_tnode *window_operand(const ir_tnode *n, int ai) {
  const gram_op *op = n->op->owner;
  return n->ops[op->attrs[ai].arg[0]];
}

/* Static shapes: the values of dim d (W_*). */
static void window_static(ectx *c, const ir_tnode *n, int ai, int d, long v[W_COUNT]) {
  const ir_tnode *x = window_operand(n, ai);
  long X = dim_size(x->type.dims[d], c->o->sizes, c->o->nsizes);
  long s = window_start(n, ai, d) + (window_keep(n, ai, d) == 2 ? X : 0);
  int k = window_rdim(n, ai, d);
  long R = k < 0 ? 1 : dim_size(n->type.dims[k], c->o->sizes, c->o->nsizes);
  long low = -s < 0 ? 0 : -s, off = s < 0 ? 0 : s;
  if (low > R) low = R;
  if (off > X) off = X;
  long size = X - off < R - low ? X - off : R - low;
  if (size < 0) size = 0;
  v[W_OFF] = off, v[W_SIZE] = size, v[W_LOW] = low, v[W_HIGH] = R - low - size;
  v[W_LIMIT] = off + size;
}

/* Dynamic shapes: lines computing every W_* value of every dim of n's
 * window attributes as index values %vID_wTAGD (before n's own lines). */
static void window_dynamic(ectx *c, const ir_tnode *n) {
  const gram_op *op = n->op->owner;
  for (int ai = 0; ai < op->nattrs; ai++) {
    if (!is_window(n, ai)) continue;
    const ir_tnode *x = window_operand(n, ai);
    for (int d = 0; d < x->type.rank; d++) {
      char X[64], R[64], z[32], s[32], ms[32];
      long sv = window_start(n, ai, d);
      int k = window_rdim(n, ai, d);
      dim_value(c, &x->type, d, X, sizeof X);
      if (k < 0) idx_const(c, 1, R, sizeof R);
      else dim_value(c, &n->type, k, R, sizeof R);
      idx_const(c, 0, z, sizeof z);
      idx_const(c, sv, s, sizeof s);
      idx_const(c, -sv, ms, sizeof ms);
      const char *p = "  %%v%d_w%c%d";
      int id = n->id;
      ir_buf *b = c->b;
      if (window_keep(n, ai, d) == 2) { /* the start counted from X */
        ir_buf_printf(b, p, id, 'A', d), ir_buf_printf(b, " = arith.addi %s, %s : index\n", X, s);
        ir_buf_printf(b, p, id, 'M', d), ir_buf_printf(b, " = arith.subi %s, %%v%d_wA%d : index\n", z, id, d);
        snprintf(s, sizeof s, "%%v%d_wA%d", id, d);
        snprintf(ms, sizeof ms, "%%v%d_wM%d", id, d);
      }
      ir_buf_printf(b, p, id, 'L', d), ir_buf_printf(b, " = arith.maxsi %s, %s : index\n", z, ms);
      ir_buf_printf(b, p, id, 'l', d), ir_buf_printf(b, " = arith.minsi %s, %%v%d_wL%d : index\n", R, id, d);
      ir_buf_printf(b, p, id, 'O', d), ir_buf_printf(b, " = arith.maxsi %s, %s : index\n", z, s);
      ir_buf_printf(b, p, id, 'o', d), ir_buf_printf(b, " = arith.minsi %s, %%v%d_wO%d : index\n", X, id, d);
      ir_buf_printf(b, p, id, 'X', d), ir_buf_printf(b, " = arith.subi %s, %%v%d_wo%d : index\n", X, id, d);
      ir_buf_printf(b, p, id, 'R', d), ir_buf_printf(b, " = arith.subi %s, %%v%d_wl%d : index\n", R, id, d);
      ir_buf_printf(b, p, id, 'S', d), ir_buf_printf(b, " = arith.minsi %%v%d_wX%d, %%v%d_wR%d : index\n", id, d, id, d);
      ir_buf_printf(b, p, id, 's', d), ir_buf_printf(b, " = arith.maxsi %s, %%v%d_wS%d : index\n", z, id, d);
      ir_buf_printf(b, p, id, 'h', d), ir_buf_printf(b, " = arith.subi %%v%d_wR%d, %%v%d_ws%d : index\n", id, d, id, d);
      ir_buf_printf(b, p, id, 'e', d), ir_buf_printf(b, " = arith.addi %%v%d_wo%d, %%v%d_ws%d : index\n", id, d, id, d);
    }
  }
}

/* Placeholder $ATTR.SFX of window attribute ai of n: offsets, sizes,
 * limits, low, high (one entry per operand dim: integers with static
 * shapes, the index values of window_dynamic else), n (the operand's
 * rank), strides (1s), block_args (`%v7_b0: index, ...`, a tensor.pad
 * body's), padding (static: `[low, high], ...`), collapse and into
 * (`tensor.collapse_shape` ... `into` when a dim is dropped, else
 * `tensor.cast` ... `to`),
 * slice_type (the slice's tensor type), pad_type (the padded slice: the
 * result's dims at the operand's rank, 1 for a dropped dim), reassoc (the
 * groups of pad_type's dims onto the result's: ` [[0, 1]]`, `[]` at rank
 * 0, empty when no dim is dropped).  Returns 0, or -1 for another
 * suffix. */
static int put_window(ectx *c, const ir_tnode *n, int ai, const char *sfx, int slen) {
#define WS(x) (slen == (int)strlen(x) && !strncmp(sfx, x, (size_t)slen))
  static const char *const names[W_COUNT] = {"offsets", "sizes", "low", "high", "limits"};
  const ir_tnode *x = window_operand(n, ai);
  ir_buf *b = c->b;
  int rank = x->type.rank;
  for (int q = 0; q < W_COUNT; q++) {
    if (!WS(names[q])) continue;
    for (int d = 0; d < rank; d++) {
      long v[W_COUNT];
      if (d) ir_buf_puts(b, ", ");
      if (c->wdyn) ir_buf_printf(b, "%%v%d_w%c%d", n->id, w_tag[q], d);
      else window_static(c, n, ai, d, v), ir_buf_printf(b, "%ld", v[q]);
    }
    return 0;
  }
  int drops = n->type.rank != rank;
  if (WS("n")) ir_buf_printf(b, "%d", rank);
  else if (WS("strides")) {
    for (int d = 0; d < rank; d++) ir_buf_puts(b, d ? ", 1" : "1");
  } else if (WS("block_args")) {
    for (int d = 0; d < rank; d++) ir_buf_printf(b, "%s%%v%d_b%d: index", d ? ", " : "", n->id, d);
  } else if (WS("padding")) { /* static: [low, high] per dim */
    for (int d = 0; d < rank; d++) {
      long v[W_COUNT];
      window_static(c, n, ai, d, v);
      ir_buf_printf(b, "%s[%ld, %ld]", d ? ", " : "", v[W_LOW], v[W_HIGH]);
    }
  } else if (WS("collapse") || WS("into")) {
    ir_buf_puts(b, WS("into") ? (drops ? "into" : "to")
                              : drops ? "tensor.collapse_shape" : "tensor.cast");
  } else if (WS("slice_type") || WS("pad_type")) {
    ir_buf_puts(b, "tensor<");
    for (int d = 0; d < rank; d++) {
      long v[W_COUNT];
      int k = window_rdim(n, ai, d);
      if (WS("pad_type")) {
        long r = k < 0 ? 1 : dim_size(n->type.dims[k], c->tsizes, c->o->nsizes);
        if (r < 0) ir_buf_puts(b, "?x");
        else ir_buf_printf(b, "%ldx", r);
      } else if (c->wdyn) ir_buf_puts(b, "?x");
      else window_static(c, n, ai, d, v), ir_buf_printf(b, "%ldx", v[W_SIZE]);
    }
    ir_buf_printf(b, "%s>", elem_name(c->d, x->type.elem));
  } else if (WS("reassoc")) {
    if (n->type.rank == rank) return 0;
    /* group k: from kept dim k (operand dim 0 for the first) to the
     * next kept dim (the last dim for the last group) */
    int kept[IR_MAX_RANK], nk = 0;
    for (int d = 0; d < rank; d++)
      if (window_rdim(n, ai, d) >= 0) kept[nk++] = d;
    ir_buf_puts(b, " [");
    for (int k = 0; k < nk; k++) {
      int from = k ? kept[k] : 0, to = k + 1 < nk ? kept[k + 1] : rank;
      ir_buf_puts(b, k ? ", [" : "[");
      for (int d = from; d < to; d++) ir_buf_printf(b, "%s%d", d > from ? ", " : "", d);
      ir_buf_puts(b, "]");
    }
    ir_buf_puts(b, "]");
  } else return -1;
  return 0;
#undef WS
}

/* ---- linalg.generic placeholders (reverse) */
/* affine_map<(d0, d1) -> (d0, d1)> of rank r. */
static void put_idmap(ir_buf *b, int r) {
  ir_buf_puts(b, "affine_map<(");
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%sd%d", i ? ", " : "", i);
  ir_buf_puts(b, ") -> (");
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%sd%d", i ? ", " : "", i);
  ir_buf_puts(b, ")>");
}

/* The value of op node n's dim(x) attribute, or -1 when it has none. */
static int op_dim_attr(const gram_op *op, const ir_tnode *n) {
  for (int i = 0; op && i < op->nattrs; i++)
    if (op->attrs[i].dom == GRAM_DOM_DIM && n->attrs[i].n > 0) return n->attrs[i].v[0];
  return -1;
}
/* ---- end linalg.generic placeholders */

/* The element type T of op node n: that of its first operand whose pattern
 * fixes no element type, else the result's (docs/dialects.md). */
static ir_elem node_t_elem(const gram_op *op, const ir_tnode *n) {
  for (int i = 0; i < op->nops && i < n->nops; i++)
    if (!op->pats[i].fixed_elem) return n->ops[i]->type.elem;
  return n->type.elem;
}

/* Expand one template line for node n (n == NULL: the constant line with
 * `value` as $value). */
static void exact_minmax(ir_buf *b, size_t start);

static void expand(ectx *c, const gram_line *line, const ir_tnode *n, const ir_buf *value) {
  const gram_op *op = n && n->kind == IR_TN_OP ? n->op->owner : NULL;
  const char *t = line->text;
  ir_buf *b = c->b;
  size_t start = b->n;
  ir_buf_printf(b, "  %*s", line->indent, "");
  for (const char *s = t; *s;) {
    const char *name;
    int len, skip;
    int r = gram_template_next(s, &name, &len, &skip);
    if (r <= 0) {
      ir_buf_add(b, s, 1);
      s++;
      continue;
    }
    s += skip;
    if (r == 2) {
      ir_buf_puts(b, "$");
      continue;
    }
    const char *dot = memchr(name, '.', (size_t)len);
    int base = dot ? (int)(dot - name) : len;
    const char *sfx = dot ? dot + 1 : "";
    int slen = dot ? len - base - 1 : 0;
#define SFX(x) (slen == (int)strlen(x) && !strncmp(sfx, x, (size_t)slen))
    char nm[64];
    if (name[0] == '%') {
      ir_buf_printf(b, "%%v%d_%.*s", n ? n->id : 0, len - 1, name + 1);
      continue;
    }
    if (len == 5 && !strncmp(name, "value", 5)) {
      ir_buf_add(b, value->s, value->n);
      continue;
    }
    /* a value: res or an operand */
    const ir_tnode *v = NULL;
    int oi = op ? gram_op_operand(op, name, base) : -1;
    if (base == 3 && !strncmp(name, "res", 3)) v = n;
    else if (oi >= 0) v = n->ops[oi];
    if (v == c->from) v = c->to;
    if (v) {
      if (!dot) {
        use_name(c, v, nm, sizeof nm);
        ir_buf_puts(b, nm);
      } else if (SFX("type")) put_type(c, &v->type);
      else if (SFX("elem")) ir_buf_puts(b, elem_name(c->d, v->type.elem));
      else if (SFX("zero")) ir_buf_puts(b, ir_elem_is_float(v->type.elem) ? "0.0" : "0");
      else if (SFX("ones")) /* 2^bits - 1 of an integer type: a zero extension's mask */
        ir_buf_printf(b, "%llu", ir_elem_bits(v->type.elem) >= 64
                                     ? ~0ULL
                                     : (1ULL << ir_elem_bits(v->type.elem)) - 1);
      else if (SFX("conv") && v->kind == IR_TN_OP && v->nops > 0) /* from operand 0 to v */
        ir_buf_puts(b, arith_convert(v->ops[0]->type.elem, v->type.elem));
      else if (SFX("shape")) put_shape(c, &v->type);
      else if (SFX("shape_attr")) { /* array<i64: 3, 4>; array<i64> at rank 0 */
        ir_buf_puts(b, v->type.rank ? "array<i64: " : "array<i64");
        put_shape(c, &v->type);
        ir_buf_puts(b, ">");
      }
      else if (SFX("rank")) ir_buf_printf(b, "%d", v->type.rank);
      else if (SFX("dyn")) put_dyn(c, &v->type);
      else if (SFX("dims")) put_dims(c, &v->type);
      else if (SFX("axes"))
        for (int i = 0; i < v->type.rank; i++) ir_buf_printf(b, "%s%d", i ? ", " : "", i);
      /* ---- a linalg.generic written over v's iteration space (reverse):
       * the identity map, the iterator types, the linalg.index values and
       * their list with the entry at the op's dim(x) attribute flipped */
      else if (SFX("idmap")) put_idmap(b, v->type.rank);
      else if (SFX("parallel"))
        for (int i = 0; i < v->type.rank; i++) ir_buf_printf(b, "%s\"parallel\"", i ? ", " : "");
      else if (SFX("index_defs"))
        for (int i = 0; i < v->type.rank; i++)
          ir_buf_printf(b, "%s%%v%d_i%d = linalg.index %d : index", i ? "\n  " : "", n->id, i, i);
      else if (SFX("indices") || SFX("indices_flip")) {
        int flip = SFX("indices_flip") ? op_dim_attr(op, n) : -1;
        for (int i = 0; i < v->type.rank; i++)
          ir_buf_printf(b, i == flip ? "%s%%v%d_flip" : "%s%%v%d_i%d", i ? ", " : "", n->id, i);
      }
      /* ---- end linalg.generic placeholders */
      else if (SFX("core_type")) {
        ir_type k = core_type(&v->type);
        put_type(c, &k);
      } else if (SFX("units")) { /* the positions of its unit dims */
        int first = 1;
        for (int i = 0; i < v->type.rank; i++)
          if (v->type.dims[i] == IR_DIM_ONE) {
            ir_buf_printf(b, "%s%d", first ? "" : ", ", i);
            first = 0;
          }
      } else if (SFX("full_type") && n) { /* its element type at the result's shape */
        ir_type f = n->type;
        f.elem = v->type.elem;
        put_type(c, &f);
      } else if (SFX("core_reassoc")) put_core_reassoc(c, &v->type);
      else if (SFX("collapse") || SFX("expand") || SFX("into")) {
        int units = core_type(&v->type).rank != v->type.rank;
        ir_buf_puts(b, !units ? (SFX("into") ? "to" : "tensor.cast")
                       : SFX("into") ? "into"
                       : SFX("collapse") ? "tensor.collapse_shape" : "tensor.expand_shape");
      }
      continue;
    }
    int ai = op ? gram_op_attr(op, name, base) : -1;
    if (ai < 0) {
      fprintf(stderr, "%s:%d:%d: error: template placeholder '$%.*s' has no value here\n",
              line->pos.file, line->pos.line, line->pos.col, len, name);
      c->failed = 1;
      continue;
    }
    const gram_attr *a = &op->attrs[ai];
    const ir_attr *av = &n->attrs[ai];
    if (is_window(n, ai) && dot && !put_window(c, n, ai, sfx, slen)) continue;
    if (a->dom == GRAM_DOM_ENUM || a->dom == GRAM_DOM_REGION) {
      if (SFX("init")) {
        put_elem(b, n->type.elem, gram_region_identity(a->vals[av->v[0]]));
      } else if (SFX("name")) ir_buf_puts(b, a->vals[av->v[0]]);
      else {
        const char *sp = gram_attr_spelling(a, av->v[0], node_t_elem(op, n));
        if (!sp) { /* the generator offers no such program */
          fprintf(stderr, "%s:%d:%d: error: '%s' of '$%.*s' has no %s form\n", line->pos.file,
                  line->pos.line, line->pos.col, a->vals[av->v[0]], len, name,
                  ir_elem_mlir_name(node_t_elem(op, n)));
          c->failed = 1;
        } else ir_buf_puts(b, sp);
      }
      continue;
    }
    if (SFX("n")) {
      ir_buf_printf(b, "%d", a->dom == GRAM_DOM_PAIRS ? av->n / 2 : av->n);
      continue;
    }
    if (SFX("added")) {
      int first = 1;
      for (int i = 0; i < n->type.rank; i++) {
        int used = 0;
        for (int k = 0; k < av->n; k++) used |= av->v[k] == i;
        if (used) continue;
        ir_buf_printf(b, "%s%d", first ? "" : ", ", i);
        first = 0;
      }
      continue;
    }
    int start = 0, step = 1;
    if (SFX("lhs")) step = 2;
    else if (SFX("rhs")) start = 1, step = 2;
    for (int i = start; i < av->n; i += step)
      ir_buf_printf(b, "%s%d", i == start ? "" : ", ", av->v[i]);
#undef SFX
  }
  ir_buf_puts(b, "\n");
  exact_minmax(b, start);
}

/* The line of b from start, `%r = arith.maxf %a, %b : T` (or minf) with T
 * a scalar float type, as the compares and selects it is defined by
 * (NaN propagates, -0 below +0; docs/ops.md): MLIR 16's
 * convert-arith-to-llvm lowers arith.maxf and minf to llvm.intr.maxnum and
 * minnum, which return the operand that is not NaN and either of two
 * zeros, so the programs as emitted would not compute what was proved.
 * The sum a + b is NaN when either is, and the larger of two equal zeros
 * (+0 unless both are -0); -((-a) + (-b)) the smaller. */
static void exact_minmax(ir_buf *b, size_t start) {
  char ind[64], r[64], x[64], y[64], ty[16], fn[8];
  int at = 0;
  const char *l = b->s + start;
  if (sscanf(l, "%63[ ]%63[%%A-Za-z0-9_] = arith.%7[a-z] %63[%%A-Za-z0-9_], %63[%%A-Za-z0-9_] "
                ": %15[a-z0-9]\n%n",
             ind, r, fn, x, y, ty, &at) != 6 ||
      !at || l[at] || (strcmp(fn, "maxf") && strcmp(fn, "minf")) ||
      (strcmp(ty, "f64") && strcmp(ty, "f32") && strcmp(ty, "f16")))
    return;
  int max = !strcmp(fn, "maxf");
  b->n = start;
  b->s[start] = 0;
  ir_buf_printf(b, "%s%s_u = arith.cmpf uno, %s, %s : %s\n", ind, r, x, y, ty);
  ir_buf_printf(b, "%s%s_s = arith.addf %s, %s : %s\n", ind, r, x, y, ty);
  ir_buf_printf(b, "%s%s_g = arith.cmpf ogt, %s, %s : %s\n", ind, r, x, y, ty);
  ir_buf_printf(b, "%s%s_l = arith.cmpf olt, %s, %s : %s\n", ind, r, x, y, ty);
  ir_buf_printf(b, "%s%s_0 = arith.constant 0.0 : %s\n", ind, r, ty);
  ir_buf_printf(b, "%s%s_z = arith.cmpf oeq, %s, %s_0 : %s\n", ind, r, x, r, ty);
  if (max) {
    ir_buf_printf(b, "%s%s_t = arith.select %s_z, %s_s, %s : %s\n", ind, r, r, r, x, ty);
  } else {
    ir_buf_printf(b, "%s%s_na = arith.negf %s : %s\n", ind, r, x, ty);
    ir_buf_printf(b, "%s%s_nb = arith.negf %s : %s\n", ind, r, y, ty);
    ir_buf_printf(b, "%s%s_ns = arith.addf %s_na, %s_nb : %s\n", ind, r, r, r, ty);
    ir_buf_printf(b, "%s%s_m = arith.negf %s_ns : %s\n", ind, r, r, ty);
    ir_buf_printf(b, "%s%s_t = arith.select %s_z, %s_m, %s : %s\n", ind, r, r, r, x, ty);
  }
  ir_buf_printf(b, "%s%s_1 = arith.select %s_l, %s, %s_t : %s\n", ind, r, r, max ? y : x, r, ty);
  ir_buf_printf(b, "%s%s_2 = arith.select %s_g, %s, %s_1 : %s\n", ind, r, r, max ? x : y, r, ty);
  ir_buf_printf(b, "%s%s = arith.select %s_u, %s_s, %s_2 : %s\n", ind, r, r, r, r, ty);
}

static int same_shape(const ir_type *a, const ir_type *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* Does mask n need index ops (dynamic shapes and a `?` dim or a size in
 * a constraint; static shapes and a mask too large to write as a dense
 * literal, such as the rank-3 mask of a contraction in exact form at
 * Polybench's sizes)? */
#define MASK_DENSE_MAX (1L << 22)
/* Is size symbol sym an index argument (emit_opts.sym_args)? */
static int is_sym_arg(const emit_opts *o, int sym) {
  for (int i = 0; i < o->nsym_args; i++)
    if (o->sym_args[i] == sym) return 1;
  return 0;
}

static int mask_is_dynamic(const ectx *c, const ir_tnode *n) {
  for (int j = 0; j < n->mask->ncons; j++) /* no static value: index ops */
    for (int q = 0; q < IR_MASK_MAX_SYMS; q++)
      if (n->mask->cons[j].pcoef[q] && is_sym_arg(c->o, n->mask->cons[j].sym[q])) return 1;
  if (!c->dyn) { /* static shapes: index ops past MASK_DENSE_MAX elements */
    long elems = 1;
    for (int i = 0; i < n->type.rank && elems <= MASK_DENSE_MAX; i++)
      elems *= dim_size(n->type.dims[i], c->o->sizes, c->o->nsizes);
    return elems > MASK_DENSE_MAX && c->d->dynmask != GRAM_DYNMASK_NONE;
  }
  if (has_sym_dim(&n->type)) return 1;
  for (int j = 0; j < n->mask->ncons; j++)
    for (int q = 0; q < IR_MASK_MAX_SYMS; q++)
      if (n->mask->cons[j].pcoef[q]) return 1;
  return 0;
}

/* sum = c + sum_q pcoef[q]*sym[q] (sign -1: the negation), as index ops
 * named %vID_<tag>...; returns the name of the sum in out. */
static void mask_sym_part(ectx *c, const ir_tnode *n, int j, int sign, const char *ind,
                          char *out, size_t on) {
  const ir_mask_con *k = &n->mask->cons[j];
  int id = n->id;
  ir_buf_printf(c->b, "%s%%v%d_c%d = arith.constant %d : index\n", ind, id, j, sign * k->c);
  snprintf(out, on, "%%v%d_c%d", id, j);
  for (int q = 0; q < IR_MASK_MAX_SYMS; q++) {
    if (!k->pcoef[q]) continue;
    int sym = k->sym[q];
    char sv[64];
    if (is_sym_arg(c->o, sym) && c->prog->kernel) /* an index argument */
      snprintf(sv, sizeof sv, "%%%s", c->prog->kernel->vars[sym]->name);
    else if (!c->dyn) /* static shapes: the size's value */
      idx_const(c, dim_size(sym, c->o->sizes, c->o->nsizes), sv, sizeof sv);
    else if (sym < 0 || sym >= c->nsyms || !c->symssa[sym][0]) {
      c->failed = 1;
      fprintf(stderr, "uplift: error: mask uses size symbol %d, which no argument has\n", sym);
      return;
    } else
      snprintf(sv, sizeof sv, "%s", c->symssa[sym]);
    ir_buf_printf(c->b, "%s%%v%d_p%d_%d = arith.constant %d : index\n", ind, id, j, q, sign * k->pcoef[q]);
    ir_buf_printf(c->b, "%s%%v%d_pm%d_%d = arith.muli %s, %%v%d_p%d_%d : index\n", ind, id, j, q,
             sv, id, j, q);
    ir_buf_printf(c->b, "%s%%v%d_ps%d_%d = arith.addi %s, %%v%d_pm%d_%d : index\n", ind, id, j, q, out,
             id, j, q);
    snprintf(out, on, "%%v%d_ps%d_%d", id, j, q);
  }
}

/* A mask as a linalg.generic computing each constraint from linalg.index
 * values with arith ops. */
static void mask_generic(ectx *c, const ir_tnode *n) {
  int id = n->id, r = n->type.rank;
  ir_buf *b = c->b;
  ir_buf_printf(b, "  %%v%d_e = tensor.empty(", id);
  put_dyn(c, &n->type);
  ir_buf_puts(b, ") : ");
  put_type(c, &n->type);
  ir_buf_printf(b, "\n  %%v%d = linalg.generic {indexing_maps = [affine_map<(", id);
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%sd%d", i ? ", " : "", i);
  ir_buf_puts(b, ") -> (");
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%sd%d", i ? ", " : "", i);
  ir_buf_puts(b, ")>], iterator_types = [");
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%s\"parallel\"", i ? ", " : "");
  ir_buf_printf(b, "]} outs(%%v%d_e : ", id);
  put_type(c, &n->type);
  ir_buf_printf(b, ") {\n  ^bb0(%%v%d_o: i1):\n", id);
  const char *ind = "    ";
  for (int i = 0; i < r; i++) ir_buf_printf(b, "%s%%v%d_i%d = linalg.index %d : index\n", ind, id, i, i);
  ir_buf_printf(b, "%s%%v%d_z = arith.constant 0 : index\n", ind, id);
  ir_buf_printf(b, "%s%%v%d_t = arith.constant true\n", ind, id);
  char acc[48], sum[48];
  snprintf(acc, sizeof acc, "%%v%d_t", id);
  for (int j = 0; j < n->mask->ncons; j++) {
    const ir_mask_con *k = &n->mask->cons[j];
    mask_sym_part(c, n, j, 1, ind, sum, sizeof sum);
    for (int i = 0; i < r; i++) {
      if (!k->coef[i]) continue;
      ir_buf_printf(b, "%s%%v%d_k%d_%d = arith.constant %d : index\n", ind, id, j, i, k->coef[i]);
      ir_buf_printf(b, "%s%%v%d_m%d_%d = arith.muli %%v%d_i%d, %%v%d_k%d_%d : index\n", ind, id, j, i,
               id, i, id, j, i);
      ir_buf_printf(b, "%s%%v%d_s%d_%d = arith.addi %s, %%v%d_m%d_%d : index\n", ind, id, j, i, sum,
               id, j, i);
      snprintf(sum, sizeof sum, "%%v%d_s%d_%d", id, j, i);
    }
    ir_buf_printf(b, "%s%%v%d_b%d = arith.cmpi %s, %s, %%v%d_z : index\n", ind, id, j,
             k->eq ? "eq" : "sge", sum, id);
    ir_buf_printf(b, "%s%%v%d_a%d = arith.andi %s, %%v%d_b%d : i1\n", ind, id, j, acc, id, j);
    snprintf(acc, sizeof acc, "%%v%d_a%d", id, j);
  }
  ir_buf_printf(b, "%slinalg.yield %s : i1\n  } -> ", ind, acc);
  put_type(c, &n->type);
  ir_buf_puts(b, "\n");
}

/* A mask in StableHLO: dynamic_iota per dim, the constraint's index terms
 * scaled and summed, compared (chlo.broadcast_compare) with the rank-0
 * size part, the comparisons joined with stablehlo.and.  A rank-0 mask
 * (its value a condition on the sizes alone) is computed with index ops
 * and put in a tensor<i1> with tensor.from_elements. */
static void mask_iota(ectx *c, const ir_tnode *n) {
  int id = n->id, r = n->type.rank;
  ir_buf *b = c->b;
  if (r == 0) { /* no iota: the constraints on the sizes alone, as index ops */
    char acc[48] = "";
    ir_buf_printf(b, "  %%v%d_z = arith.constant 0 : index\n", id);
    for (int j = 0; j < n->mask->ncons; j++) {
      char sum[48];
      mask_sym_part(c, n, j, 1, "  ", sum, sizeof sum);
      ir_buf_printf(b, "  %%v%d_b%d = arith.cmpi %s, %s, %%v%d_z : index\n", id, j,
                    n->mask->cons[j].eq ? "eq" : "sge", sum, id);
      if (acc[0]) {
        ir_buf_printf(b, "  %%v%d_a%d = arith.andi %s, %%v%d_b%d : i1\n", id, j, acc, id, j);
        snprintf(acc, sizeof acc, "%%v%d_a%d", id, j);
      } else
        snprintf(acc, sizeof acc, "%%v%d_b%d", id, j);
    }
    if (!acc[0]) {
      ir_buf_printf(b, "  %%v%d_t = arith.constant true\n", id);
      snprintf(acc, sizeof acc, "%%v%d_t", id);
    }
    ir_buf_printf(b, "  %%v%d = tensor.from_elements %s : tensor<i1>\n", id, acc);
    return;
  }
  char ity[96], ty[96];
  ir_type it = n->type;
  it.elem = IR_I32;
  type_str(c->d, &it, c->tsizes, c->o->nsizes, ity, sizeof ity);
  /* i64 iota values */
  char *x = strstr(ity, "i32>");
  if (x) memcpy(x, "i64", 3);
  type_str(c->d, &n->type, c->tsizes, c->o->nsizes, ty, sizeof ty);
  ir_buf_printf(b, "  %%v%d_shape = tensor.from_elements ", id);
  put_dims(c, &n->type);
  ir_buf_printf(b, " : tensor<%dxindex>\n", r);
  for (int i = 0; i < r; i++)
    ir_buf_printf(b, "  %%v%d_io%d = \"stablehlo.dynamic_iota\"(%%v%d_shape) {iota_dimension = %d : i64} : (tensor<%dxindex>) -> %s\n",
             id, i, id, i, r, ity);
  int nc = n->mask->ncons;
  for (int j = 0; j < nc; j++) {
    const ir_mask_con *k = &n->mask->cons[j];
    char sum[48], lhs[48] = "";
    mask_sym_part(c, n, j, -1, "  ", sum, sizeof sum);
    ir_buf_printf(b, "  %%v%d_r%d = arith.index_cast %s : index to i64\n", id, j, sum);
    ir_buf_printf(b, "  %%v%d_rt%d = tensor.from_elements %%v%d_r%d : tensor<i64>\n", id, j, id, j);
    int any = 0;
    for (int i = 0; i < r; i++) any |= k->coef[i] != 0;
    for (int i = 0; i < r; i++) {
      if (!k->coef[i] && (any || i)) continue;
      ir_buf_printf(b, "  %%v%d_k%d_%d = \"stablehlo.constant\"() {value = dense<%d> : tensor<i64>} : () -> tensor<i64>\n",
               id, j, i, k->coef[i]);
      ir_buf_printf(b, "  %%v%d_m%d_%d = \"chlo.broadcast_multiply\"(%%v%d_io%d, %%v%d_k%d_%d) : (%s, tensor<i64>) -> %s\n",
               id, j, i, id, i, id, j, i, ity, ity);
      if (!lhs[0]) snprintf(lhs, sizeof lhs, "%%v%d_m%d_%d", id, j, i);
      else {
        ir_buf_printf(b, "  %%v%d_s%d_%d = \"stablehlo.add\"(%s, %%v%d_m%d_%d) : (%s, %s) -> %s\n", id, j,
                 i, lhs, id, j, i, ity, ity, ity);
        snprintf(lhs, sizeof lhs, "%%v%d_s%d_%d", id, j, i);
      }
    }
    /* the last comparison or conjunction is the mask itself */
    if (nc == 1) ir_buf_printf(b, "  %%v%d = ", id);
    else ir_buf_printf(b, "  %%v%d_b%d = ", id, j);
    ir_buf_printf(b, "\"chlo.broadcast_compare\"(%s, %%v%d_rt%d) {comparison_direction = #chlo<comparison_direction %s>} : (%s, tensor<i64>) -> %s\n",
             lhs, id, j, k->eq ? "EQ" : "GE", ity, ty);
    if (j >= 1) {
      char prev[48];
      if (j == 1) snprintf(prev, sizeof prev, "%%v%d_b0", id);
      else snprintf(prev, sizeof prev, "%%v%d_a%d", id, j - 1);
      if (j == nc - 1) ir_buf_printf(b, "  %%v%d = ", id);
      else ir_buf_printf(b, "  %%v%d_a%d = ", id, j);
      ir_buf_printf(b, "\"stablehlo.and\"(%s, %%v%d_b%d) : (%s, %s) -> %s\n", prev, id, j, ty, ty, ty);
    }
  }
  if (nc == 0)
    ir_buf_printf(b, "  %%v%d = \"chlo.broadcast_compare\"(%%v%d_io0, %%v%d_io0) {comparison_direction = #chlo<comparison_direction EQ>} : (%s, %s) -> %s\n",
             id, id, id, ity, ity, ty);
}

/* ------------------------------------------------- unit reduces (emit.unit) */

/* The index of op's attribute that kernel parameter `key` takes, or -1. */
static int kernel_attr(const gram_op *op, const char *key) {
  for (int i = 0; i < op->nkattrs; i++)
    if (op->kattrs[i].kind == GRAM_KV_ATTR && !strcmp(op->kattrs[i].key, key) &&
        !op->kattrs[i].part)
      return op->kattrs[i].attr;
  return -1;
}

/* Whether n is an op node of kernel `kernel`. */
static int has_kernel(const ir_tnode *n, const char *kernel) {
  const gram_op *op = n->kind == IR_TN_OP ? n->op->owner : NULL;
  return op && op->kernel && !strcmp(interp_op_like(op->kernel), kernel);
}

/* When n is a reduce with emit.unit lines whose reduced operand x is a
 * broadcast that keeps its operand's dims in order and adds only dims of
 * extent 1, and that operand has n's type: n reduces only those unit dims,
 * so each result element is the body applied once to the broadcast's
 * operand and the init.  Returns x (the broadcast), or NULL. */
static const ir_tnode *unit_reduce(const ir_tnode *n) {
  if (!has_kernel(n, "reduce")) return NULL;
  const gram_op *op = n->op->owner;
  if (!op->nemit_u) return NULL;
  int xi = op->nkargs < 0 ? 0 : op->kargs[0];
  if (xi < 0 || xi >= n->nops) return NULL;
  const ir_tnode *x = n->ops[xi];
  if (!has_kernel(x, "broadcast_in_dim") || x->nops != 1) return NULL;
  const ir_tnode *y = x->ops[0];
  if (!ir_type_equal(&y->type, &n->type) || n->type.rank == 0) return NULL;
  int ai = kernel_attr((const gram_op *)x->op->owner, "dims");
  if (ai < 0 || x->attrs[ai].n != y->type.rank) return NULL;
  int kept = 0; /* x's dims: y's in order, the others of extent 1 */
  for (int d = 0; d < x->type.rank; d++) {
    if (kept < y->type.rank && x->attrs[ai].v[kept] == d) {
      if (x->type.dims[d] != y->type.dims[kept]) return NULL;
      kept++;
    } else if (x->type.dims[d] != IR_DIM_ONE)
      return NULL;
  }
  return kept == y->type.rank ? x : NULL;
}

/* Mark in c->skip the broadcasts that only unit reduces use (they are not
 * written: the reduces name the broadcasts' operands instead). */
static void mark_folded(ectx *c) {
  int *uses = ir_calloc((size_t)c->nnodes + 1, sizeof(int));
  int *folds = ir_calloc((size_t)c->nnodes + 1, sizeof(int));
  for (int i = 0; i < c->nnodes; i++) {
    const ir_tnode *n = c->nodes[i];
    const ir_tnode *x = n->kind == IR_TN_OP ? unit_reduce(n) : NULL;
    for (int k = 0; k < n->nops; k++)
      for (int j = 0; j < i; j++)
        if (c->nodes[j] == n->ops[k]) {
          uses[j]++;
          folds[j] += n->ops[k] == x;
        }
  }
  for (int r = 0; r < c->prog->nresults; r++)
    for (int j = 0; j < c->nnodes; j++) uses[j] += c->nodes[j] == c->prog->results[r];
  for (int j = 0; j < c->nnodes; j++) c->skip[j] = uses[j] > 0 && uses[j] == folds[j];
  ir_free(uses);
  ir_free(folds);
}

static void emit_node(ectx *c, const ir_tnode *n) {
  if (n->kind == IR_TN_ARG) return;
  if (n->kind == IR_TN_CONST && c->dyn && has_sym_dim(&n->type)) {
    /* a splat of dynamic shape: the dialect's splat lines */
    if (!c->d->nsplat) {
      fprintf(stderr, "uplift: error: dialect %s has no 'splat' line for constants of dynamic shape\n",
              c->d->name);
      c->failed = 1;
      return;
    }
    ir_buf v = {0};
    put_elem(&v, n->type.elem, n->value);
    for (int i = 0; i < c->d->nsplat; i++) expand(c, &c->d->splat[i], n, &v);
    ir_free(v.s);
    return;
  }
  if (n->kind == IR_TN_MASK && mask_is_dynamic(c, n)) {
    switch (c->d->dynmask) {
    case GRAM_DYNMASK_GENERIC: mask_generic(c, n); return;
    case GRAM_DYNMASK_IOTA: mask_iota(c, n); return;
    default:
      fprintf(stderr, "uplift: error: dialect %s has no 'mask.dynamic' line for masks of dynamic shape\n",
              c->d->name);
      c->failed = 1;
      return;
    }
  }
  if (n->kind == IR_TN_CONST || n->kind == IR_TN_MASK) {
    /* static shapes: the value as a dense literal */
    leafval l = {n, {0}, c->o->sizes, c->o->nsizes};
    for (int i = 0; i < n->type.rank; i++) l.dims[i] = dim_size(n->type.dims[i], c->o->sizes, c->o->nsizes);
    ir_buf v = {0};
    char type[96];
    type_str(c->d, &n->type, c->o->sizes, c->o->nsizes, type, sizeof type);
    if (n->kind == IR_TN_CONST) {
      /* a splat */
      ir_buf_puts(&v, "dense<");
      put_elem(&v, n->type.elem, n->value);
      ir_buf_printf(&v, "> : %s", type);
    } else {
      put_dense(&v, &n->type, l.dims, leaf_value, &l, type);
    }
    expand(c, &c->d->constant, n, &v);
    ir_free(v.s);
    return;
  }
  const gram_op *op = n->op->owner;
  const gram_line *lines = op->emit;
  int nl = op->nemit;
  if (op->nemit_b)
    for (int i = 0; i < n->nops; i++)
      if (!same_shape(&n->ops[i]->type, &n->type)) {
        lines = op->emit_b;
        nl = op->nemit_b;
      }
  int windows = 0; /* a window, or a shift (issue 14's pad) written as one */
  for (int ai = 0; ai < op->nattrs; ai++) windows |= is_window(n, ai);
  int argdim = has_arg_dim(c, &n->type);
  for (int i = 0; i < n->nops; i++) argdim |= has_arg_dim(c, &n->ops[i]->type);
  c->wdyn = windows && (c->dyn || argdim);
  if (c->wdyn) {
    /* a window's values are index values whatever the shapes */
    window_dynamic(c, n);
    if (op->nemit_d) {
      lines = op->emit_d;
      nl = op->nemit_d;
    }
  } else if ((argdim || (c->dyn && has_sym_dim(&n->type))) && op->nemit_d) {
    lines = op->emit_d;
    nl = op->nemit_d;
  }
  const ir_tnode *x = unit_reduce(n);
  if (x) {
    lines = op->emit_u;
    nl = op->nemit_u;
    c->from = x;
    c->to = x->ops[0];
  }
  for (int i = 0; i < nl; i++) expand(c, &lines[i], n, NULL);
  c->from = c->to = NULL;
}

/* The name of size symbol sym ("n", or "s3" without a kernel). */
static void sym_name(const ir_tprog *p, int sym, char *buf, size_t n) {
  if (p->kernel && sym >= 0 && sym < p->kernel->nvars) snprintf(buf, n, "%s", p->kernel->vars[sym]->name);
  else snprintf(buf, n, "s%d", sym);
}

/* Dynamic shapes: define each size symbol from the first argument dim bound
 * to it, and assert that every further argument dim bound to it agrees. */
static void prologue_dims(ectx *c, const ir_tprog *p, const char *fname) {
  ir_buf *b = c->b;
  char an[64], bn[64], sn[48], ib[32];
  int nchk = 0;
  int *first = ir_calloc((size_t)c->nsyms, 2 * sizeof(int)); /* arg, dim */
  for (int a = 0; a < p->nargs; a++) {
    const ir_type *t = &p->args[a]->type;
    node_name(p->args[a], an, sizeof an);
    for (int i = 0; i < t->rank; i++) {
      int d = t->dims[i];
      if (d == IR_DIM_ONE || d < 0 || d >= c->nsyms) continue;
      sym_name(p, d, sn, sizeof sn);
      if (!c->symssa[d][0]) {
        snprintf(c->symssa[d], sizeof c->symssa[d], "%%dim_%s", sn);
        first[2 * d] = a;
        first[2 * d + 1] = i;
        ir_buf_printf(b, "  %s = tensor.dim %s, %s : ", c->symssa[d], an, idx_const(c, i, ib, sizeof ib));
        put_type(c, t);
        ir_buf_puts(b, "\n");
        continue;
      }
      node_name(p->args[first[2 * d]], bn, sizeof bn);
      ir_buf_printf(b, "  %%chk%d = tensor.dim %s, %s : ", nchk, an, idx_const(c, i, ib, sizeof ib));
      put_type(c, t);
      ir_buf_printf(b, "\n  %%chk%d_eq = arith.cmpi eq, %s, %%chk%d : index\n", nchk, c->symssa[d], nchk);
      ir_buf_printf(b, "  cf.assert %%chk%d_eq, \"%s: size %s: dim %d of %s and dim %d of %s differ\"\n",
               nchk, fname, sn, first[2 * d + 1], bn + 1, i, an + 1);
      nchk++;
    }
  }
  ir_free(first);
}

/* ------------------------------------------------------- kept loops
 * A program with a kept loop (ir_tprog.loop; issue 14) is two functions:
 * @NAME_body, the raised body (one iteration), and @NAME, the loop around
 * a call of it with the arrays the body writes carried: scf.for with
 * iter_args, or stablehlo.while in the generic form for a dialect that says
 * `loop while`.  A size that the bounds read and that has no static value
 * (a time-step count is the dim of no array) is an index argument after
 * the tensors. */

/* Does the bound's size v come in as an index argument? */
static int bound_is_arg(const emit_opts *o, int v) {
  return is_sym_arg(o, v) || o->dynamic || !o->sizes || v >= o->nsizes || o->sizes[v] <= 0;
}

static void bound_args(const ir_expr *e, const emit_opts *o, unsigned char *seen) {
  if (e->kind == IR_EX_VAR && bound_is_arg(o, e->var)) seen[e->var] = 1;
  for (int i = 0; i < e->nargs; i++) bound_args(e->args[i], o, seen);
}

/* The sizes that loop's bounds and slice indices read (the iterator aside)
 * into seen. */
static void kept_bound_args(const ir_tloop *l, const emit_opts *o, unsigned char *seen) {
  bound_args(l->lo, o, seen);
  bound_args(l->hi, o, seen);
  for (int i = 0; i < l->nslices; i++)
    for (int d = 0; d < IR_MAX_RANK; d++)
      if (l->slices[i].at[d]) bound_args(l->slices[i].at[d], o, seen);
  seen[l->iter] = 0;
}

/* Is argument i of p an argument of the function around the kept loop (not
 * a slice cut inside it)? */
static int outer_arg(const ir_tprog *p, int i) {
  return !ir_tloop_slice(p->loop, p->args[i]->arg);
}

/* The options of the body of kept loop l: o's, with l's iterator one more
 * index argument where the body reads it as a size (in *buf, ir_malloc'd:
 * the caller frees it). */
static emit_opts body_opts(const emit_opts *o, const ir_tloop *l, int **buf) {
  emit_opts bo = *o;
  *buf = ir_malloc(sizeof **buf * (size_t)(o->nsym_args + 1));
  if (o->nsym_args) memcpy(*buf, o->sym_args, sizeof **buf * (size_t)o->nsym_args);
  bo.sym_args = *buf;
  if (l->iter_size && !is_sym_arg(o, l->iter)) (*buf)[bo.nsym_args++] = l->iter;
  return bo;
}

static void index_args(const ir_tprog *p, const emit_opts *o, unsigned char *seen, int nseen);

/* The index arguments of the body of kept loop p (@NAME_body, options bo)
 * into seen[0..nseen-1]: those of each of its items (nested kept loops),
 * or the enclosing iterators a plain body takes. */
static void body_index_args(const ir_tprog *p, const emit_opts *bo, unsigned char *seen,
                            int nseen) {
  for (int i = 0; i < p->nitems; i++) index_args(p->items[i], bo, seen, nseen);
  if (!p->nitems)
    for (int i = 0; i < bo->nsym_args; i++)
      if (bo->sym_args[i] < nseen) seen[bo->sym_args[i]] = 1;
}

/* The index arguments of the function emit_mlir_func writes for p (var ids
 * into seen[0..nseen-1]; they follow the tensors in the order of the ids,
 * and are sizes and iterators, vars of the kernel the slices of kept loops
 * come after): a plain program's enclosing iterators (o->sym_args); a kept
 * loop's, the sizes its bounds and slices read that have no static value
 * and the index arguments of its body, but its own iterator (the loop's
 * value). */
static void s_stmt_size_args(const ir_kernel *k, const ir_stmt *s, const emit_opts *o,
                             unsigned char *seen, int nseen);

static void index_args(const ir_tprog *p, const emit_opts *o, unsigned char *seen, int nseen) {
  if (!p->loop) {
    for (int i = 0; i < o->nsym_args; i++)
      if (o->sym_args[i] < nseen) seen[o->sym_args[i]] = 1;
    /* a scalar item: the sizes its statements read without a static value */
    if (p->scalar) s_stmt_size_args(p->kernel, p->kernel->body, o, seen, nseen);
    return;
  }
  int nk = p->kernel->nvars + 1, *buf;
  emit_opts bo = body_opts(o, p->loop, &buf);
  unsigned char *own = ir_calloc((size_t)nk, 1);
  kept_bound_args(p->loop, o, own);
  body_index_args(p, &bo, own, nk);
  own[p->loop->iter] = 0;
  for (int v = 0; v < nk && v < nseen; v++) seen[v] |= own[v];
  ir_free(own);
  ir_free(buf);
}

/* Emit the index value of the affine bound e, in the function of the kept
 * loop whose iterator is iter (%kept_ITER); its SSA name in nm. */
static void bound_value(ir_buf *b, const ir_kernel *k, const emit_opts *o, int iter,
                        const ir_expr *e, int *tmp, char *nm, size_t n) {
  char x[48], y[48];
  const char *op = NULL;
  switch (e->kind) {
  case IR_EX_CONST:
    snprintf(nm, n, "%%kb%d", (*tmp)++);
    ir_buf_printf(b, "  %s = arith.constant %ld : index\n", nm, (long)e->value);
    return;
  case IR_EX_VAR:
    if (e->var == iter || k->vars[e->var]->kind == IR_VAR_ITER) { /* the kept loop's */
      snprintf(nm, n, "%%kept_%s", k->vars[e->var]->name);
    } else if (bound_is_arg(o, e->var)) {
      snprintf(nm, n, "%%%s", k->vars[e->var]->name);
    } else {
      snprintf(nm, n, "%%kb%d", (*tmp)++);
      ir_buf_printf(b, "  %s = arith.constant %ld : index\n", nm, o->sizes[e->var]);
    }
    return;
  case IR_EX_CAST: bound_value(b, k, o, iter, e->args[0], tmp, nm, n); return;
  case IR_EX_NEG:
    bound_value(b, k, o, iter, e->args[0], tmp, x, sizeof x);
    snprintf(nm, n, "%%kb%d", (*tmp)++);
    ir_buf_printf(b, "  %s_0 = arith.constant 0 : index\n  %s = arith.subi %s_0, %s : index\n",
                  nm, nm, nm, x);
    return;
  case IR_EX_ADD: op = "addi"; break;
  case IR_EX_SUB: op = "subi"; break;
  case IR_EX_MUL: op = "muli"; break;
  case IR_EX_IMIN: op = "minsi"; break;
  case IR_EX_IMAX: op = "maxsi"; break;
  default: UNREACHABLE();
  }
  bound_value(b, k, o, iter, e->args[0], tmp, x, sizeof x);
  bound_value(b, k, o, iter, e->args[1], tmp, y, sizeof y);
  snprintf(nm, n, "%%kb%d", (*tmp)++);
  ir_buf_printf(b, "  %s = arith.%s %s, %s : index\n", nm, op, x, y);
}

/* The argument of p that result i feeds back into (same name), or -1. */
static int carried_arg(const ir_tprog *p, int i) {
  for (int j = 0; j < p->nargs; j++)
    if (p->result_names[i] && p->args[j]->name && !strcmp(p->result_names[i], p->args[j]->name))
      return j;
  return -1;
}

/* "A: T, B: T" of the carried values named with prefix (block arguments). */
static void carried_list(ir_buf *b, const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                         const char *prefix, int types) {
  char ty[96];
  for (int i = 0; i < p->nresults; i++) {
    ir_buf_printf(b, "%s%%%s%s", i ? ", " : "", prefix, p->result_names[i]);
    if (types)
      ir_buf_printf(b, ": %s", type_str(d, &p->results[i]->type, o->dynamic ? NULL : o->sizes,
                                        o->nsizes, ty, sizeof ty));
  }
}

static void types_list(ir_buf *b, const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                       int results) {
  char ty[96];
  int n = results ? p->nresults : p->nargs;
  for (int i = 0; i < n; i++) {
    const ir_type *t = results ? &p->results[i]->type : &p->args[i]->type;
    ir_buf_printf(b, "%s%s", i ? ", " : "",
                  type_str(d, t, o->dynamic ? NULL : o->sizes, o->nsizes, ty, sizeof ty));
  }
}

/* The call of the body in the loop, its results %kept_body#i: p's
 * arguments (a carried one as its block value, named with prefix), then
 * the body's index arguments bseen (the loop's iterator %kept_ITER). */
static void body_call(ir_buf *b, const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                      const char *body, const char *prefix, const unsigned char *bseen) {
  const ir_kernel *k = p->kernel;
  char nm[64];
  ir_buf_printf(b, "    %%kept_body:%d = func.call @%s(", p->nresults, body);
  for (int j = 0; j < p->nargs; j++) {
    int carried = -1;
    for (int i = 0; i < p->nresults; i++)
      if (carried_arg(p, i) == j) carried = i;
    if (carried >= 0) snprintf(nm, sizeof nm, "%%%s%s", prefix, p->result_names[carried]);
    else node_name(p->args[j], nm, sizeof nm);
    ir_buf_printf(b, "%s%s", j ? ", " : "", nm);
  }
  for (int v = 0; v < k->nvars; v++)
    if (bseen[v]) ir_buf_printf(b, ", %%%s%s", v == p->loop->iter ? "kept_" : "", k->vars[v]->name);
  ir_buf_puts(b, ") : (");
  types_list(b, d, p, o, 0);
  for (int v = 0; v < k->nvars; v++)
    if (bseen[v]) ir_buf_puts(b, ", index");
  ir_buf_puts(b, ") -> (");
  types_list(b, d, p, o, 1);
  ir_buf_puts(b, ")\n");
}

/* The argument of p for var v, or NULL. */
static const ir_tnode *arg_of_var(const ir_tprog *p, int v) {
  for (int j = 0; j < p->nargs; j++)
    if (p->args[j]->arg == v) return p->args[j];
  return NULL;
}

/* Inside the kept loop, before the body's call: each slice of the loop cut
 * from its array at the iterator (%kept_ITER, an index), named as the
 * body's argument (from the iteration's value of an array the loop
 * carries).  tensor.extract_slice (rank-reducing) and a copy in general;
 * StableHLO's dynamic_slice and a reshape dropping the unit dims where the
 * dialect says `loop while` (real_dynamic_slice with dynamic shapes).
 * Returns 0, or -1 when a slice's array is no argument. */
static int emit_slices(ir_buf *b, const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                       int *tmp) {
  const ir_kernel *k = p->kernel;
  const ir_tloop *l = p->loop;
  const long *ts = o->dynamic ? NULL : o->sizes;
  for (int i = 0; i < l->nslices; i++) {
    const ir_tslice *sl = &l->slices[i];
    const ir_tnode *src = arg_of_var(p, sl->src), *dst = arg_of_var(p, sl->var);
    if (!src || !dst) {
      fprintf(stderr, "uplift: error: the kept loop's slice %s is no argument\n",
              k->vars[sl->var]->name);
      return -1;
    }
    int rank = src->type.rank;
    char snm[64], dnm[64], sty[96], dty[96], uty[96], off[IR_MAX_RANK][48], size[IR_MAX_RANK][48];
    node_name(src, snm, sizeof snm);
    node_name(dst, dnm, sizeof dnm);
    /* an array the body writes (a column cut beside the one it writes,
     * docs/analyze.md "Batched loops") is cut from its value carried into
     * this iteration */
    for (int r = 0; r < p->nresults; r++)
      if (!strcmp(p->result_names[r], k->vars[sl->src]->name))
        snprintf(snm, sizeof snm, "%%kv_%s", p->result_names[r]);
    type_str(d, &src->type, ts, o->nsizes, sty, sizeof sty);
    type_str(d, &dst->type, ts, o->nsizes, dty, sizeof dty);
    ir_type unit = src->type; /* the slice with its cut dims kept as 1 */
    for (int dd = 0; dd < rank; dd++)
      if (sl->at[dd]) unit.dims[dd] = IR_DIM_ONE;
    type_str(d, &unit, ts, o->nsizes, uty, sizeof uty);
    for (int dd = 0; dd < rank; dd++) { /* offsets and sizes as index values */
      if (sl->at[dd]) {
        bound_value(b, k, o, l->iter, sl->at[dd], tmp, off[dd], sizeof off[dd]);
        snprintf(size[dd], sizeof size[dd], "1");
        continue;
      }
      snprintf(off[dd], sizeof off[dd], "0");
      long n = dim_size(src->type.dims[dd], ts, o->nsizes);
      if (n >= 0) {
        snprintf(size[dd], sizeof size[dd], "%ld", n);
      } else {
        snprintf(size[dd], sizeof size[dd], "%%kb%d", (*tmp)++);
        ir_buf_printf(b, "    %s_c = arith.constant %d : index\n    %s = tensor.dim %s, %s_c : %s\n",
                      size[dd], dd, size[dd], snm, size[dd], sty);
      }
    }
    if (!d->loop_while) { /* copied: one-shot bufferization would pass the
                           * strided view to the body's identity-layout
                           * argument with its offset lost (MLIR 16) */
      ir_buf_printf(b, "    %s_view = tensor.extract_slice %s[", dnm, snm);
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s%s", dd ? ", " : "", off[dd]);
      ir_buf_puts(b, "] [");
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s%s", dd ? ", " : "", size[dd]);
      ir_buf_puts(b, "] [");
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s1", dd ? ", " : "");
      ir_buf_printf(b, "] : %s to %s\n", sty, dty);
      ir_buf_printf(b, "    %s = bufferization.alloc_tensor() copy(%s_view) : %s\n", dnm, dnm, dty);
      continue;
    }
    int stat = 1; /* every size static: dynamic_slice */
    for (int dd = 0; dd < rank; dd++) stat &= size[dd][0] != '%';
    int t0 = (*tmp)++;
    if (stat) {
      for (int dd = 0; dd < rank; dd++) {
        if (sl->at[dd])
          ir_buf_printf(b, "    %%ks%d_%d = arith.index_cast %s : index to i64\n"
                           "    %%ks%d_t%d = tensor.from_elements %%ks%d_%d : tensor<i64>\n",
                        t0, dd, off[dd], t0, dd, t0, dd);
        else
          ir_buf_printf(b, "    %%ks%d_t%d = \"stablehlo.constant\"() {value = dense<0> : "
                           "tensor<i64>} : () -> tensor<i64>\n", t0, dd);
      }
      ir_buf_printf(b, "    %%ks%d = \"stablehlo.dynamic_slice\"(%s", t0, snm);
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, ", %%ks%d_t%d", t0, dd);
      ir_buf_puts(b, ") {slice_sizes = dense<[");
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s%s", dd ? ", " : "", size[dd]);
      ir_buf_printf(b, "]> : tensor<%dxi64>} : (%s", rank, sty);
      for (int dd = 0; dd < rank; dd++) ir_buf_puts(b, ", tensor<i64>");
      ir_buf_printf(b, ") -> %s\n", uty);
    } else { /* start, limit and strides as index tensors */
      ir_buf_printf(b, "    %%ks%d_zero = arith.constant 0 : index\n"
                       "    %%ks%d_one = arith.constant 1 : index\n", t0, t0);
      char zero[32], one[32];
      snprintf(zero, sizeof zero, "%%ks%d_zero", t0);
      snprintf(one, sizeof one, "%%ks%d_one", t0);
      for (int dd = 0; dd < rank; dd++) /* a static size here is 1 */
        ir_buf_printf(b, "    %%ks%d_e%d = arith.addi %s, %s : index\n", t0, dd,
                      sl->at[dd] ? off[dd] : zero, size[dd][0] == '%' ? size[dd] : one);
      ir_buf_printf(b, "    %%ks%d_lo = tensor.from_elements ", t0);
      for (int dd = 0; dd < rank; dd++) {
        if (sl->at[dd]) ir_buf_printf(b, "%s%s", dd ? ", " : "", off[dd]);
        else ir_buf_printf(b, "%s%%ks%d_zero", dd ? ", " : "", t0);
      }
      ir_buf_printf(b, " : tensor<%dxindex>\n    %%ks%d_hi = tensor.from_elements ", rank, t0);
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s%%ks%d_e%d", dd ? ", " : "", t0, dd);
      ir_buf_printf(b, " : tensor<%dxindex>\n    %%ks%d_st = tensor.from_elements ", rank, t0);
      for (int dd = 0; dd < rank; dd++) ir_buf_printf(b, "%s%%ks%d_one", dd ? ", " : "", t0);
      ir_buf_printf(b, " : tensor<%dxindex>\n", rank);
      ir_buf_printf(b, "    %%ks%d = \"stablehlo.real_dynamic_slice\"(%s, %%ks%d_lo, %%ks%d_hi, "
                       "%%ks%d_st) : (%s, tensor<%dxindex>, tensor<%dxindex>, tensor<%dxindex>) -> "
                       "%s\n", t0, snm, t0, t0, t0, sty, rank, rank, rank, uty);
      /* the cut dims dropped: a dynamic_reshape to the remaining sizes */
      int nfree = 0;
      ir_buf_printf(b, "    %%ks%d_shape = tensor.from_elements ", t0);
      for (int dd = 0; dd < rank; dd++)
        if (!sl->at[dd]) ir_buf_printf(b, "%s%s", nfree++ ? ", " : "", size[dd]);
      ir_buf_printf(b, " : tensor<%dxindex>\n", nfree);
      ir_buf_printf(b, "    %s = \"stablehlo.dynamic_reshape\"(%%ks%d, %%ks%d_shape) : (%s, "
                       "tensor<%dxindex>) -> %s\n", dnm, t0, t0, uty, nfree, dty);
      continue;
    }
    ir_buf_printf(b, "    %s = \"stablehlo.reshape\"(%%ks%d) : (%s) -> %s\n", dnm, t0, uty, dty);
  }
  return 0;
}

static int emit_kept_func(const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                          FILE *out) {
  const ir_kernel *k = p->kernel;
  const char *fname = o->func_name ? o->func_name : "kernel";
  if (!k) {
    fprintf(stderr, "uplift: error: a kept loop needs its kernel\n");
    return -1;
  }
  for (int i = 0; i < p->nresults; i++)
    if (carried_arg(p, i) < 0) {
      fprintf(stderr, "uplift: error: the kept loop's result %d is no argument\n", i);
      return -1;
    }
  char body[160];
  snprintf(body, sizeof body, "%s_body", fname);
  ir_tprog bp = *p;
  bp.loop = NULL;
  const ir_tloop *l = p->loop;
  int *buf; /* the iterator a size of the body: its index argument */
  emit_opts bo = body_opts(o, l, &buf);
  bo.func_name = body;
  /* the body: the program, or the sequence of its items (nested kept
   * loops), each item a function of its own (a kept loop in turn) */
  if (p->nitems ? emit_mlir_seq(d, p->items, p->nitems, &bo, out) : emit_mlir_func(d, &bp, &bo, out)) {
    ir_free(buf);
    return -1;
  }
  unsigned char *seen = ir_calloc((size_t)k->nvars + 1, 1);
  unsigned char *bseen = ir_calloc((size_t)k->nvars + 1, 1);
  index_args(p, o, seen, k->nvars + 1);
  body_index_args(p, &bo, bseen, k->nvars + 1);
  ir_free(buf);
  ir_buf b = {0};
  char nm[64], lo[48], hi[48];
  ir_buf_printf(&b, "// the kept loop %s (issue 14): @%s is one iteration, the arrays it writes "
                "carried\n", k->vars[l->iter]->name, body);
  ir_buf_printf(&b, "func.func @%s(", fname);
  for (int i = 0, first = 1; i < p->nargs; i++) {
    if (!outer_arg(p, i)) continue; /* a slice: cut in the loop */
    node_name(p->args[i], nm, sizeof nm);
    ir_buf_printf(&b, "%s%s: ", first ? "" : ", ", nm);
    first = 0;
    char ty[96];
    ir_buf_puts(&b, type_str(d, &p->args[i]->type, o->dynamic ? NULL : o->sizes, o->nsizes, ty,
                             sizeof ty));
  }
  for (int v = 0; v < k->nvars; v++)
    if (seen[v]) ir_buf_printf(&b, ", %%%s: index", k->vars[v]->name);
  ir_free(seen);
  ir_buf_puts(&b, ") -> (");
  types_list(&b, d, p, o, 1);
  ir_buf_puts(&b, ") {\n");
  int tmp = 0;
  bound_value(&b, k, o, l->iter, l->lo, &tmp, lo, sizeof lo);
  bound_value(&b, k, o, l->iter, l->hi, &tmp, hi, sizeof hi);
  ir_buf_printf(&b, "  %%kept_one = arith.constant 1 : index\n"
                    "  %%kept_end = arith.addi %s, %%kept_one : index\n", hi);
  /* a downward loop counts %kept_I_up from lo to hi, its iterator
   * lo + hi - %kept_I_up */
  const char *it = k->vars[l->iter]->name, *up = l->down ? "_up" : "";
  if (l->down) ir_buf_printf(&b, "  %%kept_sum = arith.addi %s, %s : index\n", lo, hi);
  int n = p->nresults;
  if (!d->loop_while) {
    ir_buf_printf(&b, "  %%kept:%d = scf.for %%kept_%s%s = %s to %%kept_end step %%kept_one iter_args(",
                  n, it, up, lo);
    for (int i = 0; i < n; i++) {
      node_name(p->args[carried_arg(p, i)], nm, sizeof nm);
      ir_buf_printf(&b, "%s%%kv_%s = %s", i ? ", " : "", p->result_names[i], nm);
    }
    ir_buf_puts(&b, ") -> (");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, ") {\n");
    if (l->down)
      ir_buf_printf(&b, "    %%kept_%s = arith.subi %%kept_sum, %%kept_%s_up : index\n", it, it);
    if (emit_slices(&b, d, p, o, &tmp)) goto fail;
    body_call(&b, d, p, o, body, "kv_", bseen);
    ir_buf_puts(&b, "    scf.yield ");
    for (int i = 0; i < n; i++) ir_buf_printf(&b, "%s%%kept_body#%d", i ? ", " : "", i);
    ir_buf_puts(&b, " : ");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, "\n  }\n  return ");
    for (int i = 0; i < n; i++) ir_buf_printf(&b, "%s%%kept#%d", i ? ", " : "", i);
  } else {
    ir_buf_printf(&b, "  %%kept_lo_i = arith.index_cast %s : index to i64\n"
                      "  %%kept_t0 = tensor.from_elements %%kept_lo_i : tensor<i64>\n"
                      "  %%kept_end_i = arith.index_cast %%kept_end : index to i64\n"
                      "  %%kept_tend = tensor.from_elements %%kept_end_i : tensor<i64>\n", lo);
    ir_buf_printf(&b, "  %%kept:%d = \"stablehlo.while\"(%%kept_t0", n + 1);
    for (int i = 0; i < n; i++) {
      node_name(p->args[carried_arg(p, i)], nm, sizeof nm);
      ir_buf_printf(&b, ", %s", nm);
    }
    ir_buf_puts(&b, ") ({\n  ^bb0(%kc.t: tensor<i64>, ");
    carried_list(&b, d, p, o, "kc_", 1);
    ir_buf_puts(&b, "):\n    %kc.lt = \"stablehlo.compare\"(%kc.t, %kept_tend) "
                    "{comparison_direction = #stablehlo<comparison_direction LT>} : "
                    "(tensor<i64>, tensor<i64>) -> tensor<i1>\n"
                    "    \"stablehlo.return\"(%kc.lt) : (tensor<i1>) -> ()\n  }, {\n"
                    "  ^bb0(%kept.t: tensor<i64>, ");
    carried_list(&b, d, p, o, "kv_", 1);
    ir_buf_puts(&b, "):\n");
    if (l->nslices || l->iter_size) { /* the iterator as an index, for the slices */
      ir_buf_printf(&b, "    %%kept.ti = tensor.extract %%kept.t[] : tensor<i64>\n"
                        "    %%kept_%s%s = arith.index_cast %%kept.ti : i64 to index\n", it, up);
      if (l->down)
        ir_buf_printf(&b, "    %%kept_%s = arith.subi %%kept_sum, %%kept_%s_up : index\n", it, it);
    }
    if (emit_slices(&b, d, p, o, &tmp)) goto fail;
    body_call(&b, d, p, o, body, "kv_", bseen);
    ir_buf_puts(&b, "    %kept_inc = \"stablehlo.constant\"() {value = dense<1> : tensor<i64>} : "
                    "() -> tensor<i64>\n"
                    "    %kept_next = \"stablehlo.add\"(%kept.t, %kept_inc) : "
                    "(tensor<i64>, tensor<i64>) -> tensor<i64>\n"
                    "    \"stablehlo.return\"(%kept_next");
    for (int i = 0; i < n; i++) ir_buf_printf(&b, ", %%kept_body#%d", i);
    ir_buf_puts(&b, ") : (tensor<i64>, ");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, ") -> ()\n  }) : (tensor<i64>, ");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, ") -> (tensor<i64>, ");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, ")\n  return ");
    for (int i = 0; i < n; i++) ir_buf_printf(&b, "%s%%kept#%d", i ? ", " : "", i + 1);
  }
  ir_buf_puts(&b, " : ");
  types_list(&b, d, p, o, 1);
  ir_buf_puts(&b, "\n}\n");
  fputs(b.s, out);
  ir_free(b.s);
  ir_free(bseen);
  return 0;
fail:
  ir_free(b.s);
  ir_free(bseen);
  return -1;
}

/* ---- scalar items (issue 14; docs/dialects.md, "Scalar items"): the
 * statements as written, as scf.for and scf.if over tensor.extract, arith
 * and math ops and tensor.insert, every variable a tensor (a scalar one of
 * rank 0) whose current value each write replaces: the values a loop or an
 * if writes are its iter_args and results.  An iterator is an index; a
 * size is a constant (static shapes) or an index argument. */

#define SN 160 /* room for an SSA name */

typedef struct sctx {
  const gram_dialect *d;
  const emit_opts *o;
  const ir_kernel *k;
  ir_buf *b;
  int tmp;             /* %sN numbering */
  char (*cur)[SN];     /* per var: the SSA value of its tensor, or of an
                          iterator's index */
  int failed;
} sctx;

/* A fresh SSA name into nm. */
static void s_fresh(sctx *c, char *nm) { snprintf(nm, 32, "%%s%d", c->tmp++); }

static void s_indent(sctx *c, int depth) { ir_buf_printf(c->b, "%*s", 2 * depth + 2, ""); }

static const char *s_type(sctx *c, ir_elem e) { return elem_name(c->d, e); }

/* The tensor type of var v. */
static const char *s_ttype(sctx *c, int v, char *buf, size_t n) {
  ir_type t;
  if (enum_var_type(c->k, v, &t)) { /* an iterator or a size: no tensor */
    c->failed = 1;
    snprintf(buf, n, "?");
    return buf;
  }
  return type_str(c->d, &t, c->o->dynamic ? NULL : c->o->sizes, c->o->nsizes, buf, n);
}

/* Convert x of type from to type to (into nm; x itself when equal). */
static void s_conv(sctx *c, int depth, const char *x, ir_elem from, ir_elem to, char *nm) {
  if (from == to || (ir_elem_is_int(from) && ir_elem_is_int(to) &&
                     ir_elem_bits(from) == ir_elem_bits(to))) {
    snprintf(nm, SN, "%s", x);
    return;
  }
  s_fresh(c, nm);
  s_indent(c, depth);
  if (from == IR_I1 && to != IR_I1) /* a truth value: 0 or 1 */
    ir_buf_printf(c->b, "%s = %s %s : i1 to %s\n", nm,
                  ir_elem_is_float(to) ? "arith.uitofp" : "arith.extui", x, s_type(c, to));
  else if (to == IR_I1) { /* C's truth: != 0 */
    char z[SN];
    snprintf(z, sizeof z, "%s_z", nm);
    ir_buf_printf(c->b, "%s = arith.constant 0%s : %s\n", z, ir_elem_is_float(from) ? ".0" : "",
                  s_type(c, from));
    s_indent(c, depth);
    ir_buf_printf(c->b, "%s = arith.%s %s, %s : %s\n", nm,
                  ir_elem_is_float(from) ? "cmpf une," : "cmpi ne,", x, z, s_type(c, from));
  } else
    ir_buf_printf(c->b, "%s = %s %s : %s to %s\n", nm, arith_convert(from, to), x,
                  s_type(c, from), s_type(c, to));
}

static void s_index(sctx *c, int depth, const ir_expr *e, char *nm);

/* C's common type of a and b (the usual arithmetic conversions): the
 * wider floating type if either is one, else the wider integer (unsigned
 * at equal widths). */
static ir_elem common_elem(ir_elem a, ir_elem b) {
  if (ir_elem_is_float(a) || ir_elem_is_float(b)) {
    if (!ir_elem_is_float(a)) return b;
    if (!ir_elem_is_float(b)) return a;
    return a == IR_F64 || b == IR_F64 ? IR_F64 : IR_F32;
  }
  int wa = ir_elem_bits(a) < 32 ? 32 : ir_elem_bits(a), wb = ir_elem_bits(b) < 32 ? 32 : ir_elem_bits(b);
  if (wa != wb) return wa > wb ? (ir_elem_bits(a) < 32 ? IR_I32 : a) : (ir_elem_bits(b) < 32 ? IR_I32 : b);
  if (ir_elem_bits(a) >= 32 && !ir_elem_is_signed(a)) return a;
  if (ir_elem_bits(b) >= 32 && !ir_elem_is_signed(b)) return b;
  return wa == 64 ? IR_I64 : IR_I32;
}

/* Does evaluating e read an array element or divide integers: something
 * that may be undefined where C would not evaluate it (the untaken side
 * of `?:`, the right side of `&&` and `||` that C skips)? */
static int s_guarded(const ir_expr *e) {
  if (e->kind == IR_EX_ELEM && e->nargs) return 1;
  if (e->kind == IR_EX_DIV && !ir_elem_is_float(e->type)) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (s_guarded(e->args[i])) return 1;
  return 0;
}

static void s_value(sctx *c, int depth, const ir_expr *e, char *nm);

/* e (of type t) evaluated into a fresh value yielded by the region of an
 * scf.if being written at depth. */
static void s_yield(sctx *c, int depth, const ir_expr *e, ir_elem t) {
  char x[SN], y[SN];
  s_value(c, depth, e, x);
  s_conv(c, depth, x, e->type, t, y);
  s_indent(c, depth);
  ir_buf_printf(c->b, "scf.yield %s : %s\n", y, s_type(c, t));
}

/* C's lazy forms where the side C may skip could be undefined: `?:`
 * (args: condition, then, else) and `&&`, `||` (args: left, right) as
 * an scf.if on the condition, each side computed in its region, so that
 * a guarded read (`j > 0 && a[j - 1]`) is made only where C makes it.
 * Returns 0 when e is no such form (arith.select and andi/ori do). */
static int s_lazy(sctx *c, int depth, const ir_expr *e, char *nm) {
  int sel = e->kind == IR_EX_SELECT, and = e->kind == IR_EX_AND, or = e->kind == IR_EX_OR;
  if (!(sel || and || or)) return 0;
  if (sel ? !s_guarded(e->args[1]) && !s_guarded(e->args[2]) : !s_guarded(e->args[1]))
    return 0;
  char x[SN], z[SN];
  s_value(c, depth, e->args[0], x);
  s_conv(c, depth, x, e->args[0]->type, IR_I1, z);
  ir_elem t = sel ? e->type : IR_I1;
  char r[SN];
  s_fresh(c, r);
  s_indent(c, depth);
  ir_buf_printf(c->b, "%s = scf.if %s -> (%s) {\n", r, z, s_type(c, t));
  /* then: the second operand, or || 's true; else: ?:'s third, || 's
   * right side, or && 's false */
  for (int side = 0; side < 2; side++) {
    if (side) {
      s_indent(c, depth);
      ir_buf_printf(c->b, "} else {\n");
    }
    if (sel || (side ? or : and)) {
      s_yield(c, depth + 1, e->args[sel && side ? 2 : 1], t);
      continue;
    }
    s_indent(c, depth + 1);
    ir_buf_printf(c->b, "%s_%d = arith.constant %s\n", r, side, side ? "false" : "true");
    s_indent(c, depth + 1);
    ir_buf_printf(c->b, "scf.yield %s_%d : i1\n", r, side);
  }
  s_indent(c, depth);
  ir_buf_printf(c->b, "}\n");
  s_conv(c, depth, r, t, e->type, nm);
  return 1;
}

/* The value of e, of type e->type, into nm. */
static void s_value(sctx *c, int depth, const ir_expr *e, char *nm) {
  if (s_lazy(c, depth, e, nm)) return;
  const ir_kernel *k = c->k;
  char x[SN], y[SN], z[SN], ty[160];
  const char *T = s_type(c, e->type);
  int fl = ir_elem_is_float(e->type);
  switch (e->kind) {
  case IR_EX_CONST:
    s_fresh(c, nm);
    s_indent(c, depth);
    ir_buf_printf(c->b, "%s = arith.constant ", nm);
    put_elem(c->b, e->type, e->value);
    ir_buf_printf(c->b, " : %s\n", T);
    return;
  case IR_EX_VAR:
  case IR_EX_ELEM: {
    ir_var_kind vk = k->vars[e->var]->kind;
    if (vk == IR_VAR_ITER || vk == IR_VAR_SIZE) { /* an index as a value */
      s_index(c, depth, e, x);
      s_fresh(c, y);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.index_cast %s : index to i64\n", y, x);
      s_conv(c, depth, y, IR_I64, e->type, nm);
      return;
    }
    char idx[IR_MAX_RANK][SN];
    for (int i = 0; i < e->nargs; i++) s_index(c, depth, e->args[i], idx[i]);
    s_fresh(c, x);
    s_indent(c, depth);
    ir_buf_printf(c->b, "%s = tensor.extract %s[", x, c->cur[e->var]);
    for (int i = 0; i < e->nargs; i++) ir_buf_printf(c->b, "%s%s", i ? ", " : "", idx[i]);
    ir_buf_printf(c->b, "] : %s\n", s_ttype(c, e->var, ty, sizeof ty));
    s_conv(c, depth, x, k->vars[e->var]->elem, e->type, nm);
    return;
  }
  case IR_EX_CAST:
    s_value(c, depth, e->args[0], x);
    s_conv(c, depth, x, e->args[0]->type, e->type, nm);
    return;
  case IR_EX_NEG:
  case IR_EX_NOT:
    s_value(c, depth, e->args[0], x);
    if (e->kind == IR_EX_NOT) {
      s_conv(c, depth, x, e->args[0]->type, IR_I1, y);
      s_fresh(c, z);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s_t = arith.constant true\n", z);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.xori %s, %s_t : i1\n", z, y, z);
      s_conv(c, depth, z, IR_I1, e->type, nm);
      return;
    }
    s_conv(c, depth, x, e->args[0]->type, e->type, y);
    s_fresh(c, nm);
    s_indent(c, depth);
    if (fl) ir_buf_printf(c->b, "%s = arith.negf %s : %s\n", nm, y, T);
    else
      ir_buf_printf(c->b, "%s_0 = arith.constant 0 : %s\n%*s%s = arith.subi %s_0, %s : %s\n", nm,
                    T, 2 * depth + 2, "", nm, nm, y, T);
    return;
  case IR_EX_SELECT:
    s_value(c, depth, e->args[0], x);
    s_conv(c, depth, x, e->args[0]->type, IR_I1, z);
    s_value(c, depth, e->args[1], x);
    s_conv(c, depth, x, e->args[1]->type, e->type, y);
    s_value(c, depth, e->args[2], x);
    {
      char w[SN];
      s_conv(c, depth, x, e->args[2]->type, e->type, w);
      s_fresh(c, nm);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.select %s, %s, %s : %s\n", nm, z, y, w, T);
    }
    return;
  case IR_EX_CALL: {
    char a[SN], bb[SN] = "";
    s_value(c, depth, e->args[0], x);
    s_conv(c, depth, x, e->args[0]->type, e->type, a);
    if (e->nargs > 1) {
      s_value(c, depth, e->args[1], x);
      s_conv(c, depth, x, e->args[1]->type, e->type, bb);
    }
    s_fresh(c, nm);
    s_indent(c, depth);
    switch (e->fn) {
    case IR_FN_SQRT: ir_buf_printf(c->b, "%s = math.sqrt %s : %s\n", nm, a, T); return;
    case IR_FN_EXP: ir_buf_printf(c->b, "%s = math.exp %s : %s\n", nm, a, T); return;
    case IR_FN_FABS: ir_buf_printf(c->b, "%s = math.absf %s : %s\n", nm, a, T); return;
    case IR_FN_POW: ir_buf_printf(c->b, "%s = math.powf %s, %s : %s\n", nm, a, bb, T); return;
    case IR_FN_FMAX:
    case IR_FN_FMIN: /* C's: the other operand where one is NaN */
      ir_buf_printf(c->b, "%s_c = arith.cmpf %s, %s, %s : %s\n", nm,
                    e->fn == IR_FN_FMAX ? "ogt" : "olt", a, bb, T);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s_n = arith.cmpf uno, %s, %s : %s\n", nm, bb, bb, T);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s_p = arith.ori %s_c, %s_n : i1\n", nm, nm, nm);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.select %s_p, %s, %s : %s\n", nm, nm, a, bb, T);
      return;
    }
    return;
  }
  default: break;
  }
  /* binary: operands in their common type (comparisons, logic) or e's */
  ir_elem ot = e->type;
  int cmp = e->kind >= IR_EX_LT && e->kind <= IR_EX_NE;
  int logic = e->kind == IR_EX_AND || e->kind == IR_EX_OR;
  if (cmp) ot = ir_elem_is_float(e->args[0]->type) || !ir_elem_is_float(e->args[1]->type)
                    ? e->args[0]->type : e->args[1]->type;
  if (logic) ot = IR_I1;
  s_value(c, depth, e->args[0], z);
  s_conv(c, depth, z, e->args[0]->type, ot, x);
  s_value(c, depth, e->args[1], z);
  s_conv(c, depth, z, e->args[1]->type, ot, y);
  const char *OT = s_type(c, ot);
  int ofl = ir_elem_is_float(ot), sg = ir_elem_is_signed(ot);
  const char *op = NULL;
  switch (e->kind) {
  case IR_EX_ADD: op = ofl ? "addf" : "addi"; break;
  case IR_EX_SUB: op = ofl ? "subf" : "subi"; break;
  case IR_EX_MUL: op = ofl ? "mulf" : "muli"; break;
  case IR_EX_DIV: op = ofl ? "divf" : sg ? "divsi" : "divui"; break;
  case IR_EX_AND: op = "andi"; break;
  case IR_EX_OR: op = "ori"; break;
  case IR_EX_SHL: op = "shli"; break;
  case IR_EX_SHR: op = sg ? "shrsi" : "shrui"; break;
  case IR_EX_IMIN: op = sg ? "minsi" : "minui"; break;
  case IR_EX_IMAX: op = sg ? "maxsi" : "maxui"; break;
  case IR_EX_LT: op = ofl ? "cmpf olt," : sg ? "cmpi slt," : "cmpi ult,"; break;
  case IR_EX_LE: op = ofl ? "cmpf ole," : sg ? "cmpi sle," : "cmpi ule,"; break;
  case IR_EX_GT: op = ofl ? "cmpf ogt," : sg ? "cmpi sgt," : "cmpi ugt,"; break;
  case IR_EX_GE: op = ofl ? "cmpf oge," : sg ? "cmpi sge," : "cmpi uge,"; break;
  case IR_EX_EQ: op = ofl ? "cmpf oeq," : "cmpi eq,"; break;
  case IR_EX_NE: op = ofl ? "cmpf une," : "cmpi ne,"; break;
  default: UNREACHABLE();
  }
  s_fresh(c, z);
  s_indent(c, depth);
  ir_buf_printf(c->b, "%s = arith.%s %s, %s : %s\n", z, op, x, y, OT);
  s_conv(c, depth, z, cmp || logic ? IR_I1 : ot, e->type, nm);
}

/* The index value of the affine e (a subscript, a bound) into nm, as a
 * kept loop's bound is written (bound_value: the loops' iterators are
 * %kept_NAME). */
static void s_index(sctx *c, int depth, const ir_expr *e, char *nm) {
  (void)depth;
  bound_value(c->b, c->k, c->o, -1, e, &c->tmp, nm, SN);
}

/* Mark in w the variables statements s write. */
static void s_written(const ir_stmt *s, unsigned char *w) {
  for (; s; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) w[s->lhs->var] = 1;
    s_written(s->body, w);
    s_written(s->then_body, w);
    s_written(s->else_body, w);
  }
}

/* "T1, T2" of the variables marked in w. */
static void s_types(sctx *c, const unsigned char *w) {
  char ty[160];
  for (int v = 0, first = 1; v < c->k->nvars; v++)
    if (w[v]) {
      ir_buf_printf(c->b, "%s%s", first ? "" : ", ", s_ttype(c, v, ty, sizeof ty));
      first = 0;
    }
}

static void s_stmts(sctx *c, const ir_stmt *s, int depth);

/* Statements s as a region whose values (those marked in w) are named
 * after the block arguments prefix_N, ended by scf.yield of their values. */
static void s_region(sctx *c, const ir_stmt *s, int depth, const unsigned char *w) {
  s_stmts(c, s, depth);
  s_indent(c, depth);
  ir_buf_puts(c->b, "scf.yield");
  for (int v = 0, first = 1; v < c->k->nvars; v++)
    if (w[v]) {
      ir_buf_printf(c->b, "%s %s", first ? "" : ",", c->cur[v]);
      first = 0;
    }
  int any = 0;
  for (int v = 0; v < c->k->nvars; v++) any |= w[v];
  if (any) {
    ir_buf_puts(c->b, " : ");
    s_types(c, w);
  }
  ir_buf_puts(c->b, "\n");
}

static void s_stmts(sctx *c, const ir_stmt *s, int depth) {
  const ir_kernel *k = c->k;
  int nv = k->nvars;
  char x[SN], y[SN], z[SN], ty[160];
  for (; s && !c->failed; s = s->next) {
    if (s->kind == IR_ST_ASSIGN) {
      int v = s->lhs->var;
      ir_elem lt = k->vars[v]->elem;
      char idx[IR_MAX_RANK][SN];
      for (int i = 0; i < s->lhs->nargs; i++) s_index(c, depth, s->lhs->args[i], idx[i]);
      s_value(c, depth, s->rhs, x);
      if (s->op == IR_ASSIGN) {
        s_conv(c, depth, x, s->rhs->type, lt, y);
      } else { /* computed in the common type, converted to the target */
        static const char *fops[] = {"", "addf", "subf", "mulf", "divf"};
        static const char *iops[] = {"", "addi", "subi", "muli", "divsi"};
        ir_elem ct = common_elem(lt, s->rhs->type);
        char old[SN], a[SN], bb[SN], r[SN];
        s_value(c, depth, s->lhs, old);
        s_conv(c, depth, old, s->lhs->type, ct, a);
        s_conv(c, depth, x, s->rhs->type, ct, bb);
        const char *op = ir_elem_is_float(ct) ? fops[s->op]
                         : s->op == IR_ASSIGN_DIV && !ir_elem_is_signed(ct) ? "divui"
                                                                           : iops[s->op];
        s_fresh(c, r);
        s_indent(c, depth);
        ir_buf_printf(c->b, "%s = arith.%s %s, %s : %s\n", r, op, a, bb, s_type(c, ct));
        s_conv(c, depth, r, ct, lt, y);
      }
      s_fresh(c, z);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = tensor.insert %s into %s[", z, y, c->cur[v]);
      for (int i = 0; i < s->lhs->nargs; i++) ir_buf_printf(c->b, "%s%s", i ? ", " : "", idx[i]);
      ir_buf_printf(c->b, "] : %s\n", s_ttype(c, v, ty, sizeof ty));
      snprintf(c->cur[v], SN, "%s", z);
      continue;
    }
    unsigned char *w = ir_calloc((size_t)nv + 1, 1);
    s_written(s->kind == IR_ST_FOR ? s->body : s->then_body, w);
    if (s->kind == IR_ST_IF) s_written(s->else_body, w);
    int n = 0;
    for (int v = 0; v < nv; v++) n += w[v];
    char res[32];
    s_fresh(c, res);
    if (s->kind == IR_ST_FOR) {
      char lo[SN], hi[SN], one[32], end[32], it[SN];
      s_index(c, depth, s->lo, lo);
      s_index(c, depth, s->hi, hi);
      s_fresh(c, one);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.constant 1 : index\n", one);
      s_fresh(c, end);
      s_indent(c, depth);
      ir_buf_printf(c->b, "%s = arith.addi %s, %s : index\n", end, hi, one);
      if (s->step > 0) /* the iterator itself (bound_value's name) */
        snprintf(it, SN, "%%kept_%s", k->vars[s->iter]->name);
      else
        s_fresh(c, it);
      s_indent(c, depth);
      if (n) ir_buf_printf(c->b, "%s:%d = ", res, n);
      ir_buf_printf(c->b, "scf.for %s = %s to %s step %s", it, lo, end, one);
      if (n) {
        ir_buf_puts(c->b, " iter_args(");
        for (int v = 0, first = 1; v < nv; v++)
          if (w[v]) {
            ir_buf_printf(c->b, "%s%s_%s = %s", first ? "" : ", ", res, k->vars[v]->name,
                          c->cur[v]);
            snprintf(c->cur[v], SN, "%s_%s", res, k->vars[v]->name);
            first = 0;
          }
        ir_buf_puts(c->b, ") -> (");
        s_types(c, w);
        ir_buf_puts(c->b, ")");
      }
      ir_buf_puts(c->b, " {\n");
      if (s->step < 0) { /* downward: lo + hi - the count */
        s_indent(c, depth + 1);
        ir_buf_printf(c->b, "%s_s = arith.addi %s, %s : index\n", it, lo, hi);
        s_indent(c, depth + 1);
        ir_buf_printf(c->b, "%%kept_%s = arith.subi %s_s, %s : index\n", k->vars[s->iter]->name,
                      it, it);
      }
      s_region(c, s->body, depth + 1, w);
      s_indent(c, depth);
      ir_buf_puts(c->b, "}\n");
    } else {
      s_value(c, depth, s->cond, x);
      s_conv(c, depth, x, s->cond->type, IR_I1, y);
      char (*saved)[SN] = ir_malloc(sizeof *saved * (size_t)(nv + 1));
      memcpy(saved, c->cur, sizeof *saved * (size_t)nv);
      s_indent(c, depth);
      if (n) ir_buf_printf(c->b, "%s:%d = ", res, n);
      ir_buf_printf(c->b, "scf.if %s", y);
      if (n) {
        ir_buf_puts(c->b, " -> (");
        s_types(c, w);
        ir_buf_puts(c->b, ")");
      }
      ir_buf_puts(c->b, " {\n");
      s_region(c, s->then_body, depth + 1, w);
      memcpy(c->cur, saved, sizeof *saved * (size_t)nv);
      s_indent(c, depth);
      ir_buf_puts(c->b, "} else {\n");
      s_region(c, s->else_body, depth + 1, w);
      memcpy(c->cur, saved, sizeof *saved * (size_t)nv);
      ir_free(saved);
      s_indent(c, depth);
      ir_buf_puts(c->b, "}\n");
    }
    for (int v = 0, r = 0; v < nv; v++)
      if (w[v]) snprintf(c->cur[v], SN, "%s#%d", res, r++);
    ir_free(w);
  }
}

/* Mark in seen the sizes statements s read that come in as index
 * arguments (no static value). */
static void s_size_args(const ir_kernel *k, const ir_expr *e, const emit_opts *o,
                        unsigned char *seen, int nseen) {
  if (!e) return;
  if (e->kind == IR_EX_VAR && e->var < nseen && k->vars[e->var]->kind == IR_VAR_SIZE &&
      bound_is_arg(o, e->var))
    seen[e->var] = 1;
  for (int i = 0; i < e->nargs; i++) s_size_args(k, e->args[i], o, seen, nseen);
}

static void s_stmt_size_args(const ir_kernel *k, const ir_stmt *s, const emit_opts *o,
                             unsigned char *seen, int nseen) {
  for (; s; s = s->next) {
    s_size_args(k, s->lo, o, seen, nseen);
    s_size_args(k, s->hi, o, seen, nseen);
    s_size_args(k, s->cond, o, seen, nseen);
    s_size_args(k, s->lhs, o, seen, nseen);
    s_size_args(k, s->rhs, o, seen, nseen);
    s_stmt_size_args(k, s->body, o, seen, nseen);
    s_stmt_size_args(k, s->then_body, o, seen, nseen);
    s_stmt_size_args(k, s->else_body, o, seen, nseen);
  }
}

/* The scalar item p (ir_tprog.scalar) as func.func @NAME: its arguments
 * (then the index arguments index_args gives), its results the values of
 * the variables it writes after its statements. */
static int emit_scalar_func(const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                            FILE *out) {
  const ir_kernel *k = p->kernel;
  const char *fname = o->func_name ? o->func_name : "kernel";
  ir_buf b = {0};
  sctx c = {d, o, k, &b, 0, ir_calloc((size_t)k->nvars + 1, sizeof *c.cur), 0};
  char nm[64], ty[160];
  unsigned char *seen = ir_calloc((size_t)k->nvars + 1, 1);
  index_args(p, o, seen, k->nvars + 1);
  ir_buf_printf(&b, "// a scalar item (issue 14): its statements as written, scalar loops over "
                "element reads and writes\nfunc.func @%s(", fname);
  for (int i = 0; i < p->nargs; i++) {
    node_name(p->args[i], nm, sizeof nm);
    ir_buf_printf(&b, "%s%s: %s", i ? ", " : "", nm,
                  type_str(d, &p->args[i]->type, o->dynamic ? NULL : o->sizes, o->nsizes, ty,
                           sizeof ty));
    snprintf(c.cur[p->args[i]->arg], SN, "%s", nm);
  }
  for (int v = 0, first = !p->nargs; v < k->nvars; v++)
    if (seen[v]) {
      ir_buf_printf(&b, "%s%%%s: index", first ? "" : ", ", k->vars[v]->name);
      first = 0;
    }
  ir_buf_puts(&b, ") -> (");
  types_list(&b, d, p, o, 1);
  ir_buf_puts(&b, ") {\n");
  for (int v = 0; v < k->nvars; v++) /* locals: undefined until written */
    if (k->vars[v]->kind == IR_VAR_LOCAL || k->vars[v]->kind == IR_VAR_LOCAL_ARRAY) {
      if (k->vars[v]->rank && o->dynamic) {
        fprintf(stderr, "uplift: error: a scalar item's local array %s with dynamic shapes\n",
                k->vars[v]->name);
        c.failed = 1;
      }
      snprintf(c.cur[v], SN, "%%local_%s", k->vars[v]->name);
      ir_buf_printf(&b, "  %s = tensor.empty() : %s\n", c.cur[v], s_ttype(&c, v, ty, sizeof ty));
    }
  s_stmts(&c, k->body, 0);
  ir_buf_puts(&b, "  return ");
  for (int i = 0; i < p->nresults; i++)
    ir_buf_printf(&b, "%s%s", i ? ", " : "", c.cur[p->results[i]->arg]);
  ir_buf_puts(&b, " : ");
  types_list(&b, d, p, o, 1);
  ir_buf_puts(&b, "\n}\n");
  if (!c.failed) fputs(ir_buf_str(&b), out);
  ir_buf_free(&b);
  ir_free(c.cur);
  ir_free(seen);
  return c.failed ? -1 : 0;
}

int emit_mlir_func(const gram_dialect *d, const ir_tprog *p, const emit_opts *o,
                   FILE *out) {
  if (p->loop) return emit_kept_func(d, p, o, out);
  if (p->scalar) return emit_scalar_func(d, p, o, out);
  const ir_tnode *nodes[4096];
  int nn = ir_tp_topo(p->results, p->nresults, nodes, 4096);
  if (nn < 0) {
    fprintf(stderr, "uplift: error: program too large to emit\n");
    return -1;
  }
  int nsyms = 0;
  for (int i = 0; i < nn; i++)
    for (int k = 0; k < nodes[i]->type.rank; k++) {
      int dim = nodes[i]->type.dims[k];
      if (!o->dynamic && dim_size(dim, o->sizes, o->nsizes) < 0 && !is_sym_arg(o, dim)) {
        fprintf(stderr, "uplift: error: no size for dim symbol %d\n", dim);
        return -1;
      }
      if (dim >= nsyms) nsyms = dim + 1;
    }
  for (int i = 0; i < p->nargs; i++)
    for (int k = 0; k < p->args[i]->type.rank; k++)
      if (p->args[i]->type.dims[k] >= nsyms) nsyms = p->args[i]->type.dims[k] + 1;
  for (int i = 0; i < nn; i++)
    if (nodes[i]->kind == IR_TN_MASK)
      for (int j = 0; j < nodes[i]->mask->ncons; j++)
        for (int q = 0; q < IR_MASK_MAX_SYMS; q++)
          if (nodes[i]->mask->cons[j].pcoef[q] && nodes[i]->mask->cons[j].sym[q] >= nsyms)
            nsyms = nodes[i]->mask->cons[j].sym[q] + 1;
  ir_buf b = {0}, pro = {0};
  /* static shapes: a dim that is an index argument has no static value
   * (`?`, dim_size -1) */
  emit_opts so = *o;
  long *ssizes = NULL;
  if (!o->dynamic && o->sizes && o->nsym_args) {
    ssizes = ir_malloc(sizeof *ssizes * (size_t)(o->nsizes ? o->nsizes : 1));
    memcpy(ssizes, o->sizes, sizeof *ssizes * (size_t)o->nsizes);
    for (int i = 0; i < o->nsym_args; i++)
      if (o->sym_args[i] >= 0 && o->sym_args[i] < o->nsizes) ssizes[o->sym_args[i]] = -1;
    so.sizes = ssizes;
    o = &so;
  }
  ectx c = {d, o, &b, nodes, nn, 0, o->dynamic, 0, o->dynamic ? NULL : o->sizes, nsyms, NULL, {0}, 0,
            p, 0, NULL, NULL, NULL};
  c.symssa = ir_calloc((size_t)(nsyms ? nsyms : 1), sizeof *c.symssa);
  c.skip = ir_calloc((size_t)nn + 1, 1);
  mark_folded(&c);
  const char *fname = o->func_name ? o->func_name : "kernel";
  char nm[64];
  if (p->kernel) { /* views: the caller passes their regions (none: nothing) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
      ir_kernel_print_views(p->kernel, "// ", f);
      const ir_kernel *k = p->kernel;
      for (int v = 0; v < k->nvars; v++) /* sizes used as values */
        if (k->vars[v]->size_value) {
          fprintf(f, "// %%%s is (%s)(", k->vars[v]->name, ir_elem_c_name(k->vars[v]->elem));
          ir_expr_print(k, k->vars[v]->size_value, f);
          fputs("), a size used as a value: the caller passes it\n", f);
        }
      fclose(f);
      ir_buf_puts(&b, text);
    }
    free(text);
  }
  ir_buf_printf(&b, "func.func @%s(", fname);
  for (int i = 0; i < p->nargs; i++) {
    node_name(p->args[i], nm, sizeof nm);
    ir_buf_printf(&b, "%s%s: ", i ? ", " : "", nm);
    put_type(&c, &p->args[i]->type);
  }
  for (int v = 0, first = !p->nargs; p->kernel && v < p->kernel->nvars; v++)
    if (is_sym_arg(o, v)) { /* the enclosing kept iterators */
      ir_buf_printf(&b, "%s%%%s: index", first ? "" : ", ", p->kernel->vars[v]->name);
      first = 0;
    }
  ir_buf_puts(&b, ") -> (");
  for (int i = 0; i < p->nresults; i++) {
    if (i) ir_buf_puts(&b, ", ");
    put_type(&c, &p->results[i]->type);
  }
  ir_buf_puts(&b, ") {\n");
  size_t head = b.n;
  c.b = &pro;
  if (c.dyn) prologue_dims(&c, p, fname);
  c.b = &b;
  for (int i = 0; i < nn; i++) {
    if (c.dyn)
      for (int k = 0; k < nodes[i]->type.rank; k++) {
        int dim = nodes[i]->type.dims[k];
        if (dim != IR_DIM_ONE && (dim < 0 || !c.symssa[dim][0]) && !is_sym_arg(o, dim)) {
          char sn[48];
          sym_name(p, dim, sn, sizeof sn);
          fprintf(stderr, "uplift: error: size %s is the dim of no argument, so dynamic shapes cannot "
                          "give it a value\n", sn);
          c.failed = 1;
        }
      }
    if (!c.failed && !c.skip[i]) emit_node(&c, nodes[i]);
    c.ndefined = i + 1;
  }
  ir_buf_puts(&b, "  return ");
  for (int i = 0; i < p->nresults; i++) {
    use_name(&c, p->results[i], nm, sizeof nm);
    ir_buf_printf(&b, "%s%s", i ? ", " : "", nm);
  }
  ir_buf_puts(&b, " : ");
  for (int i = 0; i < p->nresults; i++) {
    if (i) ir_buf_puts(&b, ", ");
    put_type(&c, &p->results[i]->type);
  }
  ir_buf_puts(&b, "\n}\n");
  if (!c.failed) {
    fwrite(b.s, 1, head, out);
    for (int i = 0; i < c.nidx; i++)
      fprintf(out, "  %%idx_%s%ld = arith.constant %ld : index\n", c.idx[i] < 0 ? "m" : "",
              c.idx[i] < 0 ? -c.idx[i] : c.idx[i], c.idx[i]);
    if (pro.s) fputs(pro.s, out);
    fputs(b.s + head, out);
  }
  ir_free(b.s);
  ir_free(pro.s);
  ir_free(c.symssa);
  ir_free(c.skip);
  ir_free(ssizes);
  return c.failed ? -1 : 0;
}


/* ------------------------------------------------------------ the driver */

static const char pipeline[] =
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
    "tosa-to-tensor,convert-elementwise-to-linalg),empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs "
    "function-boundary-type-conversion=identity-layout-map},"
    "func.func(convert-linalg-to-loops),convert-scf-to-cf,expand-strided-metadata,"
    "lower-affine,convert-math-to-llvm,convert-math-to-libm,convert-memref-to-llvm,"
    "convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts)";

const char *emit_mlir_pipeline(void) { return pipeline; }

#define LLVM16_LIB "/usr/lib/llvm-16/lib"

static int find_lib(const char *stem, char *out, size_t n) {
  static const char *const sfx[] = {".so", ".so.16", ".so.16.0", ".so.16.1"};
  for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
    snprintf(out, n, "%s/%s%s", LLVM16_LIB, stem, sfx[i]);
    FILE *f = fopen(out, "rb");
    if (f) {
      fclose(f);
      return 0;
    }
  }
  return -1;
}

const char *emit_mlir_runner_libs(void) {
  static char libs[1024];
  char a[400], b[400];
  if (find_lib("libmlir_runner_utils", a, sizeof a) ||
      find_lib("libmlir_c_runner_utils", b, sizeof b))
    return NULL;
  snprintf(libs, sizeof libs, "%s,%s", a, b);
  return libs;
}

int emit_mlir_tools_available(void) {
  return ir_have_program("mlir-opt-16") && ir_have_program("mlir-cpu-runner-16") &&
         emit_mlir_runner_libs() != NULL;
}

void emit_tensor_free(ir_tensor *t) {
  ir_free(t->data);
  ir_free(t->poison);
  t->data = NULL;
  t->poison = NULL;
}

typedef struct tensval {
  const ir_tensor *t;
} tensval;

static double tensor_value(long i, void *u) { return ((const tensval *)u)->t->data[i]; }

/* ------------------------------------------------------ running the tools */

/* The MLIR tools run under this wall-clock limit: far above any run of the
 * benchmark kernels, it only stops a hung tool (reported as an error). */
#define TOOL_SECONDS 600

/* A private temporary folder with the module written to DIR/in.mlir. */
typedef struct tool_dir {
  char dir[32];
  char in[64], low[64];
} tool_dir;

static int tool_dir_make(tool_dir *t, const char *text, ir_error *err) {
  snprintf(t->dir, sizeof t->dir, "/tmp/uplift-mlir-XXXXXX");
  if (!mkdtemp(t->dir))
    return ir_error_set(err, (ir_pos){0}, IR_ERR_SYSTEM, "cannot make a temporary directory");
  snprintf(t->in, sizeof t->in, "%s/in.mlir", t->dir);
  snprintf(t->low, sizeof t->low, "%s/low.mlir", t->dir);
  FILE *f = fopen(t->in, "w");
  if (!f || fputs(text, f) < 0 || fclose(f)) {
    if (f) fclose(f);
    rmdir(t->dir);
    return ir_error_set(err, (ir_pos){0}, IR_ERR_SYSTEM, "cannot write %s", t->in);
  }
  return 0;
}

static void tool_dir_remove(tool_dir *t) {
  unlink(t->in);
  unlink(t->low);
  rmdir(t->dir);
}

/* Run an MLIR tool; on failure fill err with "TOOL failed: ", with its last
 * output line when last_out_line is set (a failed cf.assert's message),
 * and its standard error. */
static int run_tool(const char *const *argv, ir_run_result *res, int last_out_line,
                    ir_error *err) {
  ir_run_opts o = {.timeout = TOOL_SECONDS};
  if (ir_run(argv, &o, res) == 0) return 0;
  ir_buf m = {0};
  ir_buf_printf(&m, "%s failed", argv[0]);
  if (res->timed_out || res->signal || !res->started) {
    ir_buf_puts(&m, " (");
    ir_run_describe(argv, res, o.timeout, &m);
    ir_buf_puts(&m, ")");
  }
  ir_buf_puts(&m, ": ");
  if (last_out_line && res->out.n) {
    char *o2 = res->out.s;
    size_t ol = res->out.n;
    while (ol && o2[ol - 1] == '\n') o2[--ol] = 0;
    char *last = strrchr(o2, '\n');
    last = last ? last + 1 : o2;
    if (*last) ir_buf_printf(&m, "%.512s\n", last);
  }
  ir_buf_puts(&m, ir_buf_str(&res->err));
  ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL, "%s", ir_buf_str(&m));
  ir_buf_free(&m);
  return -1;
}

int emit_mlir_check(const char *text, int allow_unregistered, ir_error *err) {
  tool_dir t;
  if (tool_dir_make(&t, text, err)) return -1;
  const char *argv[] = {"mlir-opt-16", t.in, "-o", "/dev/null",
                        allow_unregistered ? "--allow-unregistered-dialect" : NULL, NULL};
  ir_run_result res;
  int rc = run_tool(argv, &res, 0, err);
  ir_run_result_free(&res);
  tool_dir_remove(&t);
  return rc;
}

/* Parse printMemref output: every "data =" block, integers in order (the
 * bit patterns of floats, the values of i1/i32). */
static int parse_results(const char *text, emit_run *runs, int nruns, ir_error *err) {
  const char *s = text;
  for (int r = 0; r < nruns; r++)
    for (int k = 0; k < runs[r].prog->nresults; k++) {
      ir_tensor *t = &runs[r].outputs[k];
      const char *d = strstr(s, "data =");
      if (!d) {
        return ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL,
                            "the runner printed fewer results than expected");
      }
      s = d + 6;
      size_t n = ir_tensor_size(t);
      t->data = ir_calloc(n ? n : 1, sizeof(double));
      for (size_t i = 0; i < n; i++) {
        while (*s && (*s == '[' || *s == ']' || *s == ',' || *s == ' ' || *s == '\n'))
          s++;
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s) {
          return ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL,
                              "cannot parse the runner's output near '%.20s'", s);
        }
        if (t->elem == IR_F64) {
          double d;
          memcpy(&d, &v, sizeof d);
          t->data[i] = d;
        } else if (t->elem == IR_F32) {
          int32_t w = (int32_t)v;
          float fl;
          memcpy(&fl, &w, sizeof fl);
          t->data[i] = fl;
        } else {
          t->data[i] = (double)v;
        }
        s = end;
      }
    }
  return 0;
}

/* The output tensors of run r: element types and dims (data comes later). */
static void init_outputs(emit_run *run) {
  for (int k = 0; k < run->prog->nresults; k++) {
    const ir_type *t = &run->prog->results[k]->type;
    ir_tensor *ot = &run->outputs[k];
    memset(ot, 0, sizeof *ot);
    ot->elem = t->elem;
    ot->rank = t->rank;
    for (int i = 0; i < t->rank; i++) ot->dims[i] = dim_size(t->dims[i], run->sizes, run->nsizes);
  }
}

/* In @main: the constants of run r's inputs, cast to the function's types. */
static void main_inputs(const gram_dialect *d, ir_buf *b, const emit_run *run, int r) {
  const ir_tprog *p = run->prog;
  char ty[96];
  for (int a = 0; a < p->nargs; a++) {
    if (!outer_arg(p, a)) continue; /* a kept loop's slice: cut inside */
    /* the input at its own dims */
    const ir_tensor *in = &run->inputs[a];
    ir_type st = p->args[a]->type;
    long sz[IR_MAX_RANK];
    for (int i = 0; i < st.rank; i++) {
      st.dims[i] = i;
      sz[i] = in->dims[i];
    }
    type_str(d, &st, sz, st.rank, ty, sizeof ty);
    tensval tv = {in};
    ir_buf_printf(b, "  %%in%d_%d = arith.constant ", r, a);
    put_dense(b, &st, in->dims, tensor_value, &tv, ty);
    ir_buf_puts(b, "\n");
    char dty[96];
    if (run->dynamic && has_sym_dim(&p->args[a]->type))
      type_str(d, &p->args[a]->type, NULL, 0, dty, sizeof dty);
    else
      snprintf(dty, sizeof dty, "%s", ty);
    ir_buf_printf(b, "  %%ind%d_%d = tensor.cast %%in%d_%d : %s to %s\n", r, a, r, a, ty, dty);
  }
}

/* In @main: the call of run r's function @fR. */
static void main_call(const gram_dialect *d, ir_buf *b, const emit_run *run, int r) {
  const ir_tprog *p = run->prog;
  const long *ts = run->dynamic ? NULL : run->sizes; /* for types */
  char ty[96];
  /* a kept loop's bounds: the sizes that come in as index arguments */
  emit_opts eo = {NULL, run->sizes, run->nsizes, run->dynamic, 0, 0};
  unsigned char *seen = ir_calloc((size_t)run->nsizes + 1, 1);
  if (!run->nseq) index_args(p, &eo, seen, run->nsizes + 1);
  for (int i = 0; i < run->nseq; i++) /* a sequence: its parts' */
    index_args(run->seq[i], &eo, seen, run->nsizes + 1);
  for (int v = 0; v < run->nsizes; v++)
    if (seen[v])
      ir_buf_printf(b, "  %%kidx%d_%d = arith.constant %ld : index\n", r, v, run->sizes[v]);
  ir_buf_printf(b, "  %%r%d:%d = call @f%d(", r, p->nresults, r);
  for (int a = 0, n = 0; a < p->nargs; a++) /* a kept loop's slices are cut inside */
    if (outer_arg(p, a)) ir_buf_printf(b, "%s%%ind%d_%d", n++ ? ", " : "", r, a);
  for (int v = 0; v < run->nsizes; v++)
    if (seen[v]) ir_buf_printf(b, ", %%kidx%d_%d", r, v);
  ir_buf_puts(b, ") : (");
  for (int a = 0, n = 0; a < p->nargs; a++)
    if (outer_arg(p, a))
      ir_buf_printf(b, "%s%s", n++ ? ", " : "",
                    type_str(d, &p->args[a]->type, ts, run->nsizes, ty, sizeof ty));
  for (int v = 0; v < run->nsizes; v++)
    if (seen[v]) ir_buf_puts(b, ", index");
  ir_free(seen);
  ir_buf_puts(b, ") -> (");
  for (int k = 0; k < p->nresults; k++)
    ir_buf_printf(b, "%s%s", k ? ", " : "",
                  type_str(d, &p->results[k]->type, ts, run->nsizes, ty, sizeof ty));
  ir_buf_puts(b, ")\n");
}

/* In @main: print run r's results as integers, so that every value comes
 * back exactly: floats as their bit patterns (bitcast), i1/i32 widened to
 * i64 (i64 as it is). */
static void main_prints(const gram_dialect *d, ir_buf *b, const emit_run *run, int r) {
  const ir_tprog *p = run->prog;
  const long *ts = run->dynamic ? NULL : run->sizes;
  for (int k = 0; k < p->nresults; k++) {
    ir_type t = p->results[k]->type;
    char ty[96], ity[96], val[32];
    type_str(d, &t, ts, run->nsizes, ty, sizeof ty);
    snprintf(val, sizeof val, "%%r%d#%d", r, k);
    ir_type it = t;
    it.elem = t.elem == IR_F32 ? IR_I32 : IR_F64; /* placeholder, fixed below */
    type_str(d, &it, ts, run->nsizes, ity, sizeof ity);
    const char *ie = t.elem == IR_F32 ? "i32" : "i64";
    /* the integer type: same shape, element ie */
    char *x = strrchr(ity, 'x');
    if (x && strchr(x, '>')) sprintf(x + 1, "%s>", ie);
    else snprintf(ity, sizeof ity, "tensor<%s>", ie);
    const char *conv = t.elem == IR_F64 || t.elem == IR_F32 ? "arith.bitcast"
                       : t.elem == IR_I1                   ? "arith.extui"
                       : t.elem == IR_I64 || t.elem == IR_U64 ? "tensor.cast" /* as it is */
                       : !ir_elem_is_signed(t.elem)        ? "arith.extui"
                                                           : "arith.extsi";
    ir_buf_printf(b, "  %%c%d_%d = %s %s : %s to %s\n", r, k, conv, val, ty, ity);
    ir_buf_printf(b, "  %%u%d_%d = tensor.cast %%c%d_%d : %s to tensor<*x%s>\n", r, k, r, k, ity, ie);
    ir_buf_printf(b, "  call @printMemref%s(%%u%d_%d) : (tensor<*x%s>) -> ()\n",
                  t.elem == IR_F32 ? "I32" : "I64", r, k, ie);
  }
}

/* The module of a batch: one function @fR per run and a @main that calls
 * each on its inputs and prints the results. */
static char *build_module(const gram_dialect *d, emit_run *runs, int nruns, ir_error *err) {
  char *text = NULL;
  size_t tlen = 0;
  FILE *f = open_memstream(&text, &tlen);
  for (int r = 0; r < nruns; r++) {
    char fname[32];
    snprintf(fname, sizeof fname, "f%d", r);
    emit_opts o = {fname, runs[r].sizes, runs[r].nsizes, runs[r].dynamic, 0, 0};
    if (runs[r].nseq ? emit_mlir_seq(d, runs[r].seq, runs[r].nseq, &o, f)
                     : emit_mlir_func(d, runs[r].prog, &o, f)) {
      fclose(f);
      free(text);
      ir_error_set(err, (ir_pos){0}, IR_ERR_INTERNAL, "cannot emit program %d", r);
      return NULL;
    }
    init_outputs(&runs[r]);
  }
  fputs("func.func private @printMemrefI64(tensor<*xi64>)\n"
        "func.func private @printMemrefI32(tensor<*xi32>)\n"
        "func.func @main() {\n", f);
  for (int r = 0; r < nruns; r++) {
    ir_buf b = {0};
    main_inputs(d, &b, &runs[r], r);
    main_call(d, &b, &runs[r], r);
    main_prints(d, &b, &runs[r], r);
    fputs(ir_buf_str(&b), f);
    ir_buf_free(&b);
  }
  fputs("  return\n}\n", f);
  fclose(f);
  return text;
}

/* Lower the module with the pipeline and run it; its printed output in out. */
static int lower_and_run(const char *text, const char *libs, ir_buf *out, ir_error *err) {
  tool_dir t;
  if (tool_dir_make(&t, text, err)) return -1;
  char pipe_arg[sizeof pipeline + 32], libs_arg[1100];
  snprintf(pipe_arg, sizeof pipe_arg, "--pass-pipeline=%s", pipeline);
  snprintf(libs_arg, sizeof libs_arg, "-shared-libs=%s", libs);
  const char *opt_argv[] = {"mlir-opt-16", t.in, pipe_arg, "-o", t.low, NULL};
  ir_run_result res;
  int rc = run_tool(opt_argv, &res, 0, err);
  ir_run_result_free(&res);
  if (rc == 0) {
    /* line-buffered stdout (stdbuf), so that the message a failed cf.assert
     * prints (puts, then abort) reaches the pipe */
    const char *run_argv[] = {"stdbuf", "-oL", "mlir-cpu-runner-16", t.low, "-e", "main",
                              "-entry-point-result=void", libs_arg, NULL};
    const char *const *argv = ir_have_program("stdbuf") ? run_argv : run_argv + 2;
    rc = run_tool(argv, &res, 1, err);
    if (rc == 0) ir_buf_add(out, ir_buf_str(&res.out), res.out.n);
    ir_run_result_free(&res);
  }
  tool_dir_remove(&t);
  return rc;
}

/* The module of runs (malloc'd) and the runner's libraries in *libs, or
 * NULL with err filled. */
static char *runnable_module(const gram_dialect *d, emit_run *runs, int nruns,
                             const char **libs, ir_error *err) {
  *libs = emit_mlir_runner_libs();
  if (!*libs) {
    ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL,
                 "the MLIR runner libraries are missing under %s (install libmlir-16)",
                 LLVM16_LIB);
    return NULL;
  }
  return build_module(d, runs, nruns, err);
}

/* Lower and run module text, parse the results into runs (freed again on
 * failure); 0 or -1 with err filled. */
static int run_module(const char *text, const char *libs, emit_run *runs, int nruns,
                      ir_error *err) {
  ir_buf out = {0};
  int rc = lower_and_run(text, libs, &out, err);
  if (rc == 0 && !out.n) rc = ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL, "no output from mlir-cpu-runner-16");
  if (rc == 0) rc = parse_results(ir_buf_str(&out), runs, nruns, err);
  ir_buf_free(&out);
  if (rc)
    for (int r = 0; r < nruns; r++)
      for (int k = 0; k < runs[r].prog->nresults; k++) emit_tensor_free(&runs[r].outputs[k]);
  return rc;
}

/* ------------------------------------------- PDL patterns applied by MLIR
 * emit_mlir_run_rewritten: the module of the runs goes through mlir-opt-16's
 * --test-pdl-bytecode-pass, which takes `module @patterns` (pdl.pattern
 * ops, here compiled from PDLL by mlir-pdll-16 -x=mlir) and applies them
 * with the greedy driver to `module @ir`.  The same pass with a pattern
 * that matches nothing gives the control text (the driver also folds): the
 * patterns applied when the texts differ. */

static const char never_pattern[] =
    "  pdl.pattern @uplift_never : benefit(1) {\n"
    "    %0 = operation \"uplift.never\"\n"
    "    rewrite %0 {\n      erase %0\n    }\n  }\n";

/* Write text to path; 0 or -1 with err filled. */
static int write_text(const char *path, const char *text, ir_error *err) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f)) {
    if (f) fclose(f);
    return ir_error_set(err, (ir_pos){0}, IR_ERR_SYSTEM, "cannot write %s", path);
  }
  return 0;
}

/* `module { module @patterns { PATTERNS } module @ir { IR } } ALIASES`: the
 * #loc alias lines of pdl (mlir-pdll-16's output) moved to the end. */
static char *pdl_module(const char *pdl, const char *ir) {
  ir_buf b = {0}, aliases = {0};
  ir_buf_puts(&b, "module {\nmodule @patterns {\n");
  for (const char *l = pdl; *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) + 1 : strlen(l);
    if (!strncmp(l, "#loc", 4)) ir_buf_add(&aliases, l, n);
    else if (strncmp(l, "module", 6) && strncmp(l, "}", 1)) ir_buf_add(&b, l, n);
    l += n;
  }
  ir_buf_printf(&b, "}\nmodule @ir {\n%s}\n}\n%s\n", ir, ir_buf_str(&aliases));
  char *text = strdup(ir_buf_str(&b));
  ir_buf_free(&b);
  ir_buf_free(&aliases);
  return text;
}

/* Run mlir-opt-16 --test-pdl-bytecode-pass (pass 0: no pass, the text
 * printed back) on text (written to path); its output in out. */
static int apply_pdl(const char *path, const char *text, int pass, ir_buf *out, ir_error *err) {
  if (write_text(path, text, err)) return -1;
  const char *argv[] = {"mlir-opt-16", pass ? "--test-pdl-bytecode-pass" : path,
                        pass ? path : NULL, NULL};
  ir_run_result res;
  int rc = run_tool(argv, &res, 0, err);
  if (rc == 0) ir_buf_add(out, ir_buf_str(&res.out), res.out.n);
  ir_run_result_free(&res);
  unlink(path);
  return rc;
}

/* The body of `module @ir { ... }` in the pass's output (malloc'd), or
 * NULL. */
static char *ir_body(const char *text) {
  const char *s = strstr(text, "module @ir");
  if (!s || !(s = strchr(s, '\n'))) return NULL;
  s++;
  const char *e = text + strlen(text);
  for (int closes = 0; e > s && closes < 2; e--)
    if (e[-1] == '}') closes++;
  return strndup(s, (size_t)(e - s));
}

/* The number of ops with results in the text (lines that start with a
 * %value); the driver's folding removes some, its moving constants to the
 * top none. */
static int count_ops(const char *text) {
  int n = 0;
  for (const char *s = text; s; s = strchr(s, '\n')) {
    s += *s == '\n';
    s += strspn(s, " ");
    n += *s == '%';
  }
  return n;
}

int emit_mlir_run_rewritten(const gram_dialect *d, emit_run *runs, int nruns, const char *pdll,
                            int *applied, ir_error *err) {
  *applied = 0;
  const char *libs;
  char *text = runnable_module(d, runs, nruns, &libs, err);
  if (!text) return -1;
  tool_dir t;
  if (tool_dir_make(&t, pdll, err)) {
    free(text);
    return -1;
  }
  char path[96];
  snprintf(path, sizeof path, "%s/p.mlir", t.dir);
  const char *pdll_argv[] = {"mlir-pdll-16", t.in, "-x=mlir", NULL};
  ir_run_result res;
  int rc = run_tool(pdll_argv, &res, 0, err);
  ir_buf rewritten = {0}, control = {0}, input = {0};
  char *body = NULL;
  if (rc == 0) {
    char *m = pdl_module(ir_buf_str(&res.out), text);
    rc = apply_pdl(path, m, 1, &rewritten, err);
    free(m);
  }
  ir_run_result_free(&res);
  if (rc == 0) {
    char *m = pdl_module(never_pattern, text);
    rc = apply_pdl(path, m, 1, &control, err);
    if (rc == 0) rc = apply_pdl(path, m, 0, &input, err);
    free(m);
  }
  if (rc == 0) {
    *applied = strcmp(ir_buf_str(&rewritten), ir_buf_str(&control)) != 0;
    if (!*applied && count_ops(ir_buf_str(&control)) < count_ops(ir_buf_str(&input)))
      *applied = -1;
    body = ir_body(ir_buf_str(&rewritten));
    if (!body) rc = ir_error_set(err, (ir_pos){0}, IR_ERR_TOOL, "no module @ir in the output");
  }
  tool_dir_remove(&t);
  if (rc == 0) rc = run_module(body, libs, runs, nruns, err);
  free(body);
  free(text);
  ir_buf_free(&rewritten);
  ir_buf_free(&control);
  ir_buf_free(&input);
  return rc;
}

int emit_mlir_run(const gram_dialect *d, emit_run *runs, int nruns, ir_error *err, FILE *keep) {
  const char *libs;
  char *text = runnable_module(d, runs, nruns, &libs, err);
  if (!text) return -1;
  if (keep) fputs(text, keep);
  int rc = run_module(text, libs, runs, nruns, err);
  free(text);
  return rc;
}

/* ------------------------------------------------------------ sequences */

/* A value of the wrapper of a sequence: an array by name, its type, and
 * its SSA value so far (a wrapper argument, or a part's result). */
typedef struct seq_val {
  const char *name;
  const ir_tnode *node; /* the argument leaf, or the first part's result */
  const ir_type *type;
  char ssa[48];
  int arg; /* a wrapper argument */
  int local; /* a local carried from one part to another (ir_var.carried):
                no argument or result of the wrapper, undefined until a
                part writes it (tensor.empty) */
} seq_val;

enum { SEQ_MAX_VALS = 64 };

static seq_val *seq_find(seq_val *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (name && v[i].name && !strcmp(v[i].name, name)) return &v[i];
  return NULL;
}

static seq_val *seq_add(seq_val *v, int *n, const ir_tnode *node, const char *name, int arg) {
  if (*n == SEQ_MAX_VALS) return NULL;
  seq_val *x = &v[(*n)++];
  x->name = name;
  x->node = node;
  x->type = &node->type;
  x->arg = arg;
  snprintf(x->ssa, sizeof x->ssa, "%%%s", name);
  return x;
}

/* The wrapper's values of sequence ps: its arguments, what a part reads
 * that no part before wrote (in order), and the arrays the parts write
 * before any reads them.  0, or -1 when they do not fit. */
static int seq_collect(const ir_tprog *const *ps, int n, seq_val *vals, int *nv) {
  *nv = 0;
  for (int i = 0; i < n; i++) {
    const ir_kernel *k = ps[i]->kernel;
    for (int a = 0; a < ps[i]->nargs; a++) {
      const ir_tnode *x = ps[i]->args[a];
      if ((ps[i]->loop && !outer_arg(ps[i], a)) || seq_find(vals, *nv, x->name)) continue;
      int local = k && x->arg >= 0 && x->arg < k->nvars && k->vars[x->arg]->carried;
      seq_val *v = x->name ? seq_add(vals, nv, x, x->name, !local) : NULL;
      if (!v) return -1;
      v->local = local;
    }
    for (int r = 0; r < ps[i]->nresults; r++) {
      const char *name = ps[i]->result_names[r];
      if (seq_find(vals, *nv, name)) continue;
      seq_val *v = seq_add(vals, nv, ps[i]->results[r], name, 0);
      if (!v) return -1;
      int var = k && name ? ir_kernel_find_var(k, name) : -1;
      v->local = var >= 0 && k->vars[var]->carried;
    }
  }
  return 0;
}

/* Does some part of ps write the array called name? */
static int ps_writes(const ir_tprog *const *ps, int n, const char *name) {
  for (int i = 0; i < n; i++)
    for (int r = 0; r < ps[i]->nresults; r++)
      if (ps[i]->result_names[r] && !strcmp(ps[i]->result_names[r], name)) return 1;
  return 0;
}

int emit_mlir_seq(const gram_dialect *d, const ir_tprog *const *ps, int n, const emit_opts *o,
                  FILE *out) {
  const char *fname = o->func_name ? o->func_name : "kernel";
  const long *sz = o->dynamic ? NULL : o->sizes;
  seq_val vals[SEQ_MAX_VALS];
  int nv = 0, nk = 0;
  for (int i = 0; i < n; i++)
    if (ps[i]->kernel && ps[i]->kernel->nvars > nk) nk = ps[i]->kernel->nvars;
  unsigned char *seen = ir_calloc((size_t)nk + 1, 1), *own = ir_calloc((size_t)nk + 1, 1);
  char pname[160], ty[96];
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) { /* each part a function of its own */
    emit_opts po = *o;
    snprintf(pname, sizeof pname, "%s_part%d", fname, i);
    po.func_name = pname;
    rc = emit_mlir_func(d, ps[i], &po, out);
    index_args(ps[i], o, seen, nk + 1);
  }
  if (!rc && (rc = seq_collect(ps, n, vals, &nv)))
    fprintf(stderr, "uplift: error: the sequence's arrays do not fit its wrapper\n");
  const ir_kernel *k = ps[0]->kernel;
  ir_buf b = {0};
  if (!rc) {
    ir_buf_printf(&b, "// a sequence of %d parts (statements and kept loops in order): "
                  "@%s_partI each, called in order\nfunc.func @%s(", n, fname, fname);
    int first = 1;
    for (int i = 0; i < nv; i++)
      if (vals[i].arg) {
        ir_buf_printf(&b, "%s%s: %s", first ? "" : ", ", vals[i].ssa,
                      type_str(d, vals[i].type, sz, o->nsizes, ty, sizeof ty));
        first = 0;
      }
    for (int v = 0; v < nk; v++)
      if (seen[v]) ir_buf_printf(&b, "%s%%%s: index", first ? "" : ", ", k->vars[v]->name);
    ir_buf_puts(&b, ") -> (");
    first = 1;
    for (int i = 0; i < nv; i++) /* every array some part writes */
      if (ps_writes(ps, n, vals[i].name) && !vals[i].local) {
        ir_buf_printf(&b, "%s%s", first ? "" : ", ",
                      type_str(d, vals[i].type, sz, o->nsizes, ty, sizeof ty));
        first = 0;
      }
    ir_buf_puts(&b, ") {\n");
    for (int i = 0; i < nv; i++) /* a carried local: undefined until written */
      if (vals[i].local)
        ir_buf_printf(&b, "  %s = tensor.empty() : %s\n", vals[i].ssa,
                      type_str(d, vals[i].type, sz, o->nsizes, ty, sizeof ty));
  }
  for (int i = 0; i < n && !rc; i++) {
    const ir_tprog *p = ps[i];
    memset(own, 0, (size_t)nk + 1);
    index_args(p, o, own, nk + 1);
    ir_buf_printf(&b, "  %%part%d:%d = func.call @%s_part%d(", i, p->nresults, fname, i);
    int first = 1;
    for (int a = 0; a < p->nargs; a++) {
      if (p->loop && !outer_arg(p, a)) continue;
      ir_buf_printf(&b, "%s%s", first ? "" : ", ", seq_find(vals, nv, p->args[a]->name)->ssa);
      first = 0;
    }
    for (int v = 0; v < nk; v++)
      if (own[v]) ir_buf_printf(&b, "%s%%%s", first ? "" : ", ", k->vars[v]->name), first = 0;
    ir_buf_puts(&b, ") : (");
    first = 1;
    for (int a = 0; a < p->nargs; a++) {
      if (p->loop && !outer_arg(p, a)) continue;
      ir_buf_printf(&b, "%s%s", first ? "" : ", ",
                    type_str(d, &p->args[a]->type, sz, o->nsizes, ty, sizeof ty));
      first = 0;
    }
    for (int v = 0; v < nk; v++)
      if (own[v]) ir_buf_printf(&b, "%sindex", first ? "" : ", "), first = 0;
    ir_buf_puts(&b, ") -> (");
    types_list(&b, d, p, o, 1);
    ir_buf_puts(&b, ")\n");
    for (int r = 0; r < p->nresults; r++) /* the next part reads these */
      snprintf(seq_find(vals, nv, p->result_names[r])->ssa, sizeof vals[0].ssa, "%%part%d#%d", i,
               r);
  }
  if (!rc) {
    ir_buf_puts(&b, "  return ");
    int first = 1;
    for (int i = 0; i < nv; i++)
      if (ps_writes(ps, n, vals[i].name) && !vals[i].local) {
        ir_buf_printf(&b, "%s%s", first ? "" : ", ", vals[i].ssa);
        first = 0;
      }
    ir_buf_puts(&b, " : ");
    first = 1;
    for (int i = 0; i < nv; i++)
      if (ps_writes(ps, n, vals[i].name) && !vals[i].local) {
        ir_buf_printf(&b, "%s%s", first ? "" : ", ",
                      type_str(d, vals[i].type, sz, o->nsizes, ty, sizeof ty));
        first = 0;
      }
    ir_buf_puts(&b, "\n}\n");
    fputs(ir_buf_str(&b), out);
  }
  ir_buf_free(&b);
  ir_free(seen);
  ir_free(own);
  return rc;
}

int emit_mlir_seq_signature(const ir_tprog *const *ps, int n, ir_tprog *sig) {
  seq_val vals[SEQ_MAX_VALS];
  int nv;
  memset(sig, 0, sizeof *sig);
  sig->kernel = ps[0]->kernel;
  if (seq_collect(ps, n, vals, &nv)) return -1;
  for (int i = 0; i < nv; i++) {
    if (vals[i].arg) {
      if (sig->nargs == (int)(sizeof sig->args / sizeof sig->args[0])) return -1;
      sig->args[sig->nargs++] = vals[i].node;
    }
    if (ps_writes(ps, n, vals[i].name) && !vals[i].local) {
      if (sig->nresults == IR_TP_MAX_RESULTS) return -1;
      sig->result_names[sig->nresults] = vals[i].name;
      sig->results[sig->nresults++] = vals[i].node;
    }
  }
  return 0;
}
