/*
 * eval.c - running a production through its semantic kernel (interp/ops.h).
 *
 * The dialect binds kernel attributes by name (`kernel dot_general
 * lhs_contract=@contract.lhs ...`); here each binding is turned into the
 * kernel's interp_attr slot of the kind its descriptor asks for (a dim list,
 * an integer, a comparison direction, a reduction body, a double), the
 * kernel's operands are assembled (the op's operands, or the `kernel
 * NAME(x, 0)` list with rank-0 constants), and interp_op_eval runs it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grammar/grammar.h"

#include "interp/ops.h"

/* A binding error is in the dialect, not at a place of the user's source. */
static const ir_pos gram_nowhere;

/* The value of kernel binding ka as an interp_attr of the wanted kind. */
static int kattr_value(const gram_op *op, const ir_attr *attrs, const gram_kattr *ka,
                       interp_attr_kind kind, interp_attr *out, ir_error *err) {
  int list[IR_TP_MAX_ATTR_LEN], n = 0;
  const char *name = NULL;
  switch (ka->kind) {
  case GRAM_KV_LIST:
    n = ka->n;
    memcpy(list, ka->list, sizeof(int) * (size_t)n);
    break;
  case GRAM_KV_NAME: name = ka->name; break;
  case GRAM_KV_ATTR: {
    const gram_attr *a = &op->attrs[ka->attr];
    const ir_attr *v = &attrs[ka->attr];
    if (a->dom == GRAM_DOM_ENUM || a->dom == GRAM_DOM_REGION) {
      name = a->vals[v->v[0]];
      break;
    }
    int start = ka->part == 2 ? 1 : 0, step = ka->part ? 2 : 1;
    for (int i = start; i < v->n; i += step) list[n++] = v->v[i];
    break;
  }
  }
  switch (kind) {
  case INTERP_ATTR_INTS:
    if (name || n > IR_MAX_RANK) goto bad;
    *out = interp_attr_ints(n, list);
    return 0;
  case INTERP_ATTR_INT:
    if (name || n != 1) goto bad;
    *out = interp_attr_int(list[0]);
    return 0;
  case INTERP_ATTR_DOUBLE:
    if (name || n != 1) goto bad;
    *out = interp_attr_double(list[0]);
    return 0;
  case INTERP_ATTR_DIR: {
    int d = name ? interp_cmp_parse(name) : -1;
    if (d < 0) goto bad;
    *out = interp_attr_dir((interp_cmp)d);
    return 0;
  }
  case INTERP_ATTR_BODY: {
    int b = name ? interp_body_parse(name) : -1;
    if (b < 0) goto bad;
    *out = interp_attr_body((interp_body)b);
    return 0;
  }
  case INTERP_ATTR_NONE: break;
  }
bad:
  return ir_error_set(err, gram_nowhere, IR_ERR_INPUT,
                      "%s: kernel attribute '%s' does not fit the kernel's %s slot", op->name,
                      ka->key, interp_attr_kind_name(kind));
}

int gram_bind(const gram_op *op, const ir_attr *attrs, gram_binding *b, ir_error *err) {
  memset(b, 0, sizeof *b);
  const char *kname = gram_prod_kernel(op, attrs);
  const interp_op *k = kname ? interp_op_find(kname) : NULL;
  if (!k) {
    return ir_error_set(err, gram_nowhere, IR_ERR_INPUT, "%s: no kernel '%s'", op->name,
                        kname ? kname : "?");
  }
  b->kernel = k;
  for (int i = 0; i < op->nkattrs; i++) {
    int slot = interp_op_attr_index(k, op->kattrs[i].key);
    if (slot < 0) {
      return ir_error_set(err, gram_nowhere, IR_ERR_INPUT, "%s: kernel '%s' has no attribute '%s'",
                          op->name, kname, op->kattrs[i].key);
    }
    if (kattr_value(op, attrs, &op->kattrs[i], k->attrs[slot].kind, &b->attrs[slot], err))
      return -1;
  }
  b->nargs = op->nkargs < 0 ? op->nops : op->nkargs;
  if (b->nargs != k->nargs) {
    return ir_error_set(err, gram_nowhere, IR_ERR_INPUT,
                        "%s: kernel '%s' takes %d operands, the op gives %d", op->name, kname,
                        k->nargs, b->nargs);
  }
  for (int i = 0; i < b->nargs; i++) {
    b->args[i] = op->nkargs < 0 ? i : op->kargs[i];
    b->kconst[i] = op->nkargs < 0 ? 0 : op->kconst[i];
  }
  return 0;
}

ir_elem gram_binding_const_elem(const gram_binding *b, const ir_elem *op_elems,
                               ir_elem result) {
  /* a select's data operands are a and b; its predicate is i1 */
  int first = b->kernel && !strcmp(b->kernel->name, "select") ? 1 : 0;
  for (int i = first; i < b->nargs; i++)
    if (b->args[i] >= 0) return op_elems[b->args[i]];
  return result;
}

double gram_binding_kconst(const gram_binding *b, int i, ir_elem elem) {
  double v = b->kconst[i];
  if (!ir_elem_is_int(elem) || isnan(v)) return v;
  int w = ir_elem_bits(elem), s = ir_elem_is_signed(elem);
  /* the type's extremes as doubles (below 2^w, for 64 bits the largest
   * double under it) */
  double hi = ldexp(1, s ? w - 1 : w), lo = s ? -hi : 0;
  hi = w - s < 53 ? hi - 1 : nextafter(hi, 0);
  v = trunc(v);
  return v < lo ? lo : v > hi ? hi : v;
}

void gram_binding_args(const gram_binding *b, const ir_tensor *ops, int nops, ir_elem result,
                       ir_tensor *kargs, double *kc) {
  ir_elem elems[IR_TP_MAX_OPERANDS];
  for (int i = 0; i < nops && i < IR_TP_MAX_OPERANDS; i++) elems[i] = ops[i].elem;
  ir_elem celem = gram_binding_const_elem(b, elems, result);
  for (int i = 0; i < b->nargs; i++) {
    if (b->args[i] >= 0) {
      kargs[i] = ops[b->args[i]];
    } else {
      kc[i] = gram_binding_kconst(b, i, celem);
      memset(&kargs[i], 0, sizeof kargs[i]);
      kargs[i].elem = celem;
      kargs[i].data = &kc[i];
    }
  }
}

int gram_binding_eval(const gram_binding *b, const ir_tensor *ops, int nops, ir_tensor *out,
                      interp_err *err) {
  ir_tensor kargs[INTERP_MAX_ARGS];
  double kc[INTERP_MAX_ARGS];
  gram_binding_args(b, ops, nops, out->elem, kargs, kc);
  return interp_op_eval(b->kernel, b->attrs, kargs, out, err);
}

int gram_prod_eval(const gram_op *op, const ir_attr *attrs, const ir_tensor *args,
                   ir_tensor *out, ir_error *err) {
  gram_binding b;
  if (gram_bind(op, attrs, &b, err)) return -1;
  return gram_binding_eval(&b, args, op->nops, out, err);
}
