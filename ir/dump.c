/*
 * dump.c - the loop program in readable C-like form (uplift dump).
 *
 * ir_expr_print writes an expression with the fewest parentheses C's
 * precedence allows; ir_kernel_dump writes the signature with array shapes,
 * the local declarations, and the statements: loops as
 * `for (i = lo; i <= hi; i++)` (or `for (i = hi; i >= lo; i--)` downward,
 * bounds inclusive as in the IR), assignments numbered `S<id>:`.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* Precedence levels, loosest first. */
enum { P_SELECT = 1, P_OR, P_AND, P_EQ, P_REL, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

static int prec(const ir_expr *e) {
  switch (e->kind) {
  case IR_EX_SELECT: return P_SELECT;
  case IR_EX_OR: return P_OR;
  case IR_EX_AND: return P_AND;
  case IR_EX_EQ: case IR_EX_NE: return P_EQ;
  case IR_EX_LT: case IR_EX_LE: case IR_EX_GT: case IR_EX_GE: return P_REL;
  case IR_EX_SHL: case IR_EX_SHR: return P_SHIFT;
  case IR_EX_ADD: case IR_EX_SUB: return P_ADD;
  case IR_EX_MUL: case IR_EX_DIV: return P_MUL;
  case IR_EX_NEG: case IR_EX_NOT: case IR_EX_CAST: return P_UNARY;
  case IR_EX_CONST: return e->value < 0 ? P_UNARY : P_PRIMARY;
  default: return P_PRIMARY;
  }
}

static const char *binop(ir_expr_kind k) {
  switch (k) {
  case IR_EX_ADD: return "+";
  case IR_EX_SUB: return "-";
  case IR_EX_MUL: return "*";
  case IR_EX_DIV: return "/";
  case IR_EX_LT: return "<";
  case IR_EX_LE: return "<=";
  case IR_EX_GT: return ">";
  case IR_EX_GE: return ">=";
  case IR_EX_EQ: return "==";
  case IR_EX_NE: return "!=";
  case IR_EX_AND: return "&&";
  case IR_EX_OR: return "||";
  case IR_EX_SHL: return "<<";
  case IR_EX_SHR: return ">>";
  default: return "?";
  }
}

static void print_var_name(const ir_kernel *k, int var, FILE *out) {
  if (k && var >= 0 && var < k->nvars)
    fputs(k->vars[var]->name, out);
  else
    fprintf(out, "v%d", var);
}

/* The shortest decimal that reads back as v, with a '.' or exponent. */
static void print_double(double v, FILE *out) {
  char buf[64];
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (strtod(buf, NULL) == v) break;
  }
  fputs(buf, out);
  if (!strpbrk(buf, ".eEna")) fputs(".0", out);
}

/* How ir_expr_print_c writes the reads of variables (NULL: as written). */
typedef struct print_hook {
  ir_var_print_fn var;
  void *user;
} print_hook;

static void print(const ir_kernel *k, const ir_expr *e, int min, const print_hook *h, FILE *out) {
  int pr = prec(e);
  int paren = pr < min;
  if (paren) fputc('(', out);
  if (h && h->var && (e->kind == IR_EX_VAR || e->kind == IR_EX_ELEM) &&
      h->var(k, e, h->user, out)) {
    if (paren) fputc(')', out);
    return;
  }
  if (h && (e->kind == IR_EX_IMIN || e->kind == IR_EX_IMAX)) { /* C has no min, max */
    fputs("((", out);
    print(k, e->args[0], P_SELECT, h, out);
    fputs(e->kind == IR_EX_IMIN ? ") < (" : ") > (", out);
    print(k, e->args[1], P_SELECT, h, out);
    fputs(") ? (", out);
    print(k, e->args[0], P_SELECT, h, out);
    fputs(") : (", out);
    print(k, e->args[1], P_SELECT, h, out);
    fputs("))", out);
    if (paren) fputc(')', out);
    return;
  }
  switch (e->kind) {
  case IR_EX_CONST:
    if (e->is_int)
      fprintf(out, "%.0f", e->value);
    else {
      print_double(e->value, out);
      if (e->type == IR_F32) fputc('f', out);
    }
    break;
  case IR_EX_VAR: print_var_name(k, e->var, out); break;
  case IR_EX_ELEM:
    print_var_name(k, e->var, out);
    for (int i = 0; i < e->nargs; i++) {
      fputc('[', out);
      print(k, e->args[i], P_SELECT, h, out);
      fputc(']', out);
    }
    break;
  case IR_EX_NEG:
  case IR_EX_NOT: {
    const ir_expr *a = e->args[0];
    fputc(e->kind == IR_EX_NEG ? '-' : '!', out);
    int inner = (a->kind == IR_EX_NEG || (a->kind == IR_EX_CONST && a->value < 0))
                    ? P_PRIMARY : P_UNARY;
    print(k, a, inner, h, out);
    break;
  }
  case IR_EX_CAST:
    fprintf(out, "(%s)", ir_elem_c_name(e->type));
    print(k, e->args[0], P_UNARY, h, out);
    break;
  case IR_EX_SELECT:
    print(k, e->args[0], P_OR, h, out);
    fputs(" ? ", out);
    print(k, e->args[1], P_SELECT, h, out);
    fputs(" : ", out);
    print(k, e->args[2], P_SELECT, h, out);
    break;
  case IR_EX_CALL:
  case IR_EX_IMIN:
  case IR_EX_IMAX:
    if (e->kind == IR_EX_CALL)
      fprintf(out, "%s%s(", ir_fn_name(e->fn), e->type == IR_F32 ? "f" : "");
    else
      fputs(e->kind == IR_EX_IMIN ? "min(" : "max(", out);
    for (int i = 0; i < e->nargs; i++) {
      if (i) fputs(", ", out);
      print(k, e->args[i], P_SELECT, h, out);
    }
    fputc(')', out);
    break;
  default:
    print(k, e->args[0], pr, h, out);
    fprintf(out, " %s ", binop(e->kind));
    print(k, e->args[1], pr + 1, h, out);
    break;
  }
  if (paren) fputc(')', out);
}

