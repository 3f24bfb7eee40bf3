/*
 * eval.c - binding grammar productions to semantic kernels, and evaluating
 * tensor program DAGs on concrete values.
 *
 * A production names its kernel (possibly through an enum attribute) and
 * binds the kernel's attributes to literals or to its own attribute values
 * (a half of a pairs attribute for dot_general's lhs/rhs dims).  enum_bind
 * resolves that once per production; the search then calls the kernel's
 * concrete entry point per example without looking anything up.
 */
#include <string.h>

#include "enumerator/enumerator.h"

static int attr_value(const gram_op *op, const gram_kattr *ka,
                      const ir_attr *attrs, interp_attr_kind want,
                      interp_attr *out) {
  int vals[IR_TP_MAX_ATTR_LEN], n = 0;
  const char *name = NULL;
  switch (ka->kind) {
  case GRAM_KV_LIST:
    for (int i = 0; i < ka->n; i++) vals[n++] = ka->list[i];
    break;
  case GRAM_KV_NAME: name = ka->name; break;
  case GRAM_KV_ATTR: {
    const gram_attr *ga = &op->attrs[ka->attr];
    const ir_attr *a = &attrs[ka->attr];
    if (ga->dom == GRAM_DOM_ENUM || ga->dom == GRAM_DOM_REGION) {
      name = ga->vals[a->v[0]];
      break;
    }
    for (int i = 0; i < a->n; i++)
      if (ka->part == 0 || (i % 2) == ka->part - 1) vals[n++] = a->v[i];
    break;
  }
  }
  switch (want) {
  case INTERP_ATTR_INTS:
    if (name || n > IR_MAX_RANK) return -1;
    *out = interp_attr_ints(n, vals);
    return 0;
  case INTERP_ATTR_INT:
    if (name || n != 1) return -1;
    *out = interp_attr_int(vals[0]);
    return 0;
  case INTERP_ATTR_DIR: {
    int d = name ? interp_cmp_parse(name) : -1;
    if (d < 0) return -1;
    *out = interp_attr_dir((interp_cmp)d);
    return 0;
  }
  case INTERP_ATTR_BODY: {
    int b = name ? interp_body_parse(name) : -1;
    if (b < 0) return -1;
    *out = interp_attr_body((interp_body)b);
    return 0;
  }
  case INTERP_ATTR_DOUBLE:
    if (name || n != 1) return -1;
    *out = interp_attr_double(vals[0]);
    return 0;
  case INTERP_ATTR_NONE: return -1;
  }
  return -1;
}

int enum_bind(const gram_op *op, const ir_attr *attrs, enum_binding *b) {
  memset(b, 0, sizeof *b);
  const char *kname = gram_prod_kernel(op, attrs);
  b->kernel = kname ? interp_op_find(kname) : NULL;
  if (!b->kernel) return -1;
  for (int i = 0; i < op->nkattrs; i++) {
    const gram_kattr *ka = &op->kattrs[i];
    int slot = interp_op_attr_index(b->kernel, ka->key);
    if (slot < 0) return -1;
    if (attr_value(op, ka, attrs, b->kernel->attrs[slot].kind, &b->attrs[slot]))
      return -1;
  }
  if (op->nkargs < 0) {
    b->nargs = op->nops;
    for (int i = 0; i < op->nops; i++) b->args[i] = i;
  } else {
    b->nargs = op->nkargs;
    for (int i = 0; i < op->nkargs; i++) {
      b->args[i] = op->kargs[i];
      b->kconst[i] = op->kconst[i];
    }
  }
  if (b->nargs != b->kernel->nargs) return -1;
  return 0;
}

static long symval(int sym, void *user) { return ((const long *)user)[sym]; }

/* Concrete dims of a symbolic type. */
static void concrete_dims(const ir_type *t, const long *sizes, long *dims) {
  for (int d = 0; d < t->rank; d++)
    dims[d] = t->dims[d] == IR_DIM_ONE ? 1 : sizes[t->dims[d]];
}

