/* test_grammar.c - dialect parsing, unification, attribute enumeration
 * counts (derived from the math), static rejection, result types, and the
 * hash-consed tensor programs of ir/tprog. */
#include <string.h>

#include "enumerator/enumerator.h"
#include "grammar/grammar.h"
#include "ir/tprog.h"
#include "tests/harness.h"

/* size symbols of the tests */
enum { M = 0, N = 1, K = 2, B = 3 };

static ir_type ty(ir_elem e, int rank, int d0, int d1, int d2) {
  ir_type t = {e, rank, {d0, d1, d2, 0}};
  return t;
}

static int prods(const gram_dialect *d, const char *op, const ir_type *ops,
                 const ir_type *target, gram_prod *out, gram_stats *st) {
  const gram_op *o = gram_find_op(d, op);
  if (!o) {
    fprintf(stderr, "no op %s in %s\n", op, d->name);
    return -1;
  }
  return gram_productions(o, ops, target, out, 256, st);
}

static void test_parse(ir_arena *a) {
  gram_dialect *hlo = gram_load("hlo", a), *lin = gram_load("linalg", a),
               *tosa = gram_load("tosa", a);
  CHECK("hlo loads", hlo != NULL);
  CHECK("linalg loads", lin != NULL);
  CHECK("tosa loads", tosa != NULL);
  if (!hlo || !lin || !tosa) return;
  static const char *hops[] = {"add", "subtract", "multiply", "divide", "maximum",
                               "minimum", "negate", "sqrt", "exp", "dot_general",
                               "transpose", "broadcast_in_dim", "reduce", "select",
                               "compare", "iota"};
  for (size_t i = 0; i < sizeof hops / sizeof hops[0]; i++)
    CHECKF(gram_find_op(hlo, hops[i]) != NULL, "hlo has %s", hops[i]);
  static const char *lops[] = {"matmul", "matvec", "vecmat", "dot", "batch_matmul",
                               "transpose", "broadcast", "reduce", "map", "fill",
                               "elemwise_unary", "elemwise_binary"};
  for (size_t i = 0; i < sizeof lops / sizeof lops[0]; i++)
    CHECKF(gram_find_op(lin, lops[i]) != NULL, "linalg has %s", lops[i]);
  static const char *tops[] = {"add", "sub", "mul", "reciprocal", "matmul", "transpose",
                               "reduce_sum", "reshape", "select", "greater_equal",
                               "equal", "rsqrt", "exp", "maximum", "minimum"};
  for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
    CHECKF(gram_find_op(tosa, tops[i]) != NULL, "tosa has %s", tops[i]);
  CHECK("constants are written by the dialect", hlo->constant.text && tosa->constant.text);
  const gram_op *mm = gram_find_op(lin, "matmul");
  CHECK("matmul spelling", !strcmp(mm->mlir, "linalg.matmul"));
  CHECK("matmul kernel", !strcmp(mm->kernel, "dot_general"));
  CHECK("matmul has two operands", mm->nops == 2);
  CHECK("tosa's add is f32, i32 and ui32 (wrapping: the sign does not matter)",
        gram_find_op(tosa, "add")->elems ==
            ((1u << IR_F32) | (1u << IR_I32) | (1u << IR_U32)));
  CHECK("tosa's maximum is not ui32 (it compares as signed)",
        !(gram_find_op(tosa, "maximum")->elems & (1u << IR_U32)));
  for (int m = 0; m < 2; m++)
    CHECKF(gram_find_op(tosa, m ? "reduce_min" : "reduce_max")->elems ==
               ((1u << IR_F32) | (1u << IR_I32)),
           "tosa's %s is f32 and i32 (signed, as MLIR 16 lowers it: not ui32)",
           m ? "reduce_min" : "reduce_max");
  CHECK("tosa's matmul is f32 only (TOSA's integer matmul takes i8/i16)",
        gram_find_op(tosa, "matmul")->elems == (1u << IR_F32));
  CHECK("no such op", gram_find_op(hlo, "matmul") == NULL);
}

