/*
 * internal.h - what rewrites.c and egraph.c share: the matching of a
 * rule's types, with size symbols renamed consistently.
 */
#ifndef UPLIFT_REWRITES_INTERNAL_H
#define UPLIFT_REWRITES_INTERNAL_H

#include "rewrites/rewrites.h"

/* Does pattern type p match t, extending the size symbol map dim[0..
 * RW_MAXSYM-1] (-2: unset)?  Element type and rank must be equal, unit
 * dims match unit dims only. */
int rw_match_type(int *dim, const ir_type *p, const ir_type *t);

/* t with its size symbols renamed by dim (unset ones kept). */
ir_type rw_map_type(const int *dim, const ir_type *t);

/* Do the argument leaves of b all occur in a? */
int rw_vars_within(const ir_tnode *a, const ir_tnode *b);

#endif
