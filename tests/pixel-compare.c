/* ThreadLens tests: how far apart two images' pixels are.  One measure
 * for every test program, so that none can let a NaN through: fabs ()
 * of a NaN compares false against any worst so far.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tl-image.h"

#include "pixel-compare.h"

gdouble
tl_test_pixels_stored_value (const TlCodec *codec,
                             gconstpointer  data,
                             gsize          i)
{
  switch (tl_codec_get_storage (codec))
    {
    case TL_STORAGE_U8:
      return ((const guint8 *) data)[i];
    case TL_STORAGE_U16:
      return ((const guint16 *) data)[i];
    case TL_STORAGE_HALF:
      return tl_codec_half_to_float (((const guint16 *) data)[i]);
    default:
      return ((const gfloat *) data)[i];
    }
}

/* How far apart X and Y are: infinite where only one is NaN. */
static gdouble
tl_test_pixels_distance (gdouble x,
                         gdouble y)
{
  if (isnan (x) || isnan (y))
    return isnan (x) && isnan (y) ? 0.0 : INFINITY;
  return fabs (x - y);
}

gdouble
tl_test_pixels_stored_difference (const TlCodec *codec,
                                  gconstpointer  a,
                                  gconstpointer  b,
                                  gsize          n_values,
                                  gsize         *where)
{
  gdouble worst = 0.0;
  gsize   i;

  if (where)
    *where = 0;
  for (i = 0; i < n_values; i++)
    {
      gdouble x = tl_test_pixels_stored_value (codec, a, i);
      gdouble y = tl_test_pixels_stored_value (codec, b, i);
      gdouble d = tl_test_pixels_distance (x, y);

      if (d > worst)
        {
          worst = d;
          if (where)
            *where = i;
        }
    }
  return worst;
}

gdouble
tl_test_pixels_difference (const gfloat *a,
                           const gfloat *b,
                           gsize         n_values)
{
  gdouble worst = 0.0;
  gsize   i;

  for (i = 0; i < n_values; i++)
    worst = MAX (worst, tl_test_pixels_distance (a[i], b[i]));
  return worst;
}

gdouble
tl_test_pixels_file_difference (const gchar *path_a,
                                const gchar *path_b)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) a = tl_image_load (path_a, &error);
  g_autoptr(TlImage) b = NULL;
  g_autofree gfloat *pa = NULL, *pb = NULL;

  g_assert_no_error (error);
  b = tl_image_load (path_b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tl_image_get_width (a), ==, tl_image_get_width (b));
  g_assert_cmpuint (tl_image_get_height (a), ==, tl_image_get_height (b));
  pa = tl_image_get_pixels (a, "R'G'B'A float", &error);
  g_assert_no_error (error);
  pb = tl_image_get_pixels (b, "R'G'B'A float", &error);
  g_assert_no_error (error);
  return tl_test_pixels_difference (pa, pb, (gsize) tl_image_get_width (a) *
                                            tl_image_get_height (a) * 4);
}