static void test_generator(ir_arena *a) {
  gram_dialect *hlo = gram_load("hlo", a), *lin = gram_load("linalg", a),
               *tosa = gram_load("tosa", a);
  if (!hlo || !lin || !tosa) return;
  gram_prod out[256];
  gram_stats st = {0, 0};
  char buf[128];

  /* unification: [m,k] x [k,n] -> [m,n]; [m,k] x [n,k] is rejected */
  ir_type mk[2] = {ty(IR_F64, 2, M, K, 0), ty(IR_F64, 2, K, N, 0)};
  int n = prods(lin, "matmul", mk, NULL, out, &st);
  ir_type mn = ty(IR_F64, 2, M, N, 0);
  CHECK("matmul unifies", n == 1 && ir_type_equal(&out[0].result, &mn));
  ir_type bad[2] = {ty(IR_F64, 2, M, K, 0), ty(IR_F64, 2, N, K, 0)};
  st = (gram_stats){0, 0};
  CHECK("matmul rejects k vs n", prods(lin, "matmul", bad, NULL, out, &st) == 0);
  CHECK("the rejection is counted", st.rejected == 1 && st.enumerated == 1);
  ir_type mixed[2] = {ty(IR_F64, 2, M, K, 0), ty(IR_F32, 2, K, N, 0)};
  CHECK("matmul rejects mixed element types", prods(lin, "matmul", mixed, NULL, out, NULL) == 0);

  /* FLOAT|INT spellings: linalg.map over i32 offers the values with an
   * integer form (add sub mul max min, not div), written as arith's
   * integer ops; map_unary only abs (neg, sqrt, exp, rsqrt: `-`) */
  ir_type ii[2] = {ty(IR_I32, 2, M, N, 0), ty(IR_I32, 2, M, N, 0)};
  st = (gram_stats){0, 0};
  n = prods(lin, "map", ii, NULL, out, &st);
  int has_div = 0, spelled = 1;
  for (int i = 0; i < n && i < 256; i++) {
    const gram_attr *fa = &out[i].op->attrs[0];
    const char *v = fa->vals[out[i].attrs[0].v[0]];
    const char *sp = gram_attr_spelling(fa, out[i].attrs[0].v[0], IR_I32);
    has_div |= !strcmp(v, "div");
    spelled &= sp && !strncmp(sp, "arith.", 6) && sp[strlen(sp) - 1] == 'i'; /* addi, maxsi */
  }
  CHECKF(n == 5 && !has_div && st.rejected == 1, "linalg.map over i32: 5 values, no div (got %d)", n);
  CHECK("linalg.map over i32 is spelled with integer ops", spelled);
  const gram_attr *mf = &gram_find_op(lin, "map")->attrs[0];
  CHECK("add is arith.addf for f32, arith.addi for i32",
        !strcmp(gram_attr_spelling(mf, 0, IR_F32), "arith.addf") &&
            !strcmp(gram_attr_spelling(mf, 0, IR_I32), "arith.addi"));
  n = prods(lin, "map_unary", ii, NULL, out, NULL);
  CHECKF(n == 1 && !strcmp(out[0].op->attrs[0].vals[out[0].attrs[0].v[0]], "abs"),
         "linalg.map_unary over i32: abs only (got %d)", n);
  CHECK("elemwise_unary refuses i32", prods(lin, "elemwise_unary", ii, NULL, out, NULL) == 0);

  /* permutations: rank 3 has 3! = 6, minus the identity (noid) = 5 */
  ir_type r3 = ty(IR_F64, 3, M, N, K);
  CHECK("transpose rank 3: 3!-1", prods(hlo, "transpose", &r3, NULL, out, NULL) == 5);
  ir_type r2 = ty(IR_F64, 2, M, N, 0);
  n = prods(hlo, "transpose", &r2, NULL, out, NULL);
  ir_type nm = ty(IR_F64, 2, N, M, 0);
  CHECK("transpose rank 2: one, [n,m]", n == 1 && ir_type_equal(&out[0].result, &nm));
  ir_type r1 = ty(IR_F64, 1, M, 0, 0);
  CHECK("transpose rank 1 is below the rank limit", prods(hlo, "transpose", &r1, NULL, out, NULL) == 0);

  /* reduce: non-empty subsets of 3 dims (2^3-1 = 7) x 4 bodies = 28 */
  ir_type red[2] = {r3, ty(IR_F64, 0, 0, 0, 0)};
  n = prods(hlo, "reduce", red, NULL, out, NULL);
  CHECKF(n == 28, "reduce rank 3: 7 subsets x 4 bodies, got %d", n);
  int found = 0;
  for (int i = 0; i < n && i < 256; i++) {
    gram_attrs_str(out[i].op, out[i].attrs, buf, sizeof buf);
    if (!strcmp(buf, "dims=(0,2) body=max")) {
      ir_type want = ty(IR_F64, 1, N, 0, 0);
      found = ir_type_equal(&out[i].result, &want);
    }
  }
  CHECK("reduce dims (0,2) keeps [n]", found);
  /* tosa.reduce_sum keeps the dim with size 1: rank 3 gives 3 */
  ir_type t3 = r3;
  t3.elem = IR_F32;
  n = prods(tosa, "reduce_sum", &t3, NULL, out, NULL);
  ir_type keep = ty(IR_F32, 3, M, IR_DIM_ONE, K);
  CHECK("reduce_sum: one per axis", n == 3 && ir_type_equal(&out[1].result, &keep));

  /* dot_general over [m,k] x [k,n]: only (1,0) unifies; batch and contract
   * are each {} or {(1,0)} and disjoint: 3 productions */
  st = (gram_stats){0, 0};
  n = prods(hlo, "dot_general", mk, NULL, out, &st);
  CHECKF(n == 3, "dot_general [m,k]x[k,n]: 3 productions, got %d", n);
  int saw_mn = 0;
  for (int i = 0; i < n; i++) saw_mn |= ir_type_equal(&out[i].result, &mn);
  CHECK("dot_general finds the matmul", saw_mn);
  CHECK("dot_general rejects non-unifying pairs", st.rejected > 0);
  /* all dims the same symbol: partial matchings of K(2,2), each pair
   * coloured batch or contract: 1 + 4*2 + 2*4 = 17 */
  ir_type nn[2] = {ty(IR_F64, 2, N, N, 0), ty(IR_F64, 2, N, N, 0)};
  n = prods(hlo, "dot_general", nn, NULL, out, NULL);
  CHECKF(n == 17, "dot_general [n,n]x[n,n]: 17 productions, got %d", n);

  /* CHLO broadcasting */
  ir_type v_n = ty(IR_F64, 1, N, 0, 0), v_m = ty(IR_F64, 1, M, 0, 0),
          s0 = ty(IR_F64, 0, 0, 0, 0);
  ir_type b1[2] = {mn, v_n}, b2[2] = {mn, v_m}, b3[2] = {s0, mn};
  n = prods(hlo, "add", b1, NULL, out, NULL);
  CHECK("add [m,n] + [n] broadcasts", n == 1 && ir_type_equal(&out[0].result, &mn));
  CHECK("add [m,n] + [m] is rejected", prods(hlo, "add", b2, NULL, out, NULL) == 0);
  n = prods(hlo, "add", b3, NULL, out, NULL);
  CHECK("scalar + [m,n]", n == 1 && ir_type_equal(&out[0].result, &mn));
  /* tosa: equal ranks only, f32 only */
  ir_type f1[2] = {ty(IR_F32, 2, M, N, 0), ty(IR_F32, 2, IR_DIM_ONE, N, 0)};
  CHECK("tosa add [m,n] + [1,n]", prods(tosa, "add", f1, NULL, out, NULL) == 1);
  ir_type f2[2] = {ty(IR_F32, 2, M, N, 0), ty(IR_F32, 1, N, 0, 0)};
  CHECK("tosa add needs equal ranks", prods(tosa, "add", f2, NULL, out, NULL) == 0);
  CHECK("tosa rejects f64", prods(tosa, "add", b1, NULL, out, NULL) == 0);
  ir_type tm[2] = {ty(IR_F32, 2, M, K, 0), ty(IR_F32, 2, K, N, 0)};
  CHECK("tosa.matmul is rank 3", prods(tosa, "matmul", tm, NULL, out, NULL) == 0);

  /* compare: 6 directions, i1 result */
  ir_type c2[2] = {mn, mn};
  n = prods(hlo, "compare", c2, NULL, out, NULL);
  CHECK("compare: 6 directions", n == 6 && out[0].result.elem == IR_I1);
  ir_type sel[3] = {ty(IR_I1, 2, M, N, 0), mn, s0};
  n = prods(hlo, "select", sel, NULL, out, NULL);
  CHECK("select i1 pred", n == 1 && ir_type_equal(&out[0].result, &mn));
  sel[0].elem = IR_F64;
  CHECK("select rejects a non-i1 pred", prods(hlo, "select", sel, NULL, out, NULL) == 0);

  /* ops that create shapes take a proposed target */
  CHECK("broadcast_in_dim needs a target", prods(hlo, "broadcast_in_dim", &v_n, NULL, out, NULL) == 0);
  n = prods(hlo, "broadcast_in_dim", &v_n, &mn, out, NULL);
  CHECK("broadcast [n] into [m,n]: dims (1)", n == 1 && out[0].attrs[0].v[0] == 1);
  ir_type one = ty(IR_F64, 1, IR_DIM_ONE, 0, 0);
  CHECK("broadcast [1] into [m,n]: 2 maps", prods(hlo, "broadcast_in_dim", &one, &mn, out, NULL) == 2);
  n = prods(lin, "broadcast", &v_n, &mn, out, NULL);
  CHECK("linalg.broadcast [n] -> [m,n]", n == 1);
  CHECK("linalg.broadcast is exact", prods(lin, "broadcast", &one, &mn, out, NULL) == 0);
  CHECK("iota: one per dim", prods(hlo, "iota", NULL, &mn, out, NULL) == 2);
  ir_type fmn = ty(IR_F32, 2, M, N, 0), fnm = ty(IR_F32, 2, N, M, 0), fmk = ty(IR_F32, 2, M, K, 0);
  CHECK("reshape keeps the element count", prods(tosa, "reshape", &fmn, &fnm, out, NULL) == 1);
  CHECK("reshape rejects another count", prods(tosa, "reshape", &fmn, &fmk, out, NULL) == 0);
  /* enum-valued kernels */
  ir_type two[2] = {mn, mn};
  n = prods(lin, "map", two, NULL, out, NULL);
  CHECK("linalg.map: 6 bodies", n == 6);
  CHECK("kernel from the enum", n == 6 && !strcmp(gram_prod_kernel(out[2].op, out[2].attrs), "mul"));
}

