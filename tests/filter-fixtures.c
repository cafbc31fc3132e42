/* ThreadLens tests: what the parts of test-filters share (see
 * filter-fixtures.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-filter-job.h"

#include "filter-fixtures.h"
#include "pixel-compare.h"

TlContext *filter_fixture_context;

TlImage *
filter_fixture_load_photo (const gchar *photo)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *path  = g_test_build_filename (G_TEST_DIST, "images",
                                                   photo, NULL);
  TlImage          *image = tl_image_load (path, &error);

  g_assert_no_error (error);
  return image;
}

void
filter_fixture_prepare (const FilterCase *c,
                        const TlFilter   *filter,
                        FilterFixture    *p)
{
  g_autoptr(GError) error = NULL;
  const Babl       *layer;
  guint             i;

  p->image = filter_fixture_load_photo (c->photo);

  p->values = tl_filter_default_values (filter);
  for (i = 0; c->settings[i]; i++)
    {
      g_assert_true (tl_filter_parse_assignment (filter, p->values,
                                                 c->settings[i], &error));
      g_assert_no_error (error);
    }

  /* The photo as a layer of the case's format would hold it. */
  layer = c->layer ? babl_format_with_space (c->layer,
                                             tl_image_get_format (p->image)) :
                     tl_image_get_format (p->image);
  p->codec = c->layer ? tl_codec_new (layer, filter->format, &error) :
                        tl_codec_new_float (layer, filter->format, &error);
  g_assert_no_error (error);

  p->pixels.width  = c->width ? c->width : tl_image_get_width (p->image);
  p->pixels.height = tl_image_get_height (p->image);
  p->pixels.codec  = p->codec;
  p->n_values      = (gsize) p->pixels.width * p->pixels.height * 4;
  p->n_bytes       = (gsize) p->pixels.width * p->pixels.height *
                     tl_codec_get_pixel_size (p->codec);
  p->in            = tl_image_get_stored (p->image,
                                          tl_codec_get_format (p->codec), NULL);
  /* The first columns: rows packed one after the other again. */
  g_assert_cmpuint (p->pixels.width, <=, tl_image_get_width (p->image));
  for (i = 1; i < p->pixels.height; i++)
    {
      gsize row = (gsize) p->pixels.width * tl_codec_get_pixel_size (p->codec);

      memmove ((guint8 *) p->in + i * row,
               (guint8 *) p->in + (gsize) i * tl_image_get_width (p->image) *
                                  tl_codec_get_pixel_size (p->codec),
               row);
    }
  /* The test photos are opaque; a translucent case takes each pixel's
   * alpha from its green, so premultiplication meets every alpha, none
   * and nearly none included.
   */
  if (c->translucent)
    {
      gsize channel = tl_codec_get_pixel_size (p->codec) / 4;

      for (i = 0; i < p->n_values; i += 4)
        memcpy ((guint8 *) p->in + (i + 3) * channel,
                (guint8 *) p->in + (i + 1) * channel, channel);
    }
  p->pixels.in     = p->in;
  p->reference     = g_malloc (p->n_bytes);
  p->baseline      = g_malloc (p->n_bytes);
  p->pixels.out    = p->reference;
  /* What the device runs: without double precision, the convolution for
   * the recursive Gaussian's standard deviations.
   */
  g_assert_true (tl_filter_device_reference (filter_fixture_context, filter,
                                             p->values, &p->pixels, NULL));
}

void
filter_fixture_clear (FilterFixture *p)
{
  tl_image_free (p->image);
  tl_codec_free (p->codec);
  g_free (p->values);
  g_free (p->in);
  g_free (p->reference);
  g_free (p->baseline);
}

void
filter_fixture_run (const FilterCase *c,
                    const TlFilter   *filter,
                    FilterFixture    *p,
                    const TlChoice   *choice,
                    gpointer          out,
                    const gchar      *what)
{
  g_autoptr(GError) error = NULL;
  TlPixels          pixels = p->pixels;
  TlPlan            plan;
  gsize             where;
  gdouble           diff, tolerance;

  /* Poison the output so unwritten pixels show: NaN in float and half,
   * 0xa5 codes otherwise.
   */
  memset (out, tl_codec_get_storage (p->codec) == TL_STORAGE_U8 ||
               tl_codec_get_storage (p->codec) == TL_STORAGE_U16 ? 0xa5 : 0xff,
          p->n_bytes);
  pixels.out = out;

  if (! tl_filter_job_run (filter_fixture_context, filter, p->values, choice,
                           &pixels, &plan, NULL, &error))
    g_error ("%s on %s (%s), %s: %s", c->filter, c->photo,
             c->layer ? c->layer : "float", what, error->message);

  /* A device that cannot divide correctly rounded may miss a rounding
   * where a translucent layer leaves premultiplied light.
   */
  tolerance = MAX (c->tolerance, p->rounding);
  if (c->translucent &&
      ! tl_context_get_device (filter_fixture_context)->exact_divide)
    tolerance = MAX (tolerance, tl_codec_get_storage (p->codec) ==
                                TL_STORAGE_HALF ? 1e-3 : 1.0);

  diff = tl_test_pixels_stored_difference (p->codec, out, p->reference,
                                           p->n_values, &where);
  if (p->rounding > 0.0 && diff > 0.0 &&
      strcmp (what, "default dispatch") == 0)
    g_test_message ("%s on %s (%s), %s: %g from the C reference", c->filter,
                    c->photo, c->layer ? c->layer : "float", what, diff);
  if (diff > tolerance)
    g_error ("%s on %s (%s), %s: differs from the C reference by %g at "
             "pixel %zu,%zu channel %zu", c->filter, c->photo,
             c->layer ? c->layer : "float", what, diff,
             (where / 4) % p->pixels.width, (where / 4) / p->pixels.width,
             where % 4);
}

void
filter_fixture_load_working (const gchar    *photo,
                             const TlFilter *filter,
                             TlFloatPixels  *pixels)
{
  TlImage *image = filter_fixture_load_photo (photo);

  *pixels = (TlFloatPixels) { 0, };
  pixels->width  = tl_image_get_width (image);
  pixels->height = tl_image_get_height (image);
  pixels->x      = pixels->y = 0;
  pixels->in     = tl_image_get_stored (image,
                                        babl_format_with_space (filter->format,
                                                                tl_image_get_format (image)),
                                        NULL);
  pixels->out    = NULL;
  /* The two-pass references' scratch, which tl_filter_reference ()
   * would allocate.
   */
  pixels->scratch = g_new (gfloat, (gsize) pixels->width * pixels->height * 4);
  tl_image_free (image);
}
