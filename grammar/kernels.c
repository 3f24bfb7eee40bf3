/*
 * kernels.c - the semantic kernels and reduction bodies that dialect files
 * may refer to.  Kernels are looked up by name in interp/'s registry
 * (interp/ops.h), so a kernel added there is usable from a dialect file at
 * once; reduction bodies are the four of the kernel contract.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grammar/kernels.h"
#include "interp/ops.h"

int gram_kernel_known(const char *name) { return interp_op_find(name) != NULL; }

const char *gram_kernel_list(void) {
  static char buf[512];
  if (!buf[0]) {
    size_t at = 0;
    for (int i = 0; i < interp_op_count() && at < sizeof buf; i++)
      at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? ", " : "kernels ",
                             interp_op_at(i)->name);
  }
  return buf;
}

int gram_region_known(const char *s, int len) {
  for (int b = 0; b < INTERP_BODY_COUNT; b++) {
    const char *name = interp_body_name((interp_body)b);
    if ((int)strlen(name) == len && !strncmp(name, s, (size_t)len)) return 1;
  }
  return 0;
}

double gram_region_identity(const char *name) {
  if (!strcmp(name, "mul")) return 1;
  /* -inf is never > or >= an accumulator that is not -inf, and replaces
   * a -inf one by itself: a conditional update by > or >= skips it */
  if (!strcmp(name, "max") || !strcmp(name, "upd_gt") || !strcmp(name, "upd_ge"))
    return -INFINITY;
  if (!strcmp(name, "min") || !strcmp(name, "upd_lt") || !strcmp(name, "upd_le"))
    return INFINITY;
  return 0;
}