static void test_tprog(ir_arena *a) {
  gram_dialect *hlo = gram_load("hlo", a);
  if (!hlo) return;
  ir_tp_store s;
  ir_tp_store_init(&s, a);
  ir_type mk = ty(IR_F64, 2, M, K, 0), kn = ty(IR_F64, 2, K, N, 0), mn = ty(IR_F64, 2, M, N, 0),
          s0 = ty(IR_F64, 0, 0, 0, 0);
  const ir_tnode *A = ir_tp_arg(&s, 0, "A", &mk), *Bn = ir_tp_arg(&s, 1, "B", &kn),
                 *C = ir_tp_arg(&s, 2, "C", &mn), *beta = ir_tp_arg(&s, 3, "beta", &s0);
  CHECK("args are unique", ir_tp_arg(&s, 0, "A", &mk) == A);
  const gram_op *dot = gram_find_op(hlo, "dot_general"), *mul = gram_find_op(hlo, "multiply"),
                *add = gram_find_op(hlo, "add");
  ir_attr at[IR_TP_MAX_ATTRS] = {{0, {0}}, {2, {1, 0}}};
  const ir_tnode *ops[2] = {A, Bn};
  const ir_tnode *d1 = ir_tp_op(&s, &dot->desc, at, ops, 2, &mn);
  const ir_tnode *d2 = ir_tp_op(&s, &dot->desc, at, ops, 2, &mn);
  CHECK("hash-consing shares subterms", d1 == d2);
  const ir_tnode *o2[2] = {beta, C};
  const ir_tnode *bc = ir_tp_op(&s, &mul->desc, NULL, o2, 2, &mn);
  const ir_tnode *o3[2] = {bc, d1};
  const ir_tnode *sum = ir_tp_op(&s, &add->desc, NULL, o3, 2, &mn);
  char buf[256];
  ir_tp_str(sum, NULL, buf, sizeof buf);
  CHECKF(!strcmp(buf, "add(multiply(beta, C), dot_general[batch=(), contract=(1,0)](A, B))"),
         "printed term: %s", buf);
  CHECK("term size counts ops", sum->size == 3);
  at[1].v[0] = 0;
  CHECK("different attributes, different node", ir_tp_op(&s, &dot->desc, at, ops, 2, &mn) != d1);
  CHECK("constants are unique", ir_tp_const(&s, 0.5, &s0) == ir_tp_const(&s, 0.5, &s0));
  CHECK("-0 and 0 are one constant", ir_tp_const(&s, -0.0, &s0) == ir_tp_const(&s, 0.0, &s0));
  ir_mask m = {1, {{{1, -1, 0, 0}, {0, 0}, {0, 0}, 0, 0}}};
  ir_type b1 = ty(IR_I1, 2, N, N, 0);
  const ir_tnode *mk1 = ir_tp_mask(&s, &m, &b1);
  CHECK("masks are unique", ir_tp_mask(&s, &m, &b1) == mk1);
  ir_tp_str(mk1, NULL, buf, sizeof buf);
  CHECKF(!strcmp(buf, "mask[i0 - i1 >= 0]"), "printed mask: %s", buf);
  long idx[2] = {2, 1};
  CHECK("mask contains (2,1)", ir_mask_contains(&m, idx, NULL, NULL));
  idx[0] = 0;
  CHECK("mask excludes (0,1)", !ir_mask_contains(&m, idx, NULL, NULL));
  /* many nodes: the table grows and keeps them unique */
  const ir_tnode *first = NULL;
  for (int i = 0; i < 5000; i++) {
    const ir_tnode *c = ir_tp_const(&s, i, &s0);
    if (i == 1234) first = c;
  }
  CHECK("growth keeps nodes unique", ir_tp_const(&s, 1234, &s0) == first);
  const ir_tnode *topo[16];
  int nt = ir_tp_topo(&sum, 1, topo, 16);
  CHECK("topological order: 4 leaves + 3 ops", nt == 7 && topo[nt - 1] == sum);
  ir_tp_store_free(&s);
}

