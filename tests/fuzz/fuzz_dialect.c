/*
 * fuzz_dialect.c - libFuzzer harness: the dialect description parser
 * (grammar/parse.c).  Each input is one dialect file given to gram_parse;
 * a dialect that loads is printed back as `uplift dialects NAME` does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  ir_arena arena;
  ir_arena_init(&arena);
  gram_dialect *d = gram_parse("fuzz.dialect", text, &arena);
  if (d) {
    FILE *null = fopen("/dev/null", "w");
    gram_dialect_print(d, null);
    fclose(null);
  }
  ir_arena_free(&arena);
  free(text);
  return 0;
}
