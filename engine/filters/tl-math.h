/* ThreadLens: the C twins of kernels/tl-math.h, for the C references:
 * the same operations in the same order, so the same bits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_MATH_H
#define TL_MATH_H

#include <glib.h>

G_BEGIN_DECLS

gfloat tl_math_exp       (gfloat x);
gfloat tl_math_exp2      (gfloat t);
gfloat tl_math_log2      (gfloat x);
gfloat tl_math_pow       (gfloat x,
                          gfloat y);
gfloat tl_math_to_srgb   (gfloat v);
gfloat tl_math_from_srgb (gfloat v);

G_END_DECLS

#endif /* TL_MATH_H */
