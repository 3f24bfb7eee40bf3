/* test_ir.c - the allocator, arenas and type helpers of ir/. */
#include <string.h>

#include "ir/ir.h"
#include "tests/harness.h"

int main(void) {
  ir_arena a;
  ir_arena_init(&a);
  char *s = ir_arena_strdup(&a, "hello");
  CHECK("arena strdup copies", strcmp(s, "hello") == 0);
  char *big = ir_arena_alloc(&a, 200000);
  big[199999] = 1;
  CHECK("arena hands out zeroed memory", big[0] == 0);
  CHECK("arena counts bytes", a.used >= 200000);
  CHECK("arena blocks are counted live", ir_mem_live() > 0);
  ir_arena_free(&a);
  CHECK("arena frees every block", ir_mem_live() == 0);

  ir_type t = {IR_F64, 2, {IR_DIM_ONE, 7}};
  ir_type u = t;
  char buf[64];
  CHECK("type equal", ir_type_equal(&t, &u));
  u.dims[1] = 8;
  CHECK("type differs by a dim", !ir_type_equal(&t, &u));
  CHECK("type string", strcmp(ir_type_str(&t, NULL, buf, sizeof buf), "f64[1,d7]") == 0);

  /* the error convention: set, the one-line form, the supported note */
  ir_error e;
  ir_pos at = {"k.c", 3, 7}, nowhere = {0};
  char line[128];
  CHECK("ir_error_set returns -1",
        ir_error_set(&e, at, IR_ERR_INPUT, "'%s' is not affine", "i*j") == -1);
  CHECK("an error has its code", e.code == IR_ERR_INPUT && !strcmp(ir_err_code_name(e.code), "input"));
  CHECK("ir_error_str puts the position in front",
        !strcmp(ir_error_str(&e, line, sizeof line), "k.c:3:7: 'i*j' is not affine"));
  e.supported = "affine subscripts";
  ir_error_set(&e, nowhere, IR_ERR_RANGE, "too many");
  CHECK("ir_error_set clears the supported note", e.supported == NULL);
  CHECK("ir_error_str without a position is the message",
        !strcmp(ir_error_str(&e, line, sizeof line), "too many"));
  CHECK("ir_error_set accepts NULL", ir_error_set(NULL, nowhere, IR_ERR_INTERNAL, "x") == -1);
  ir_error_clear(&e);
  CHECK("ir_error_clear: no error", e.code == IR_ERR_NONE && !e.msg[0] && !e.supported);
  return TEST_REPORT();
}
