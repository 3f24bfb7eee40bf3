/*
 * fuzz_frontend.c - libFuzzer harness: the C front end with the system
 * preprocessor.  Each input is written to a temporary .c file and parsed
 * with fe_parse_file exactly as `uplift dump` does (cc -E, tokens, the
 * kernel parser); a kernel that parses is printed (the printer recurses
 * over expressions).  Any crash, sanitizer report, hang or leak is a
 * finding.  Built and run by `make fuzz` (docs/fuzz.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frontend/frontend.h"
#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/uplift-fuzz-XXXXXX.c";
  int fd = mkstemps(path, 2);
  if (fd < 0) abort();
  FILE *f = fdopen(fd, "w");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
  ir_arena arena;
  ir_arena_init(&arena);
  ir_kernel *k = fe_parse_file(path, NULL, &arena);
  unlink(path);
  if (k) {
    FILE *null = fopen("/dev/null", "w");
    ir_kernel_dump(k, null);
    fclose(null);
  }
  ir_arena_free(&arena);
  return 0;
}