static void test_extra_dialect(ir_arena *a) {
  /* a dialect file under tests/ adds an op no shipped dialect has */
  gram_dialect *d = gram_load("tests/dialects/extra", a);
  CHECK("the test dialect loads", d != NULL);
  if (!d) return;
  const gram_op *op = gram_find_op(d, "absolute");
  CHECK("the new op is there", op != NULL);
  if (!op) return;
  ir_type x = ty(IR_F64, 2, M, N, 0);
  gram_prod out[4];
  int n = gram_productions(op, &x, NULL, out, 4, NULL);
  CHECK("the generator yields the new op", n == 1 && ir_type_equal(&out[0].result, &x));
  CHECK("it maps to its kernel", !strcmp(gram_prod_kernel(op, out[0].attrs), "abs"));
  /* and runs through the interpreter's kernel, with no C change */
  static const double in[] = {-1, 2, -3, 4, -5, 6};
  ir_tensor arg = {IR_F64, 2, {2, 3}, (double *)in, NULL}, res;
  memset(&res, 0, sizeof res);
  res.elem = IR_F64;
  res.rank = 2;
  res.dims[0] = 2;
  res.dims[1] = 3;
  ir_error err = {0};
  int rc = gram_prod_eval(op, out[0].attrs, &arg, &res, &err);
  CHECKF(rc == 0, "the new op runs: %s", err.msg);
  if (rc == 0) {
    int ok = 1;
    for (int i = 0; i < 6; i++) ok &= res.data[i] == (i % 2 ? in[i] : -in[i]);
    CHECK("the new op computes |x|", ok);
    ir_free(res.data);
    ir_free(res.poison);
  }
}

/* ------------------------------------ constants among a kernel's operands */

/* A constant in a `kernel NAME(x, 0)` list takes the type of the kernel's
 * data operands, not the result's (a compare's result is i1) nor the first
 * op operand's (a select's first operand is its i1 predicate).  The
 * enumerator once used the result's and the grammar the first operand's;
 * both went through gram_binding_args since.  The kernel's own type rule
 * (interp_op_type) accepts the bound operands only when the constant's
 * type is right, and every evaluator agrees on the values. */
static const char cst_dialect[] =
    "dialect cst\n"
    "summary constants among kernel operands\n"
    "form generic\n"
    "elem f64 f32\n"
    "constant $res = \"c.constant\"() {value = $value} : () -> $res.type\n"
    "op positive\n"
    "  operands a:[*s]\n"
    "  result i1[*s]\n"
    "  kernel compare(a, 0) direction=GT\n"
    "  emit $res = \"c.positive\"($a) : ($a.type) -> $res.type\n"
    "end\n"
    "op keep\n"
    "  operands p:i1[*s] a:[*s]\n"
    "  result [*s]\n"
    "  kernel select(p, a, 0)\n"
    "  emit $res = \"c.keep\"($p, $a) : ($p.type, $a.type) -> $res.type\n"
    "end\n";

