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
  return TEST_REPORT();
}
