/*
 * fuzz_frontend_nopp.c - libFuzzer harness: the C front end after the
 * preprocessor.  The input is taken as cc -E output (line markers allowed)
 * and handed to fe_parse_preprocessed: tokenizer, column matching, kernel
 * search and the parser run a thousand times faster than with cc in the
 * loop.  Inputs that fe_parse_file would refuse before preprocessing (NUL
 * bytes, control characters, bytes outside ASCII) are skipped, so every
 * finding is reachable from a real file.  A kernel that parses is printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (size_t i = 0; i < size; i++) {
    uint8_t c = data[i];
    if ((c < 0x20 && !strchr("\t\n\r\f\v", c)) || c >= 0x7f) return -1;
  }
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  ir_source src = {"fuzz.c", text, size};
  ir_arena arena;
  ir_arena_init(&arena);
  ir_kernel *k = fe_parse_preprocessed(&src, text, "fuzz.c", NULL, &arena);
  if (k) {
    FILE *null = fopen("/dev/null", "w");
    ir_kernel_dump(k, null);
    fclose(null);
  }
  ir_arena_free(&arena);
  free(text);
  return 0;
}
