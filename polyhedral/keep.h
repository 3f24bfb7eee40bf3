/*
 * keep.h - private to polyhedral/: the loops to keep sequential (keep.c).
 */
#ifndef UPLIFT_POLY_KEEP_H
#define UPLIFT_POLY_KEEP_H

#include "polyhedral/polyhedral.h"

/* Fill a->kept and a->scalar from a's statements, dependences (their
 * carried levels and distances) and reductions; everything in arena. */
void poly_keep_loops(poly_analysis *a, ir_arena *arena);

#endif