static void const_operand_case(ir_arena *a, const gram_dialect *d, const char *name, const ir_type *types,
                               const double *const *ins, const double *want) {
  const gram_op *op = gram_find_op(d, name);
  gram_prod ps[4];
  int n = op ? gram_productions(op, types, NULL, ps, 4, NULL) : 0;
  CHECKF(n == 1, "cst.%s: one production", name);
  if (n != 1) return;
  gram_binding b;
  ir_error err = {0};
  CHECKF(gram_bind(op, ps[0].attrs, &b, &err) == 0, "cst.%s binds: %s", name, err.msg);
  ir_tensor ops[2], kargs[INTERP_MAX_ARGS], out;
  double kc[INTERP_MAX_ARGS];
  for (int i = 0; i < op->nops; i++) {
    memset(&ops[i], 0, sizeof ops[i]);
    ops[i].elem = types[i].elem;
    ops[i].rank = 1;
    ops[i].dims[0] = 3;
    ops[i].data = (double *)ins[i];
  }
  gram_binding_args(&b, ops, op->nops, ps[0].result.elem, kargs, kc);
  ir_type kt[INTERP_MAX_ARGS], rt = ps[0].result;
  for (int i = 0; i < b.nargs; i++)
    kt[i] = b.args[i] >= 0 ? types[b.args[i]] : ty(kargs[i].elem, 0, 0, 0, 0);
  interp_err ierr;
  CHECKF(interp_op_type(b.kernel, b.attrs, kt, &rt, &ierr) == 0,
         "cst.%s: the constant operand has the data operands' type (%s)", name, ierr.msg);
  CHECKF(kargs[b.nargs - 1].elem == IR_F64, "cst.%s: the constant is f64", name);
  /* the grammar's evaluator and the enumerator's agree */
  memset(&out, 0, sizeof out);
  out.elem = ps[0].result.elem;
  out.rank = 1;
  out.dims[0] = 3;
  int rc = gram_prod_eval(op, ps[0].attrs, ops, &out, &err);
  CHECKF(rc == 0, "cst.%s runs: %s", name, err.msg);
  if (rc) return;
  int ok = out.poison == NULL;
  for (int i = 0; ok && i < 3; i++) ok = out.data[i] == want[i];
  CHECKF(ok, "cst.%s: values", name);
  ir_free(out.data);
  ir_free(out.poison);
  ir_tp_store st;
  ir_tp_store_init(&st, a);
  const ir_tnode *leaf[2];
  for (int i = 0; i < op->nops; i++) leaf[i] = ir_tp_arg(&st, i, i ? "a" : "x", &types[i]);
  const ir_tnode *node = ir_tp_op(&st, &op->desc, ps[0].attrs, leaf, op->nops, &ps[0].result);
  long sizes[1] = {3};
  ir_tensor got;
  interp_err e2;
  rc = enum_eval_node(node, ops, op->nops, sizes, &got, &e2);
  CHECKF(rc == 0, "cst.%s: the enumerator's evaluator runs: %s", name, e2.msg);
  if (rc == 0) {
    ok = 1;
    for (int i = 0; ok && i < 3; i++) ok = got.data[i] == want[i];
    CHECKF(ok, "cst.%s: the enumerator's evaluator agrees", name);
    interp_tensor_free(&got);
  }
  ir_tp_store_free(&st);
}

static void test_const_operands(ir_arena *a) {
  gram_dialect *d = gram_parse("cst", cst_dialect, a);
  CHECK("the constant-operand dialect parses", d != NULL);
  if (!d) return;
  static const double x[] = {-1, 0, 2}, p[] = {1, 0, 1}, y[] = {5, 6, 7};
  ir_type v = ty(IR_F64, 1, 0, 0, 0), pv = ty(IR_I1, 1, 0, 0, 0);
  {
    ir_type t[1] = {v};
    const double *in[1] = {x};
    static const double w[] = {0, 0, 1};
    const_operand_case(a, d, "positive", t, in, w);
  }
  {
    ir_type t[2] = {pv, v};
    const double *in[2] = {p, y};
    static const double w[] = {5, 0, 7};
    const_operand_case(a, d, "keep", t, in, w);
  }
}

/* ------------------------------------------- hlo kernels, hand-computed */

static const long csize[3] = {2, 3, 4}; /* M, N, K at run time */

/* Run the production of hlo op `name` whose attributes print as `attrs`
 * on inputs ins (rank/dims from types) and compare with want. */
static void hand_case(const gram_dialect *d, const char *name, const char *attrs,
                      const ir_type *types, const ir_type *target,
                      const double *const *ins, const double *want, int nwant) {
  const gram_op *op = gram_find_op(d, name);
  gram_prod ps[64];
  int n = op ? gram_productions(op, types, target, ps, 64, NULL) : 0;
  int pick = -1;
  char buf[128];
  for (int i = 0; i < n && i < 64; i++)
    if (!strcmp(gram_attrs_str(op, ps[i].attrs, buf, sizeof buf), attrs)) pick = i;
  CHECKF(pick >= 0, "hlo.%s: a production with [%s]", name, attrs);
  if (pick < 0) return;
  ir_tensor args[3], out;
  for (int i = 0; i < op->nops; i++) {
    memset(&args[i], 0, sizeof args[i]);
    args[i].elem = types[i].elem;
    args[i].rank = types[i].rank;
    for (int k = 0; k < types[i].rank; k++)
      args[i].dims[k] = types[i].dims[k] == IR_DIM_ONE ? 1 : csize[types[i].dims[k]];
    args[i].data = (double *)ins[i];
  }
  memset(&out, 0, sizeof out);
  out.elem = ps[pick].result.elem;
  out.rank = ps[pick].result.rank;
  for (int k = 0; k < out.rank; k++)
    out.dims[k] = ps[pick].result.dims[k] == IR_DIM_ONE ? 1 : csize[ps[pick].result.dims[k]];
  ir_error err = {0};
  int rc = gram_prod_eval(op, ps[pick].attrs, args, &out, &err);
  CHECKF(rc == 0, "hlo.%s [%s] runs: %s", name, attrs, err.msg);
  if (rc) return;
  int ok = (int)ir_tensor_size(&out) == nwant && out.poison == NULL;
  for (int i = 0; ok && i < nwant; i++) ok = out.data[i] == want[i];
  CHECKF(ok, "hlo.%s [%s]: hand-computed values", name, attrs);
  ir_free(out.data);
  ir_free(out.poison);
}

