/*
 * fuzz_tprog.c - libFuzzer harness: the program-term reader of saved
 * reports.  The input (header "DIALECT KERNEL TASK", then program text; see
 * fuzz.h) is parsed with ir_tp_parse against the task's input leaves, as
 * `uplift verify` does.  A program that parses must print back to text that
 * parses to the same node (the store hash-conses, so the same pointer);
 * anything else aborts as a finding.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_prog fp;
  if (fuzz_prog_parse(data, size, &fp)) return -1;
  if (fp.p) {
    char *back = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&back, &n);
    ir_tp_print(fp.p, fp.k, f);
    fclose(f);
    const ir_tnode *q = ir_tp_parse(&fp.store, back, fp.k, fp.ts.in_args, fp.ts.nin,
                                    &fuzz_w.syn[fp.dialect], &fp.err);
    if (q != fp.p) {
      fprintf(stderr, "round trip failed:\n  in:  %s\n  out: %s\n  %s\n", fp.text, back,
              q ? "a different node" : fp.err.msg);
      abort();
    }
    free(back);
  }
  fuzz_prog_free(&fp);
  return 0;
}
