/*
 * eval.c - evaluating tensor program DAGs on concrete values (the spec
 * check, --check) and on symbolic values (the verifier).  Each op node is
 * bound to its semantic kernel with gram_bind and run through the kernel's
 * concrete or symbolic entry point.
 */
#include <string.h>

#include "enumerator/enumerator.h"

/* Bind with the grammar, message dropped (callers report their own). */
static int bind(const gram_op *op, const ir_attr *attrs, gram_binding *b) {
  return gram_bind(op, attrs, b, NULL);
}

static long symval(int sym, void *user) { return ((const long *)user)[sym]; }

/* Concrete dims of a symbolic type. */
static void concrete_dims(const ir_type *t, const long *sizes, long *dims) {
  for (int d = 0; d < t->rank; d++)
    dims[d] = t->dims[d] == IR_DIM_ONE ? 1 : sizes[t->dims[d]];
}

static int eval_rec(const ir_tnode *n, const ir_tensor *args, int nargs,
                    const long *sizes, ir_tensor *out, ir_error *err) {
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
      ir_unravel(i, out->rank, out->dims, idx);
      out->data[i] = ir_mask_contains(n->mask, idx, symval, (void *)sizes);
    }
    return 0;
  }
  case IR_TN_OP: break;
  }
  const gram_op *op = n->op->owner;
  gram_binding b;
  if (bind(op, n->attrs, &b)) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s: no kernel binding", op->name);
    return -1;
  }
  ir_tensor ops[IR_TP_MAX_OPERANDS];
  int r = 0, done = 0;
  for (; done < n->nops && !r; done++)
    r = eval_rec(n->ops[done], args, nargs, sizes, &ops[done], err);
  if (!r) r = gram_binding_eval(&b, ops, n->nops, out, err);
  for (int i = 0; i < done; i++) interp_tensor_free(&ops[i]);
  return r;
}

int enum_eval_node(const ir_tnode *n, const ir_tensor *args, int nargs,
                   const long *sizes, ir_tensor *out, ir_error *err) {
  return eval_rec(n, args, nargs, sizes, out, err);
}

/* ------------------------------------------------------------ symbolic */

static int eval_sym_rec(const ir_tnode *n, const int *in_vars,
                        const interp_sym_tensor *inputs, int nin, const long *sizes,
                        const interp_sym_algebra *alg, interp_sym_tensor *out,
                        ir_error *err) {
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
        ir_unravel(i, out->rank, out->dims, idx);
        v = ir_mask_contains(n->mask, idx, symval, (void *)sizes);
      }
      out->data[i] = alg->constant(alg->ctx, v);
    }
    return 0;
  }
  case IR_TN_OP: break;
  }
  gram_binding b;
  if (bind(n->op->owner, n->attrs, &b)) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s: no kernel binding", n->op->name);
    return -1;
  }
  interp_sym_tensor ops[IR_TP_MAX_OPERANDS], kargs[INTERP_MAX_ARGS];
  interp_term kc[INTERP_MAX_ARGS];
  int r = 0, done = 0;
  for (; done < n->nops && !r; done++)
    r = eval_sym_rec(n->ops[done], in_vars, inputs, nin, sizes, alg, &ops[done], err);
  if (!r) {
    /* as gram_binding_args, over symbolic terms */
    ir_elem elems[IR_TP_MAX_OPERANDS];
    for (int i = 0; i < n->nops; i++) elems[i] = ops[i].elem;
    ir_elem celem = gram_binding_const_elem(&b, elems, n->type.elem);
    for (int i = 0; i < b.nargs; i++) {
      if (b.args[i] >= 0) {
        kargs[i] = ops[b.args[i]];
      } else {
        kc[i] = alg->constant(alg->ctx, gram_binding_kconst(&b, i, celem));
        memset(&kargs[i], 0, sizeof kargs[i]);
        kargs[i].elem = celem;
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
                       ir_error *err) {
  return eval_sym_rec(n, in_vars, inputs, nin, sizes, alg, out, err);
}
