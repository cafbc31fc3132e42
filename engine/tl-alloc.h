/* ThreadLens: memory sized by a layer, which may not exist.
 *
 * g_new () and g_malloc () abort the process when memory runs out; in
 * GIMP's own process (the GEGL module) that loses every unsaved image.
 * Every buffer whose size follows a layer's goes through these instead:
 * the size is checked for overflow, a failure is a GError that names
 * the size, and THREADLENS_FAULT=alloc:N makes the Nth such allocation
 * fail (tl-fault.h), so that the tests walk each one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_ALLOC_H
#define TL_ALLOC_H

#include <glib.h>

G_BEGIN_DECLS

/* A layer's pixels or bytes, counted: tl_alloc_mul (width, height,
 * &n_pixels, error) before tl_alloc_n (n_pixels, pixel_size, error).
 */
gboolean tl_alloc_mul       (gsize    a,
                             gsize    b,
                             gsize   *product,
                             GError **error);

gpointer tl_alloc_n         (gsize    n_items,
                             gsize    item_size,
                             GError **error);
gpointer tl_alloc_pages_n   (gsize    n_items,
                             gsize    item_size,
                             GError **error);
gpointer tl_alloc_realloc_n (gpointer memory,
                             gsize    n_items,
                             gsize    item_size,
                             GError **error);

G_END_DECLS

#endif /* TL_ALLOC_H */
