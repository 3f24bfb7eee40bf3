/*
 * kernels.h - private to grammar/: which semantic kernels and reduction
 * bodies exist.  Kernels are referred to by name from dialect files; the
 * names are checked against interp/'s kernel registry.
 */
#ifndef UPLIFT_GRAMMAR_KERNELS_H
#define UPLIFT_GRAMMAR_KERNELS_H

/* Is `name` (NUL-terminated) a registered semantic kernel? */
int gram_kernel_known(const char *name);
/* The registered kernel names, comma-separated, for "supported:" notes. */
const char *gram_kernel_list(void);
/* Is s[0..len) a reduction body (add, mul, max, min)? */
int gram_region_known(const char *s, int len);

#endif
