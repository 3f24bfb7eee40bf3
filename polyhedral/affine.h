/*
 * affine.h - private to polyhedral/: the affine expressions, loop bounds and
 * conditions of a kernel as isl text (analyze.c), for the other files of
 * the folder (allsizes.c).  Size parameters are written P<var id>,
 * iterators I<var id>.
 */
#ifndef UPLIFT_POLY_AFFINE_H
#define UPLIFT_POLY_AFFINE_H

#include "ir/ir.h"

/* Append e (affine in sizes and iterators) to b; -1 if it is not affine. */
int poly_aff_text(const ir_kernel *k, const ir_expr *e, ir_buf *b);
/* Append the constraints of a loop bound (lower: lo, else hi) on iterator
 * iter, "I3 >= 0" (a max/min tree gives one constraint per leaf, joined
 * with " and "); -1 if not affine. */
int poly_bound_text(const ir_kernel *k, const ir_expr *e, int iter, int lower, ir_buf *b);
/* Append the affine condition e (negated if neg); -1 if data-dependent. */
int poly_cond_text(const ir_kernel *k, const ir_expr *e, int neg, ir_buf *b);

#endif