static void test_hlo_kernels(ir_arena *a) {
  gram_dialect *d = gram_load("hlo", a);
  if (!d) return;
  ir_type mn = ty(IR_F64, 2, M, N, 0), nm = ty(IR_F64, 2, N, M, 0), vn = ty(IR_F64, 1, N, 0, 0),
          vm = ty(IR_F64, 1, M, 0, 0), s0 = ty(IR_F64, 0, 0, 0, 0), pm = ty(IR_I1, 1, M, 0, 0);
  static const double a6[] = {1, 2, 3, 4, 5, 6}, b3[] = {10, 20, 30};
  {
    ir_type t[2] = {mn, vn};
    const double *in[2] = {a6, b3};
    static const double w[] = {11, 22, 33, 14, 25, 36};
    hand_case(d, "add", "", t, NULL, in, w, 6);
  }
  {
    ir_type t[2] = {vm, s0};
    static const double x[] = {5, 7}, y[] = {2};
    const double *in[2] = {x, y};
    static const double w[] = {3, 5};
    hand_case(d, "subtract", "", t, NULL, in, w, 2);
  }
  {
    ir_type t[2] = {vm, vm};
    static const double x[] = {6, 8}, y[] = {2, 4}, p[] = {1, -2}, q[] = {0, 3};
    const double *in[2] = {x, y}, *in2[2] = {p, q};
    static const double wd[] = {3, 2}, wm[] = {12, 32}, wmax[] = {1, 3}, wmin[] = {0, -2};
    hand_case(d, "divide", "", t, NULL, in, wd, 2);
    hand_case(d, "multiply", "", t, NULL, in, wm, 2);
    hand_case(d, "maximum", "", t, NULL, in2, wmax, 2);
    hand_case(d, "minimum", "", t, NULL, in2, wmin, 2);
  }
  {
    static const double x[] = {4, 9}, xn[] = {1, -2}, z[] = {0, 0};
    const double *in[1] = {x}, *inn[1] = {xn}, *inz[1] = {z};
    static const double ws[] = {2, 3}, wn[] = {-1, 2}, we[] = {1, 1};
    hand_case(d, "sqrt", "", &vm, NULL, in, ws, 2);
    hand_case(d, "negate", "", &vm, NULL, inn, wn, 2);
    hand_case(d, "exp", "", &vm, NULL, inz, we, 2);
  }
  {
    ir_type t[2] = {mn, nm};
    static const double b[] = {1, 0, 0, 1, 1, 1};
    const double *in[2] = {a6, b};
    static const double w[] = {4, 5, 10, 11};
    hand_case(d, "dot_general", "batch=() contract=(1,0)", t, NULL, in, w, 4);
  }
  {
    const double *in[1] = {a6};
    static const double w[] = {1, 4, 2, 5, 3, 6};
    hand_case(d, "transpose", "perm=(1,0)", &mn, NULL, in, w, 6);
  }
  {
    ir_type t[2] = {mn, s0};
    static const double lo[] = {-100}, zero[] = {0};
    const double *in[2] = {a6, lo}, *in0[2] = {a6, zero};
    static const double wmax[] = {3, 6}, wadd[] = {5, 7, 9};
    hand_case(d, "reduce", "dims=(1) body=max", t, NULL, in, wmax, 2);
    hand_case(d, "reduce", "dims=(0) body=add", t, NULL, in0, wadd, 3);
  }
  {
    ir_type t[2] = {vm, vm};
    static const double x[] = {1, 5}, y[] = {3, 5};
    const double *in[2] = {x, y};
    static const double w[] = {0, 1};
    hand_case(d, "compare", "dir=GE", t, NULL, in, w, 2);
  }
  {
    ir_type t[3] = {pm, vm, vm};
    static const double p[] = {1, 0}, x[] = {1, 2}, y[] = {9, 9};
    const double *in[3] = {p, x, y};
    static const double w[] = {1, 9};
    hand_case(d, "select", "", t, NULL, in, w, 2);
  }
  {
    static const double w[] = {0, 1, 2, 0, 1, 2};
    hand_case(d, "iota", "dim=(1)", NULL, &mn, NULL, w, 6);
  }
  {
    const double *in[1] = {b3};
    static const double w[] = {10, 20, 30, 10, 20, 30};
    hand_case(d, "broadcast_in_dim", "dims=(1)", &vn, &mn, in, w, 6);
  }
}

/* ------------------------------------- many productions (term syntax) */

/* A generated dialect whose one op has 4 enum attributes of 10 values:
 * 10^4 productions per operand type.  The term syntax must find the last
 * one (v9 v9 v9 v9); a fixed production table (it once held 4096) would
 * drop it and refuse the term. */
