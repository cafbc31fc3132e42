/* ThreadLens: an image's pixels, in the file's format and in a filter's
 * (see tl-image.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gegl.h>

#include "tl-alloc.h"
#include "tl-image-private.h"

/* The 4-component float format named @name, in @image's colour space so
 * that a round trip through it leaves the pixels unchanged; NULL when
 * @name is not such a format.
 */
static const Babl *
tl_image_float_format (TlImage     *image,
                       const gchar *name)
{
  const Babl *format;

  if (! babl_format_exists (name))
    return NULL;

  format = babl_format_with_space (name, image->format);

  if (babl_format_get_n_components (format) != 4 ||
      babl_format_get_type (format, 0) != babl_type ("float"))
    return NULL;

  return format;
}

/* An image of AREA of BUFFER, copied, at the origin (a crop to save). */
TlImage *
tl_image_new_from_buffer (GeglBuffer          *buffer,
                          const GeglRectangle *area)
{
  TlImage      *image;
  GeglRectangle extent;

  g_return_val_if_fail (GEGL_IS_BUFFER (buffer) && area != NULL, NULL);
  g_return_val_if_fail (area->width > 0 && area->height > 0, NULL);

  extent = (GeglRectangle) { 0, 0, area->width, area->height };
  image  = g_new0 (TlImage, 1);
  image->format = gegl_buffer_get_format (buffer);
  image->buffer = gegl_buffer_new (&extent, image->format);
  gegl_buffer_copy (buffer, area, GEGL_ABYSS_NONE, image->buffer, &extent);
  return image;
}

void
tl_image_free (TlImage *image)
{
  if (! image)
    return;

  g_clear_object (&image->buffer);
  g_free (image);
}

guint
tl_image_get_width (TlImage *image)
{
  g_return_val_if_fail (image != NULL, 0);

  return gegl_buffer_get_width (image->buffer);
}

guint
tl_image_get_height (TlImage *image)
{
  g_return_val_if_fail (image != NULL, 0);

  return gegl_buffer_get_height (image->buffer);
}

const Babl *
tl_image_get_format (TlImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);

  return image->format;
}

GeglBuffer *
tl_image_get_buffer (TlImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);

  return image->buffer;
}

/* The whole image as 4 floats a pixel in FLOAT_FORMAT, or NULL with
 * ERROR when memory runs out; free with g_free ().
 */
gfloat *
tl_image_get_pixels (TlImage     *image,
                     const gchar *float_format,
                     GError     **error)
{
  const GeglRectangle *extent;
  const Babl          *format;
  gfloat              *pixels;

  g_return_val_if_fail (image != NULL, NULL);
  g_return_val_if_fail (float_format != NULL, NULL);

  format = tl_image_float_format (image, float_format);
  g_return_val_if_fail (format != NULL, NULL);

  extent = gegl_buffer_get_extent (image->buffer);
  pixels = tl_alloc_n ((gsize) extent->width * extent->height,
                       4 * sizeof (gfloat), error);
  if (pixels == NULL)
    return NULL;

  gegl_buffer_get (image->buffer, extent, 1.0, format, pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);

  return pixels;
}

void
tl_image_set_pixels (TlImage      *image,
                     const gchar  *float_format,
                     const gfloat *pixels)
{
  const Babl *format;

  g_return_if_fail (image != NULL);
  g_return_if_fail (float_format != NULL);
  g_return_if_fail (pixels != NULL);

  format = tl_image_float_format (image, float_format);
  g_return_if_fail (format != NULL);

  gegl_buffer_set (image->buffer, gegl_buffer_get_extent (image->buffer), 0,
                   format, pixels, GEGL_AUTO_ROWSTRIDE);
}

/* The whole image in FORMAT (a codec's storage), or NULL with ERROR
 * when memory runs out; free with g_free ().
 */
gpointer
tl_image_get_stored (TlImage    *image,
                     const Babl *format,
                     GError    **error)
{
  const GeglRectangle *extent;
  gpointer             pixels;

  g_return_val_if_fail (image != NULL && format != NULL, NULL);

  extent = gegl_buffer_get_extent (image->buffer);
  pixels = tl_alloc_n ((gsize) extent->width * extent->height,
                       babl_format_get_bytes_per_pixel (format), error);
  if (pixels == NULL)
    return NULL;
  gegl_buffer_get (image->buffer, extent, 1.0, format, pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return pixels;
}

void
tl_image_set_stored (TlImage       *image,
                     const Babl    *format,
                     gconstpointer  pixels)
{
  g_return_if_fail (image != NULL && format != NULL && pixels != NULL);

  gegl_buffer_set (image->buffer, gegl_buffer_get_extent (image->buffer), 0,
                   format, pixels, GEGL_AUTO_ROWSTRIDE);
}
