/*
 * expand.h - private to polyhedral/: the kernel copy with local variables
 * expanded over their enclosing loops (expand.c).
 */
#ifndef UPLIFT_POLY_EXPAND_H
#define UPLIFT_POLY_EXPAND_H

#include "polyhedral/polyhedral.h"

/* A deep copy of k in arena in which every variable ex[i].var becomes an
 * IR_VAR_LOCAL_ARRAY with ex[i].iters as leading subscripts (dims: the
 * loops' hi + 1; the loops must start at a non-negative constant and end at
 * a bound in size parameters only).  Assignment ids are kept.  Only sound
 * for locals that every iteration writes before reading them (the caller,
 * plan_expansion in analyze.c, checks): the copy starts each new element
 * undefined, where the original would hold an earlier iteration's value. */
const ir_kernel *poly_expand_kernel(const ir_kernel *k, const poly_expansion *ex,
                                    int n, ir_arena *arena);

#endif