static void test_many_productions(ir_arena *a) {
  enum { NATTR = 4, NVAL = 10 };
  ir_buf text = {0};
  ir_buf_puts(&text, "dialect many\nsummary one op with many productions\nform generic\n"
                     "elem f64 f32\n"
                     "constant $res = \"m.constant\"() {value = $value} : () -> $res.type\n"
                     "op wide\n  operands x:[*s]\n");
  for (int i = 0; i < NATTR; i++) {
    ir_buf_printf(&text, "  attr k%d: enum(", i);
    for (int v = 0; v < NVAL; v++) ir_buf_printf(&text, "%sv%d", v ? ", " : "", v);
    ir_buf_puts(&text, ")\n");
  }
  ir_buf_puts(&text, "  result [*s]\n  kernel neg\n"
                     "  emit $res = \"m.wide\"($x) : ($x.type) -> $res.type\nend\n");
  gram_dialect *d = gram_parse("many", ir_buf_str(&text), a);
  ir_buf_free(&text);
  CHECK("the many-production dialect parses", d != NULL);
  if (!d) return;
  const gram_op *op = gram_find_op(d, "wide");
  ir_type v = ty(IR_F64, 1, 0, 0, 0);
  int n = gram_productions(op, &v, NULL, NULL, 0, NULL);
  CHECKF(n == 10000, "10^4 productions of wide (got %d)", n);
  gram_prod *ps = ir_malloc(sizeof *ps * (size_t)(n > 0 ? n : 1));
  n = gram_productions(op, &v, NULL, ps, n, NULL);
  char want[64];
  snprintf(want, sizeof want, "k0=v%d k1=v%d k2=v%d k3=v%d", NVAL - 1, NVAL - 1, NVAL - 1,
           NVAL - 1);
  int last = -1;
  char buf[128];
  for (int i = 0; i < n; i++)
    if (!strcmp(gram_attrs_str(op, ps[i].attrs, buf, sizeof buf), want)) last = i;
  CHECKF(last >= 4096, "the production [%s] is past the old table's end (index %d)", want,
         last);
  if (last >= 0) {
    ir_tp_store st;
    ir_tp_store_init(&st, a);
    const ir_tnode *x = ir_tp_arg(&st, 0, "x", &v);
    const ir_tnode *node = ir_tp_op(&st, &op->desc, ps[last].attrs, &x, 1, &ps[last].result);
    char term[256];
    ir_tp_str(node, NULL, term, sizeof term);
    ir_tp_syntax syn;
    gram_term_syntax(d, &syn);
    ir_error err = {0};
    const ir_tnode *back = ir_tp_parse(&st, term, NULL, &x, 1, &syn, &err);
    CHECKF(back == node, "parse(print(p)) is p for the last production: %s [%s]", term,
           back ? "another node" : err.msg);
    ir_tp_store_free(&st);
  }
  ir_free(ps);
}

/* A window attribute (the slice ops): never enumerated, its value given
 * by the caller and checked against the operand and the result (a
 * printed slice is read back by `uplift verify`: tests/e2e_kernels.sh). */
static void test_window(ir_arena *a) {
  const char *names[] = {"hlo", "linalg", "tosa"};
  for (int i = 0; i < 3; i++) {
    gram_dialect *d = gram_load(names[i], a);
    const gram_op *op = d ? gram_find_op(d, "slice") : NULL;
    CHECKF(op && gram_op_has_window(op) && !strcmp(op->kernel, "slice"),
           "%s has a slice op with a window attribute", names[i]);
    if (!op) continue;
    ir_type x = ty(IR_F32, 2, M, N, 0), r1 = ty(IR_F32, 1, M, 0, 0), r2 = x;
    gram_prod p[4];
    CHECKF(gram_productions(op, &x, &r1, p, 4, NULL) == 0,
           "%s: the search gets no slice production", names[i]);
    ir_attr given[IR_TP_MAX_ATTRS] = {{4, {0, 1, 2, 0}}}; /* x[i][2] */
    int n = gram_productions_given(op, &x, given, &r1, p, 4, NULL);
    CHECKF(n == 1 && ir_type_equal(&p[0].result, &r1), "%s: column 2 of [m,n] is an [m]",
           names[i]);
    CHECKF(gram_productions_given(op, &x, given, &r2, p, 4, NULL) == 0,
           "%s: one kept dim is not a rank-2 result", names[i]);
    ir_attr shift[IR_TP_MAX_ATTRS] = {{4, {-1, 1, 1, 1}}}; /* x[i-1][j+1] */
    n = gram_productions_given(op, &x, shift, &r2, p, 4, NULL);
    CHECKF(n == 1 && ir_type_equal(&p[0].result, &r2), "%s: x[i-1][j+1] over [m,n]",
           names[i]);
    ir_attr last[IR_TP_MAX_ATTRS] = {{4, {0, 1, -1, 2}}}; /* x[i][n - 1] */
    CHECKF(gram_productions_given(op, &x, last, &r1, p, 4, NULL) == 1,
           "%s: the last column (keep 2) of [m,n] is an [m]", names[i]);
    ir_attr keep3[IR_TP_MAX_ATTRS] = {{4, {0, 3, 0, 1}}};
    CHECKF(gram_productions_given(op, &x, keep3, &r1, p, 4, NULL) == 0,
           "%s: a keep that is not 0, 1 or 2 is refused", names[i]);
  }
}

/* ---- pad (issue 14) ----
 * A shift attribute (the pad ops): enumerated, one dim that is not 1 moved
 * by one either way, as edge padding (low, high) = (1, -1) or (-1, 1),
 * the result x's type; a kernel binding's .lhs/.rhs are the lows and
 * highs, which the pad kernel runs. */
