/*
 * kernels.c - the names of the semantic kernels and reduction bodies that
 * dialect files may refer to.
 *
 * Kernel names come from the op-semantics contract (interp/ops.h); this
 * table is the list of that contract until the registry is wired in.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grammar/kernels.h"

static const char *const kernels[] = {
    "neg", "sqrt", "exp", "rsqrt", "reciprocal", "abs",
    "add", "sub", "mul", "div", "max", "min",
    "compare", "select", "dot_general", "transpose", "broadcast_in_dim",
    "reduce", "iota", "constant", "fill", "fill_scalar", "reshape", "empty"};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

#if defined(__has_include)
#if __has_include("interp/ops.h")
#include "interp/ops.h"
#define GRAM_HAVE_OPS 1
#endif
#endif

int gram_kernel_known(const char *name) {
#ifdef GRAM_HAVE_OPS
  return interp_op_find(name) != NULL;
#endif
  for (size_t i = 0; i < NKERNELS; i++)
    if (!strcmp(kernels[i], name)) return 1;
  return 0;
}

const char *gram_kernel_list(void) {
  static char buf[512];
  if (!buf[0]) {
    size_t at = 0;
#ifdef GRAM_HAVE_OPS
    for (int i = 0; i < interp_op_count() && at < sizeof buf; i++)
      at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? ", " : "kernels ",
                             interp_op_at(i)->name);
    return buf;
#endif
    for (size_t i = 0; i < NKERNELS && at < sizeof buf; i++)
      at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? ", " : "kernels ", kernels[i]);
  }
  return buf;
}

static const char *const regions[] = {"add", "mul", "max", "min"};

int gram_region_known(const char *s, int len) {
  for (int i = 0; i < 4; i++)
    if ((int)strlen(regions[i]) == len && !strncmp(regions[i], s, (size_t)len)) return 1;
  return 0;
}

double gram_region_identity(const char *name) {
  if (!strcmp(name, "mul")) return 1;
  if (!strcmp(name, "max")) return -INFINITY;
  if (!strcmp(name, "min")) return INFINITY;
  return 0;
}