void ir_expr_print(const ir_kernel *k, const ir_expr *e, FILE *out) {
  print(k, e, P_SELECT, NULL, out);
}

void ir_expr_print_c(const ir_kernel *k, const ir_expr *e, ir_var_print_fn var, void *user,
                     FILE *out) {
  print_hook h = {var, user};
  print(k, e, P_SELECT, &h, out);
}

/* Does e read a variable that is a parameter after position pos? */
static int reads_later_param(const ir_kernel *k, const ir_expr *e, int pos) {
  if (e->kind == IR_EX_VAR)
    for (int i = pos + 1; i < k->nparams; i++)
      if (k->params[i] == e->var) return 1;
  for (int a = 0; a < e->nargs; a++)
    if (reads_later_param(k, e->args[a], pos)) return 1;
  return 0;
}

/* [d0][d1]...: the declared extents (a view's storage) */
static void print_extents(const ir_kernel *k, const ir_var *v, FILE *out) {
  for (int d = 0; d < v->rank; d++) {
    fputc('[', out);
    ir_expr_print(k, ir_var_is_view(v) ? v->store[d] : v->dims[d], out);
    fputc(']', out);
  }
}

static void print_decl(const ir_kernel *k, const ir_var *v, FILE *out) {
  fprintf(out, "%s %s", ir_elem_c_name(v->elem), v->name);
  print_extents(k, v, out);
}

void ir_param_print(const ir_kernel *k, int i, FILE *out) {
  const ir_var *v = k->vars[k->params[i]];
  int late = 0;
  for (int d = 0; d < v->rank && !late; d++)
    late = reads_later_param(k, ir_var_is_view(v) ? v->store[d] : v->dims[d], i);
  if (!late) {
    print_decl(k, v, out);
    return;
  }
  fprintf(out, "%s *%s /* ", ir_elem_c_name(v->elem), v->name);
  print_extents(k, v, out);
  fputs(" */", out);
}

void ir_assume_print(const ir_kernel *k, const ir_assume *a, FILE *out) {
  ir_expr_print(k, a->lo, out);
  fputs(" <= ", out);
  ir_expr_print(k, a->hi, out);
}

void ir_kernel_print_views(const ir_kernel *k, const char *prefix, FILE *out) {
  for (int i = 0; i < k->nvars; i++) {
    const ir_var *v = k->vars[i];
    if (!ir_var_is_view(v)) continue;
    char buf[512];
    FILE *m = fmemopen(buf, sizeof buf, "w");
    if (!m) continue;
    for (int d = 0; d < v->rank; d++) {
      fputc('[', m);
      ir_expr_print(k, v->dims[d], m);
      fputc(']', m);
    }
    fclose(m);
    if (v->padded) { /* the region is past the storage */
      fprintf(out, "%s%s: %s", prefix, v->name, v->name);
      print_extents(k, v, out);
      fprintf(out, " padded to %s (the kernel never accesses the elements past its "
              "storage)\n", buf);
      continue;
    }
    fprintf(out, "%s%s: the region %s of %s", prefix, v->name, buf, v->name);
    print_extents(k, v, out);
    fputc('\n', out);
  }
  for (int i = 0; i < k->nassumes; i++) {
    if (k->assumes[i].kept) continue; /* holds by construction */
    fprintf(out, "%sassumes ", prefix);
    ir_assume_print(k, &k->assumes[i], out);
    fputc('\n', out);
  }
  ir_kernel_print_overlaps(k, prefix, out);
}

