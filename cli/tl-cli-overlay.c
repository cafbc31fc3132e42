/* ThreadLens: the thread map drawn over an image file (overlay).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-filter-job.h"

#include "tl-cli-overlay.h"

gboolean
tl_cli_overlay_pace (TlContext      *context,
                     const TlFilter *filter,
                     const TlValue  *values,
                     const TlChoice *choice,
                     const TlCodec  *codec,
                     TlImage        *image,
                     gdouble        *ms_per_group,
                     GError        **error)
{
  g_autofree gpointer in  = NULL;
  g_autofree gpointer out = NULL;
  TlPixels            pixels = { tl_image_get_width (image),
                                 tl_image_get_height (image), codec };
  TlRunTimes          times;

  in = tl_image_get_stored (image, tl_codec_get_format (codec), error);
  if (in == NULL)
    return FALSE;
  out = g_malloc ((gsize) pixels.width * pixels.height *
                  tl_codec_get_pixel_size (codec));
  pixels.in  = in;
  pixels.out = out;
  if (! tl_filter_job_run (context, filter, values, choice, &pixels, NULL,
                           &times, error))
    return FALSE;
  *ms_per_group = times.ms_per_group;
  return TRUE;
}

TlOverlayMap *
tl_cli_overlay_draw (TlContext      *context,
                     const TlPlan   *plan,
                     const TlLimits *limits,
                     gdouble         ms_per_group,
                     TlOverlayMode   mode,
                     TlOverlayStyle  style,
                     gdouble         opacity,
                     gboolean        on_host,
                     gboolean        keep_pixels,
                     TlImage        *image,
                     GError        **error)
{
  g_autoptr(TlOverlayMap) map     = NULL;
  g_autoptr(TlCodec)      storage = NULL;
  g_autofree gfloat      *pixels  = NULL;
  g_autofree gpointer     stored  = NULL;

  if (on_host)
    {
      map = tl_overlay_run (context, plan, limits->simd_width, ms_per_group,
                            error);
      pixels = map ? tl_image_get_pixels (image, "R'G'B'A float", error)
                   : NULL;
      if (pixels == NULL ||
          ! tl_overlay_render (map, mode, style, opacity, pixels, pixels,
                               error))
        return NULL;
      tl_image_set_pixels (image, "R'G'B'A float", pixels);
      return g_steal_pointer (&map);
    }

  /* In the image's own storage where it can be, as in GIMP. */
  storage = tl_overlay_codec_new (tl_image_get_format (image), error);
  stored  = storage ? tl_image_get_stored (image,
                                           tl_codec_get_format (storage),
                                           error) : NULL;
  if (stored)
    map = tl_overlay_draw (context, plan, limits->simd_width, ms_per_group,
                           mode, style, opacity, storage, stored, stored,
                           keep_pixels, error);
  if (map == NULL)
    return NULL;
  tl_image_set_stored (image, tl_codec_get_format (storage), stored);
  return g_steal_pointer (&map);
}
