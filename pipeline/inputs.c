/*
 * inputs.c - the `--inputs` specification of explore and rewrites:
 * "A:f64[m,k],B:f64[k,n],alpha:f64[]" becomes a small synthetic ir_kernel
 * (an IR_VAR_SIZE variable per dim name, in order of appearance, then an
 * array or scalar parameter per input) and an argument leaf per input, so
 * that types print with the user's dim names and the enumerator and the
 * verifier work as on a parsed kernel; pipe_inputs_load adds the dialect.
 */
#include <ctype.h>
#include <string.h>

#include "pipeline/pipeline.h"

static int ident(const char *s, size_t *len) {
  size_t n = 0;
  if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  *len = n;
  return 1;
}

static ir_var *new_var(ir_arena *a, ir_var ***vars, int *nvars, int *cap, ir_var_kind kind,
                       const char *name, ir_elem elem) {
  if (*nvars == *cap) {
    int nc = *cap * 2;
    ir_var **nv = IR_NEW_N(a, ir_var *, nc);
    memcpy(nv, *vars, sizeof(ir_var *) * (size_t)*nvars);
    *vars = nv;
    *cap = nc;
  }
  ir_var *v = IR_NEW(a, ir_var);
  v->kind = kind;
  v->id = *nvars;
  v->name = name;
  v->elem = elem;
  v->param_index = -1;
  (*vars)[(*nvars)++] = v;
  return v;
}

int pipe_inputs_parse(const char *spec, int bools, ir_arena *arena, ir_tp_store *store,
                      ir_kernel **kout, const ir_tnode **args, int cap, int *nargs,
                      ir_error *err) {
  ir_kernel *k = IR_NEW(arena, ir_kernel);
  int vcap = 16, nv = 0;
  ir_var **vars = IR_NEW_N(arena, ir_var *, vcap);
  int in_ids[64], nin = 0;
  int dims[64][IR_MAX_RANK], ranks[64];
  ir_elem elems[64];
  const char *p = spec;
  int have_elem = 0;
  ir_elem data = IR_F64;
  /* the position of an error: the column in the specification */
#define FAIL(...)                                                                        \
  do {                                                                                   \
    ir_pos at = {"--inputs", 1, (int)(p - spec) + 1};                                    \
    return ir_error_set(err, at, IR_ERR_INPUT, __VA_ARGS__);                             \
  } while (0)
  if (!*p) FAIL("empty --inputs (expected e.g. \"A:f64[m,k],alpha:f64[]\")");
  while (*p) {
    size_t len;
    if (!ident(p, &len)) FAIL("expected an input name at '%s'", p);
    const char *name = ir_arena_strndup(arena, p, len);
    for (int i = 0; i < nin; i++)
      if (!strcmp(vars[in_ids[i]]->name, name)) FAIL("input '%s' given twice", name);
    p += len;
    if (*p != ':') FAIL("expected ':' and an element type after '%s' at '%s'", name, p);
    p++;
    ir_elem elem;
    if (!strncmp(p, "f64", 3)) elem = IR_F64;
    else if (!strncmp(p, "f32", 3)) elem = IR_F32;
    else if (bools && !strncmp(p, "i1", 2)) elem = IR_I1;
    else FAIL("unknown element type at '%s' (supported: f64, f32)", p);
    if (elem == IR_I1) {
      p += 2;
    } else {
      if (have_elem && elem != data) FAIL("inputs mix f64 and f32 (one element type per run)");
      data = elem;
      have_elem = 1;
      p += 3;
    }
    if (*p != '[') FAIL("expected '[dims]' after the element type of '%s' at '%s'", name, p);
    p++;
    if (nin == 64) FAIL("too many inputs (at most 64)");
    int r = 0;
    while (*p != ']') {
      if (r == IR_MAX_RANK) FAIL("input '%s' has more than %d dims", name, IR_MAX_RANK);
      if (*p == '1' && (p[1] == ',' || p[1] == ']')) {
        dims[nin][r++] = IR_DIM_ONE;
        p++;
      } else {
        if (!ident(p, &len)) FAIL("expected a dim name or 1 at '%s'", p);
        int id = -1;
        for (int v = 0; v < nv; v++)
          if (vars[v]->kind == IR_VAR_SIZE && strlen(vars[v]->name) == len &&
              !strncmp(vars[v]->name, p, len))
            id = v;
        if (id < 0) {
          id = new_var(arena, &vars, &nv, &vcap, IR_VAR_SIZE, ir_arena_strndup(arena, p, len),
                       IR_I32)->id;
        }
        dims[nin][r++] = id;
        p += len;
      }
      if (*p == ',') p++;
      else if (*p != ']') FAIL("expected ',' or ']' in the dims of '%s' at '%s'", name, p);
    }
    p++;
    ranks[nin] = r;
    elems[nin] = elem;
    ir_var *v = new_var(arena, &vars, &nv, &vcap, r ? IR_VAR_ARRAY : IR_VAR_SCALAR, name, elem);
    v->rank = r;
    for (int d = 0; d < r; d++) {
      ir_expr *e = IR_NEW(arena, ir_expr);
      if (dims[nin][d] == IR_DIM_ONE) {
        e->kind = IR_EX_CONST;
        e->value = 1;
        e->is_int = 1;
      } else {
        e->kind = IR_EX_VAR;
        e->var = dims[nin][d];
      }
      e->type = IR_I32;
      v->dims[d] = e;
    }
    in_ids[nin++] = v->id;
    if (*p == ',') {
      p++;
      if (!*p) FAIL("trailing ',' in --inputs");
    } else if (*p) {
      FAIL("expected ',' between inputs at '%s'", p);
    }
  }
  if (nin > cap) FAIL("too many inputs (at most %d)", cap);
  k->name = "inputs";
  k->file = "--inputs";
  k->data_type = data;
  k->vars = vars;
  k->nvars = nv;
  k->params = IR_NEW_N(arena, int, nv + 1);
  for (int v = 0; v < nv; v++) {
    vars[v]->param_index = v;
    k->params[k->nparams++] = v;
  }
  for (int i = 0; i < nin; i++) {
    ir_type t = {elems[i] == IR_I1 ? IR_I1 : data, ranks[i], {0, 0, 0, 0}};
    for (int d = 0; d < ranks[i]; d++) t.dims[d] = dims[i][d];
    args[i] = ir_tp_arg(store, in_ids[i], vars[in_ids[i]]->name, &t);
  }
  *nargs = nin;
  *kout = k;
  return 0;
#undef FAIL
}

pipe_error pipe_inputs_load(const char *spec, const char *dialect, ir_arena *arena,
                            ir_tp_store *store, pipe_inputs *out, ir_error *err) {
  memset(out, 0, sizeof *out);
  ir_error_clear(err);
  if (pipe_inputs_parse(spec, 0, arena, store, &out->k, out->args, PIPE_MAX_INPUTS, &out->nargs,
                        err))
    return PIPE_ERR_INPUTS;
  if (!(out->d = gram_load(dialect, arena))) return PIPE_ERR_DIALECT;
  if (out->d->elems && !(out->d->elems & (1u << out->k->data_type))) {
    const ir_pos nowhere = {0};
    ir_error_set(err, nowhere, IR_ERR_INPUT, "dialect %s has no %s element type", out->d->name,
                 ir_elem_mlir_name(out->k->data_type));
    return PIPE_ERR_ELEM;
  }
  return PIPE_OK;
}
