/*
 * term.c - the dialect side of reading a printed term back (ir_tp_parse):
 * op names resolve through gram_find_op, enum attribute values through the
 * attribute's value names, and result types through the generator
 * (gram_productions), so that a parsed node is typed and its attributes
 * checked exactly as the enumerator's would be.
 */
#include <string.h>

#include "grammar/grammar.h"

static const ir_tp_opdesc *find_op(void *user, const char *name) {
  const gram_op *op = gram_find_op(user, name);
  return op ? &op->desc : NULL;
}

static int enum_value(void *user, const ir_tp_opdesc *desc, int attr, const char *name) {
  (void)user;
  const gram_op *op = desc->owner;
  if (attr < 0 || attr >= op->nattrs) return -1;
  const gram_attr *a = &op->attrs[attr];
  if (a->dom != GRAM_DOM_ENUM && a->dom != GRAM_DOM_REGION) return -1;
  for (int i = 0; i < a->nvals; i++)
    if (!strcmp(a->vals[i], name)) return i;
  return -1;
}

static int attrs_equal(const gram_op *op, const ir_attr *a, const ir_attr *b) {
  for (int i = 0; i < op->nattrs; i++) {
    if (a[i].n != b[i].n) return 0;
    if (memcmp(a[i].v, b[i].v, (size_t)a[i].n)) return 0;
  }
  return 1;
}

static int result_type(void *user, const ir_tp_opdesc *desc, const ir_attr *attrs,
                       const ir_type *ops, int nops, const ir_type *target, ir_type *result,
                       ir_attr *canon, ir_error *err) {
  (void)user;
  const gram_op *op = desc->owner;
  const ir_pos nowhere = {0};
  if (nops != op->nops) {
    return ir_error_set(err, nowhere, IR_ERR_SHAPE, "takes %d operand%s, not %d", op->nops,
                        op->nops == 1 ? "" : "s", nops);
  }
  if (gram_op_needs_target(op) && !target) {
    return ir_error_set(err, nowhere, IR_ERR_INPUT, "needs its result type (op(...):f64[m,n])");
  }
  /* Every production is looked at: when there are more than the first
   * guess holds, the table grows to the count gram_productions reports
   * and the generator runs again. */
  int cap = 256;
  gram_prod *prods = ir_malloc((size_t)cap * sizeof *prods);
  int n = gram_productions_given(op, ops, attrs, target, prods, cap, NULL);
  if (n > cap) {
    cap = n;
    prods = ir_realloc(prods, (size_t)cap * sizeof *prods);
    n = gram_productions_given(op, ops, attrs, target, prods, cap, NULL);
  }
  int found = -1;
  for (int i = 0; i < n && found < 0; i++)
    if (attrs_equal(op, attrs, prods[i].attrs) &&
        (!target || ir_type_equal(target, &prods[i].result)))
      found = i;
  if (found >= 0) {
    *result = prods[found].result;
    memcpy(canon, prods[found].attrs, sizeof(ir_attr) * IR_TP_MAX_ATTRS);
  } else if (n == 0) {
    ir_error_set(err, nowhere, IR_ERR_SHAPE, "the operand types do not fit the op");
  } else {
    char buf[256];
    ir_error_set(err, nowhere, IR_ERR_SHAPE, "attributes %s are not valid for these operand types",
                 gram_attrs_str(op, attrs, buf, sizeof buf));
  }
  ir_free(prods);
  return found >= 0 ? 0 : -1;
}

void gram_term_syntax(const gram_dialect *d, ir_tp_syntax *syn) {
  syn->find_op = find_op;
  syn->enum_value = enum_value;
  syn->result_type = result_type;
  syn->user = (void *)d;
}