void ir_kernel_print_overlaps(const ir_kernel *k, const char *prefix, FILE *out) {
  for (int i = 0; i < k->nparams; i++) {
    int w = k->params[i], n = 0;
    if (!ir_kernel_writes(k, w)) continue;
    for (int j = 0; j < k->nparams; j++) {
      int o = k->params[j];
      /* a pair of written arrays is named at the first of them */
      if (!ir_kernel_no_overlap(k, w, o) || (j < i && ir_kernel_writes(k, o))) continue;
      if (!n++) fprintf(out, "%sassumes %s overlaps none of ", prefix, k->vars[w]->name);
      else fputs(", ", out);
      fputs(k->vars[o]->name, out);
    }
    if (n) fputs(" in memory (none is restrict)\n", out);
  }
}

void ir_signature_print(const ir_kernel *k, FILE *out) { ir_signature_print_with(k, NULL, 0, out); }

void ir_signature_print_with(const ir_kernel *k, const char *const *extra, int nextra, FILE *out) {
  const ir_var *ret = k->returns ? k->vars[k->params[k->nparams - 1]] : NULL;
  fprintf(out, "%s %s(", ret ? ir_elem_c_name(ret->elem) : "void", k->name);
  int n = ir_kernel_nargs(k);
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", out);
    ir_param_print(k, i, out);
  }
  for (int i = 0; i < nextra; i++) fprintf(out, "%s%s", n + i ? ", " : "", extra[i]);
  if (!n && !nextra) fputs("void", out);
  fputc(')', out);
}

static void indent(int depth, FILE *out) {
  for (int i = 0; i < depth; i++) fputs("  ", out);
}

static const char *assign_op(ir_assign_op op) {
  switch (op) {
  case IR_ASSIGN: return "=";
  case IR_ASSIGN_ADD: return "+=";
  case IR_ASSIGN_SUB: return "-=";
  case IR_ASSIGN_MUL: return "*=";
  case IR_ASSIGN_DIV: return "/=";
  }
  return "?";
}

static void dump_stmts(const ir_kernel *k, const ir_stmt *s, int depth, FILE *out) {
  for (; s; s = s->next) {
    indent(depth, out);
    switch (s->kind) {
    case IR_ST_FOR: {
      const char *it = s->iter >= 0 && s->iter < k->nvars ? k->vars[s->iter]->name : "?";
      fprintf(out, "for (%s = ", it);
      ir_expr_print(k, s->step > 0 ? s->lo : s->hi, out);
      fprintf(out, "; %s %s ", it, s->step > 0 ? "<=" : ">=");
      ir_expr_print(k, s->step > 0 ? s->hi : s->lo, out);
      fprintf(out, "; %s%s) {\n", it, s->step > 0 ? "++" : "--");
      dump_stmts(k, s->body, depth + 1, out);
      indent(depth, out);
      fputs("}\n", out);
      break;
    }
    case IR_ST_IF:
      fputs("if (", out);
      ir_expr_print(k, s->cond, out);
      fputs(") {\n", out);
      dump_stmts(k, s->then_body, depth + 1, out);
      if (s->else_body) {
        indent(depth, out);
        fputs("} else {\n", out);
        dump_stmts(k, s->else_body, depth + 1, out);
      }
      indent(depth, out);
      fputs("}\n", out);
      break;
    case IR_ST_ASSIGN:
      fprintf(out, "S%d: ", s->id);
      ir_expr_print(k, s->lhs, out);
      fprintf(out, " %s ", assign_op(s->op));
      ir_expr_print(k, s->rhs, out);
      fputs(";\n", out);
      break;
    }
  }
}

void ir_kernel_dump(const ir_kernel *k, FILE *out) {
  fprintf(out, "// %s from %s: %d statement%s, data type %s\n", k->name,
          k->file ? k->file : "?", k->nassign, k->nassign == 1 ? "" : "s",
          ir_elem_c_name(k->data_type));
  ir_signature_print(k, out);
  fputs("\n{\n", out);
  ir_kernel_print_views(k, "  // ", out);
  if (k->returns) {
    fputs("  ", out);
    print_decl(k, k->vars[k->params[k->nparams - 1]], out);
    fputs("; /* the returned value: return ret[0] */\n", out);
  }
  int niter = 0;
  for (int i = 0; i < k->nvars; i++)
    if (k->vars[i]->kind == IR_VAR_ITER)
      fprintf(out, "%s%s", niter++ ? ", " : "  int ", k->vars[i]->name);
  if (niter) fputs(";\n", out);
  for (int i = 0; i < k->nvars; i++) { /* sizes used as values */
    const ir_var *v = k->vars[i];
    if (!v->size_value) continue;
    fprintf(out, "  const %s %s = (%s)(", ir_elem_c_name(v->elem), v->name, ir_elem_c_name(v->elem));
    ir_expr_print(k, v->size_value, out);
    fputs("); /* a size as a value */\n", out);
  }
  for (int i = 0; i < k->nvars; i++) {
    const ir_var *v = k->vars[i];
    if (v->kind != IR_VAR_LOCAL && v->kind != IR_VAR_LOCAL_ARRAY) continue;
    fputs("  ", out);
    print_decl(k, v, out);
    fputs(";\n", out);
  }
  dump_stmts(k, k->body, 1, out);
  fputs("}\n", out);
}
