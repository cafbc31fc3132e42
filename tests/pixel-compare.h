/* ThreadLens tests: how far apart two images' pixels are, the one
 * measure every test program holds results to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_PIXEL_COMPARE_H
#define TL_TEST_PIXEL_COMPARE_H

#include <glib.h>

#include "tl-codec.h"

G_BEGIN_DECLS

/* Channel I of stored pixels DATA, as a number: a code (u8, u16) or a
 * value (half, float).
 */
gdouble tl_test_pixels_stored_value (const TlCodec *codec,
                                     gconstpointer  data,
                                     gsize          i);

/* The largest difference between N_VALUES channels of stored pixels A
 * and B, in codes or values as tl_test_pixels_stored_value () gives
 * them; infinite where only one of them is NaN (a float never written).
 * WHERE (may be NULL): the first channel where it is found.
 */
gdouble tl_test_pixels_stored_difference (const TlCodec *codec,
                                          gconstpointer  a,
                                          gconstpointer  b,
                                          gsize          n_values,
                                          gsize         *where);

/* The same for N_VALUES floats. */
gdouble tl_test_pixels_difference        (const gfloat  *a,
                                          const gfloat  *b,
                                          gsize          n_values);

/* The same for two image files of one size (asserted), as R'G'B'A
 * floats.
 */
gdouble tl_test_pixels_file_difference   (const gchar   *path_a,
                                          const gchar   *path_b);

G_END_DECLS

#endif /* TL_TEST_PIXEL_COMPARE_H */
