/*
 * kernel_text.h - tests that write a kernel as a C string: parse it through
 * a temporary file (the front end reads files only).
 */
#ifndef UPLIFT_KERNEL_TEXT_H
#define UPLIFT_KERNEL_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/frontend.h"

/* Parse C text into arena (default front-end options); NULL if it does not
 * parse or no temporary file can be made.  The kernel is the caller's (in
 * arena). */
static inline ir_kernel *test_kernel_from_text(const char *src, ir_arena *arena) {
  char path[] = "/tmp/uplift_text_XXXXXX.c";
  int fd = mkstemps(path, 2);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(src, f);
  fclose(f);
  fe_options fe;
  memset(&fe, 0, sizeof fe);
  ir_kernel *k = fe_parse_file(path, &fe, arena);
  unlink(path);
  return k;
}

#endif
