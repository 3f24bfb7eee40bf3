/*
 * fuzz_eval.c - libFuzzer harness: program terms plus evaluation.  The
 * input (header "DIALECT KERNEL TASK", then program text; see fuzz.h) is
 * parsed as `uplift verify` parses a report's program, then evaluated with
 * enum_eval_node on small sizes (2, 3, 4, ... as explore uses) over seeded
 * random inputs, the path `raise --check` and the enumerator take.  A
 * failed op precondition is an answer; a crash or sanitizer report is a
 * finding.
 */
#include "enumerator/enumerator.h"
#include "interp/interp.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_prog fp;
  if (fuzz_prog_parse(data, size, &fp)) return -1;
  const ir_kernel *k = fp.k;
  for (int which = 0; fp.p && which < 2; which++) {
    long *sizes = IR_NEW_N(&fp.arena, long, k->nvars + 1);
    enum_explore_sizes(k, which, sizes);
    interp_env env;
    interp_error ierr;
    if (interp_env_init(&env, k, sizes, &ierr)) continue;
    interp_fill_random(&env, 1 + (uint64_t)which);
    ir_tensor out;
    interp_err eerr;
    if (!enum_eval_node(fp.p, env.vals, k->nvars, sizes, &out, &eerr)) interp_tensor_free(&out);
    interp_env_free(&env);
  }
  fuzz_prog_free(&fp);
  return 0;
}
