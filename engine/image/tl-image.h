/* ThreadLens: image files in and out, through GEGL.
 *
 * A TlImage keeps the pixels as GEGL loaded them, in the file's own format,
 * so that a result can be written back at the input's bit depth.  Filters
 * read and write it through their own working format (babl conversions).
 * tl-image-probe.c knows and checks a file before GEGL reads it,
 * tl-image-io.c loads and saves through GEGL, tl-image.c holds the pixels.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_IMAGE_H
#define TL_IMAGE_H

#include <gegl.h>

G_BEGIN_DECLS

typedef struct _TlImage TlImage;

gboolean     tl_image_init_gegl      (GError        **error);

TlImage     *tl_image_load           (const gchar    *path,
                                      GError        **error);
gboolean     tl_image_save           (TlImage        *image,
                                      const gchar    *path,
                                      GError        **error);
TlImage     *tl_image_new_from_buffer (GeglBuffer         *buffer,
                                       const GeglRectangle *area);
void         tl_image_free           (TlImage        *image);

guint        tl_image_get_width      (TlImage        *image);
guint        tl_image_get_height     (TlImage        *image);
const Babl  *tl_image_get_format     (TlImage        *image);
GeglBuffer  *tl_image_get_buffer     (TlImage        *image);

gfloat      *tl_image_get_pixels     (TlImage        *image,
                                      const gchar    *float_format,
                                      GError        **error);
void         tl_image_set_pixels     (TlImage        *image,
                                      const gchar    *float_format,
                                      const gfloat   *pixels);
gpointer     tl_image_get_stored     (TlImage        *image,
                                      const Babl     *format,
                                      GError        **error);
void         tl_image_set_stored     (TlImage        *image,
                                      const Babl     *format,
                                      gconstpointer   pixels);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlImage, tl_image_free)

G_END_DECLS

#endif /* TL_IMAGE_H */