static int eval_rec(const ir_tnode *n, const ir_tensor *args, int nargs,
                    const long *sizes, ir_tensor *out, interp_err *err) {
  memset(out, 0, sizeof *out);
  out->elem = n->type.elem;
  out->rank = n->type.rank;
  concrete_dims(&n->type, sizes, out->dims);
  size_t size = ir_tensor_size(out);
  switch (n->kind) {
  case IR_TN_ARG:
    if (n->arg < 0 || n->arg >= nargs) {
      if (err) snprintf(err->msg, sizeof err->msg, "argument %d missing", n->arg);
      return -1;
    }
    if (ir_tensor_size(&args[n->arg]) != size) {
      if (err) snprintf(err->msg, sizeof err->msg, "argument %s has the wrong size", n->name);
      return -1;
    }
    out->data = ir_malloc(size * sizeof(double));
    memcpy(out->data, args[n->arg].data, size * sizeof(double));
    if (args[n->arg].poison) {
      out->poison = ir_malloc(size);
      memcpy(out->poison, args[n->arg].poison, size);
    }
    return 0;
  case IR_TN_CONST:
    out->data = ir_malloc(size * sizeof(double));
    for (size_t i = 0; i < size; i++) out->data[i] = n->value;
    return 0;
  case IR_TN_MASK: {
    out->data = ir_malloc(size * sizeof(double));
    long idx[IR_MAX_RANK] = {0};
    for (size_t i = 0; i < size; i++) {
      size_t r = i;
      for (int d = out->rank - 1; d >= 0; d--) {
        idx[d] = (long)(r % (size_t)out->dims[d]);
        r /= (size_t)out->dims[d];
      }
      out->data[i] = ir_mask_contains(n->mask, idx, symval, (void *)sizes);
    }
    return 0;
  }
  case IR_TN_OP: break;
  }
  const gram_op *op = n->op->owner;
  enum_binding b;
  if (enum_bind(op, n->attrs, &b)) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s: no kernel binding", op->name);
    return -1;
  }
  ir_tensor ops[IR_TP_MAX_OPERANDS], kargs[INTERP_MAX_ARGS];
  double kc[INTERP_MAX_ARGS];
  int r = 0, done = 0;
  for (; done < n->nops && !r; done++)
    r = eval_rec(n->ops[done], args, nargs, sizes, &ops[done], err);
  if (!r) {
    for (int i = 0; i < b.nargs; i++) {
      if (b.args[i] >= 0) {
        kargs[i] = ops[b.args[i]];
      } else {
        kc[i] = b.kconst[i];
        memset(&kargs[i], 0, sizeof kargs[i]);
        kargs[i].elem = n->type.elem;
        kargs[i].data = &kc[i];
      }
    }
    r = interp_op_eval(b.kernel, b.attrs, kargs, out, err);
  }
  for (int i = 0; i < done; i++) interp_tensor_free(&ops[i]);
  return r;
}

int enum_eval_node(const ir_tnode *n, const ir_tensor *args, int nargs,
                   const long *sizes, ir_tensor *out, interp_err *err) {
  return eval_rec(n, args, nargs, sizes, out, err);
}

/* ------------------------------------------------------------ symbolic */

static int eval_sym_rec(const ir_tnode *n, const int *in_vars,
                        const interp_sym_tensor *inputs, int nin, const long *sizes,
                        const interp_sym_algebra *alg, interp_sym_tensor *out,
                        interp_err *err) {
  memset(out, 0, sizeof *out);
  out->elem = n->type.elem;
  out->rank = n->type.rank;
  concrete_dims(&n->type, sizes, out->dims);
  size_t size = 1;
  for (int d = 0; d < out->rank; d++) size *= (size_t)out->dims[d];
  switch (n->kind) {
  case IR_TN_ARG: {
    int i = 0;
    while (i < nin && in_vars[i] != n->arg) i++;
    if (i == nin) {
      if (err) snprintf(err->msg, sizeof err->msg, "argument %s is not an input", n->name);
      return -1;
    }
    out->data = ir_malloc((size ? size : 1) * sizeof(interp_term));
    memcpy(out->data, inputs[i].data, size * sizeof(interp_term));
    if (inputs[i].poison) {
      out->poison = ir_malloc((size ? size : 1) * sizeof(interp_term));
      memcpy(out->poison, inputs[i].poison, size * sizeof(interp_term));
    }
    return 0;
  }
  case IR_TN_CONST:
  case IR_TN_MASK: {
    out->data = ir_malloc((size ? size : 1) * sizeof(interp_term));
    long idx[IR_MAX_RANK] = {0};
    for (size_t i = 0; i < size; i++) {
      double v = n->value;
      if (n->kind == IR_TN_MASK) {
        size_t r = i;
        for (int d = out->rank - 1; d >= 0; d--) {
          idx[d] = (long)(r % (size_t)out->dims[d]);
          r /= (size_t)out->dims[d];
        }
        v = ir_mask_contains(n->mask, idx, symval, (void *)sizes);
      }
      out->data[i] = alg->constant(alg->ctx, v);
    }
    return 0;
  }
  case IR_TN_OP: break;
  }
  enum_binding b;
  if (enum_bind(n->op->owner, n->attrs, &b)) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s: no kernel binding", n->op->name);
    return -1;
  }
  interp_sym_tensor ops[IR_TP_MAX_OPERANDS], kargs[INTERP_MAX_ARGS];
  interp_term kc[INTERP_MAX_ARGS];
  int r = 0, done = 0;
  for (; done < n->nops && !r; done++)
    r = eval_sym_rec(n->ops[done], in_vars, inputs, nin, sizes, alg, &ops[done], err);
  if (!r) {
    for (int i = 0; i < b.nargs; i++) {
      if (b.args[i] >= 0) {
        kargs[i] = ops[b.args[i]];
      } else {
        kc[i] = alg->constant(alg->ctx, b.kconst[i]);
        memset(&kargs[i], 0, sizeof kargs[i]);
        kargs[i].elem = n->type.elem;
        kargs[i].data = &kc[i];
      }
    }
    r = interp_op_eval_sym(b.kernel, b.attrs, kargs, out, alg, err);
  }
  for (int i = 0; i < done; i++) interp_sym_tensor_free(&ops[i]);
  return r;
}

int enum_eval_node_sym(const ir_tnode *n, const int *in_vars,
                       const interp_sym_tensor *inputs, int nin, const long *sizes,
                       const interp_sym_algebra *alg, interp_sym_tensor *out,
                       interp_err *err) {
  return eval_sym_rec(n, in_vars, inputs, nin, sizes, alg, out, err);
}