static void test_shift(ir_arena *a) {
  const char *names[] = {"hlo", "linalg", "tosa"};
  for (int i = 0; i < 3; i++) {
    gram_dialect *d = gram_load(names[i], a);
    const gram_op *op = d ? gram_find_op(d, "pad") : NULL;
    CHECKF(op && op->nattrs == 1 && op->attrs[0].dom == GRAM_DOM_SHIFT &&
               !strcmp(op->kernel, "pad") && !gram_op_has_window(op),
           "%s has a pad op with a shift attribute, enumerated", names[i]);
    if (!op) continue;
    ir_type ops[1] = {ty(IR_F32, 2, M, N, 0)};
    gram_prod p[8];
    int n = gram_productions(op, ops, NULL, p, 8, NULL);
    int ok = n == 4;
    static const int8_t want[4][4] = {{1, -1, 0, 0}, {-1, 1, 0, 0}, {0, 0, 1, -1}, {0, 0, -1, 1}};
    for (int k = 0; ok && k < 4; k++) {
      ok = ir_type_equal(&p[k].result, &ops[0]) && p[k].attrs[0].n == 4;
      for (int j = 0; ok && j < 4; j++) ok = p[k].attrs[0].v[j] == want[k][j];
    }
    CHECKF(ok, "%s: pad of [m,n] is a unit shift of either dim, either way (%d)", names[i],
           n);
    ops[0] = ty(IR_F32, 2, IR_DIM_ONE, N, 0);
    CHECKF(gram_productions(op, ops, NULL, p, 8, NULL) == 2,
           "%s: a dim 1 is not shifted (all padding)", names[i]);
    ops[0] = ty(IR_F32, 0, 0, 0, 0);
    CHECKF(gram_productions(op, ops, NULL, p, 8, NULL) == 0, "%s: a scalar has no shift",
           names[i]);
    /* the production runs: x[i + 1] of [3], 0 past the end */
    ops[0] = ty(IR_F32, 1, M, 0, 0);
    n = gram_productions(op, ops, NULL, p, 8, NULL);
    ir_tensor args[1] = {{IR_F32, 1, {3}, (double[]){1, 2, 3}, NULL}};
    ir_tensor out = {IR_F32, 1, {3}, NULL, NULL};
    int ran = n == 2 && p[1].attrs[0].v[0] == -1 &&
              gram_prod_eval(op, p[1].attrs, args, &out, NULL) == 0;
    CHECKF(ran && out.data[0] == 2 && out.data[1] == 3 && out.data[2] == 0,
           "%s: pad (-1, 1) reads x[i + 1], 0 past the end", names[i]);
    if (ran) ir_free(out.data), ir_free(out.poison);
  }
  static const char bad[] = "dialect u\nelem f64\nconstant $res = $value\n"
                            "op m\n operands a:[*s]\n attr f : enum(x)\n result [*s]\n"
                            " kernel pad(a, 0) low=@f.lhs high=@f.rhs\n emit $res = m $a\nend\n";
  fprintf(stderr, "(an error is expected here)\n");
  CHECK(".lhs of an enum attribute is refused", gram_parse("u", bad, a) == NULL);
}
/* ---- end pad ---- */

/* Template lines: the indentation after `emit`, and `emit.unit` (only in
 * an op of kernel reduce). */
static void test_templates(ir_arena *a) {
  gram_dialect *lin = gram_load("linalg", a);
  const gram_op *red = lin ? gram_find_op(lin, "reduce") : NULL;
  CHECK("linalg reduce has emit.unit lines", red && red->nemit_u > 0);
  if (!red) return;
  int deep = 0, flat = 1;
  for (int i = 0; i < red->nemit; i++) {
    if (strstr(red->emit[i].text, "linalg.yield")) deep = red->emit[i].indent == 4;
    if (strstr(red->emit[i].text, "linalg.reduce")) flat = red->emit[i].indent == 0;
  }
  CHECK("a region body's emit line keeps its indentation", deep && flat);
  static const char bad[] = "dialect u\nelem f64\nconstant $res = $value\n"
                            "op neg\n  operands x:[*s]\n  result [*s]\n  kernel neg\n"
                            "  emit $res = neg $x\n  emit.unit $res = neg $x\nend\n";
  fprintf(stderr, "(an error is expected here)\n");
  CHECK("emit.unit outside a reduce op is refused", gram_parse("u", bad, a) == NULL);
  static const char bars[] = "dialect u\nelem f64 i32\nconstant $res = $value\n"
                             "op m\n operands a:[*s] b:[*s]\n"
                             " attr fun : enum(add=arith.addf|arith.addi|x|y)\n result [*s]\n"
                             " kernel @fun\n emit $res = $fun $a, $b\nend\n";
  CHECK("a spelling with three '|' is refused", gram_parse("u", bars, a) == NULL);
  /* FLOAT|SIGNED|UNSIGNED: the third spelling is the unsigned types' */
  static const char three[] = "dialect u\nelem f64 i32 ui8\nconstant $res = $value\n"
                              "op m\n operands a:[*s] b:[*s]\n"
                              " attr fun : enum(max=arith.maxf|arith.maxsi|arith.maxui, "
                              "add=arith.addf|arith.addi, abs=math.absf|math.absi|-)\n"
                              " result [*s]\n kernel @fun\n emit $res = $fun $a, $b\nend\n";
  gram_dialect *d3 = gram_parse("u", three, a);
  const gram_attr *fa = d3 ? &d3->ops[0]->attrs[0] : NULL;
  CHECK("unsigned spellings: maxui for ui8, maxsi for i32, addi for both, no absi for ui8",
        fa && !strcmp(gram_attr_spelling(fa, 0, IR_U8), "arith.maxui") &&
            !strcmp(gram_attr_spelling(fa, 0, IR_I32), "arith.maxsi") &&
            !strcmp(gram_attr_spelling(fa, 1, IR_U8), "arith.addi") &&
            !strcmp(gram_attr_spelling(fa, 1, IR_I32), "arith.addi") &&
            gram_attr_spelling(fa, 2, IR_U8) == NULL &&
            !strcmp(gram_attr_spelling(fa, 2, IR_I32), "math.absi"));
}

int main(void) {
  ir_arena a;
  ir_arena_init(&a);
  test_parse(&a);
  test_generator(&a);
  test_tprog(&a);
  test_extra_dialect(&a);
  test_hlo_kernels(&a);
  test_const_operands(&a);
  test_many_productions(&a);
  test_templates(&a);
  test_window(&a);
  test_shift(&a);
  ir_arena_free(&a);
  CHECK("no leaks", ir_mem_live() == 0);
  return TEST_REPORT();
}
