/* ThreadLens: the thread map in the hosts: its settings planned, drawn
 * on the device, and handed to GIMP as a layer's pixels (the thread-map
 * procedures, threadlens:thread-map and a filter's overlay).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-cl.h"
#include "tl-host-check.h"
#include "tl-host-private.h"
#include "tl-overlay.h"
#include "tl-process.h"
#include "tl-run.h"

void
tl_host_overlay_clear (TlHostOverlay *overlay)
{
  g_return_if_fail (overlay != NULL);

  if (overlay->staged)
    tl_context_give_staging (overlay->staged, TL_STAGING_OUTPUT);
  else
    g_free (overlay->pixels);
  overlay->pixels = NULL;
  overlay->staged = NULL;
  g_clear_pointer (&overlay->title, g_free);
  g_clear_pointer (&overlay->legend, g_free);
}

/* The overlay's mode and style as SETTINGS name them, and the plan of
 * the dispatch that runs (or would run) FILTER's kernels (NULL: the
 * overlay kernel's own) over WIDTH x HEIGHT: what the map shows.
 */
static gboolean
tl_host_plan_map (TlContext            *context,
                  const TlHostSettings *settings,
                  const TlFilter       *filter,
                  const TlCodec        *codec,
                  guint                 width,
                  guint                 height,
                  TlOverlayMode        *mode,
                  TlOverlayStyle       *style,
                  TlLimits             *limits,
                  TlPlan               *plan,
                  GError              **error)
{
  TlChoice choice;

  if (! tl_overlay_mode_from_string (tl_host_overlay_names[settings->overlay],
                                     mode, error) ||
      ! tl_overlay_style_from_string (tl_host_overlay_style_names[settings->overlay_style],
                                      style, error) ||
      ! tl_host_settings_to_choice (settings, &choice, error))
    return FALSE;

  /* Pixels per item 0 ("auto") is the filter's own for the device and
   * storage, as its run takes it (the overlay's plan resolves it).
   */
  return tl_overlay_plan (context, filter, codec, &choice, width, height,
                          limits, plan, error);
}

/* The thread map of the dispatch that ran (or would run) FILTER's kernels
 * (NULL: the overlay kernel's own) over REGION of SOURCE, drawn on the
 * device as the settings ask, in the layer's own storage where the
 * codec has one.  FILTERED (or NULL) holds what the filter made of
 * INNER, a part of REGION, which the checkerboard shows there.
 * MS_PER_GROUP (the filter's run's TlRunTimes.ms_per_group, or 0) cuts
 * the map's launches into the pieces the filter's were cut into.
 */
gboolean
tl_host_draw_map (TlContext            *context,
                  const TlHostSettings *settings,
                  const TlFilter       *filter,
                  const TlCodec        *codec,
                  GeglBuffer           *source,
                  const GeglRectangle  *region,
                  GeglBuffer           *filtered,
                  const GeglRectangle  *inner,
                  gdouble               ms_per_group,
                  TlHostOverlay        *overlay,
                  GError              **error)
{
  g_autoptr(TlOverlayMap) map   = NULL;
  g_autoptr(TlCodec)      pixel = NULL;
  g_autofree guint8      *image = NULL;
  TlOverlayMode           mode;
  TlOverlayStyle          style;
  TlLimits                limits;
  TlPlan                  plan;
  GeglRectangle           area;
  gsize                   n_pixels, bytes;

  if (! tl_host_plan_map (context, settings, filter, codec, region->width,
                          region->height, &mode, &style, &limits, &plan, error))
    return FALSE;

  pixel = tl_overlay_codec_new (gegl_buffer_get_format (source), error);
  if (pixel == NULL)
    return FALSE;

  /* A tint goes on its own layer, alone, so GIMP composites it and the
   * user can change its opacity; the checkerboard inverts the image
   * itself, so it needs the pixels.
   */
  if (style == TL_OVERLAY_CHECKERBOARD)
    {
      gsize pixel_size = tl_codec_get_pixel_size (pixel);

      image = tl_process_read_area (source, region, 0,
                                    tl_codec_get_format (pixel), &area, error);
      if (image == NULL)
        return FALSE;
      if (filtered)
        gegl_buffer_get (filtered, inner, 1.0, tl_codec_get_format (pixel),
                         image + ((gsize) (inner->y - area.y) * area.width +
                                  (inner->x - area.x)) * pixel_size,
                         area.width * pixel_size, GEGL_ABYSS_NONE);
    }

  /* Counted first: a wrapped size would take too small a staging block. */
  if (! tl_alloc_mul (region->width, region->height, &n_pixels, error) ||
      ! tl_alloc_mul (n_pixels, tl_codec_get_pixel_size (pixel), &bytes, error))
    return FALSE;

  overlay->area   = *region;
  overlay->format = tl_codec_get_format (pixel);
  /* A GPU's pinned memory where it has some: the drawn map comes back by
   * DMA, into pages already mapped (tl-cl-staging.c).
   */
  overlay->pixels = tl_context_take_staging (context, TL_STAGING_OUTPUT, bytes);
  if (overlay->pixels)
    overlay->staged = context;
  else
    overlay->pixels = tl_alloc_n (n_pixels, tl_codec_get_pixel_size (pixel),
                                  error);
  if (overlay->pixels == NULL)
    return FALSE;
  map = tl_overlay_draw (context, &plan, limits.simd_width, ms_per_group,
                         mode, style, settings->overlay_opacity, pixel, image,
                         overlay->pixels, FALSE, error);
  if (map == NULL)
    {
      tl_host_overlay_clear (overlay);
      return FALSE;
    }
  overlay->title  = tl_overlay_title (map, mode);
  overlay->legend = tl_overlay_legend (map, mode, style,
                                       settings->overlay_opacity);
  return TRUE;
}

/* What every thread map needs before it is planned: an overlay mode, the
 * codec of FILTER's storage for SOURCE (NULL without a filter: the
 * overlay kernel's own dispatch), and a device.  The context, or NULL
 * with ERROR.
 */
static TlContext *
tl_host_prepare_map (const TlHostSettings *settings,
                     const TlFilter       *filter,
                     GeglBuffer           *source,
                     TlCodec             **codec,
                     GError              **error)
{
  g_autoptr(GError) missing = NULL;
  TlContext        *context;

  /* The map's own settings (the filter's values are the filter's). */
  if (! tl_host_check_settings (NULL, settings, error))
    return NULL;
  if (filter)
    {
      *codec = tl_codec_new (gegl_buffer_get_format (source), filter->format,
                             error);
      if (*codec == NULL)
        return NULL;
    }
  context = tl_host_get_context (settings, &missing);
  if (context == NULL)
    {
      g_prefix_error (&missing, _("the thread map needs an OpenCL device: "));
      g_propagate_error (error, g_steal_pointer (&missing));
      return NULL;
    }
  if (! tl_host_check_device (filter, settings,
                              tl_context_get_device (context), error))
    return NULL;
  return context;
}

/* The thread map of the dispatch that runs FILTER's kernels (NULL: the
 * overlay kernel's own) over REGION of SOURCE, which stays as it is: the
 * thread-map procedure, and the GEGL module's threadlens:thread-map.
 */
gboolean
tl_host_thread_map_for (const TlHostSettings *settings,
                        const TlFilter       *filter,
                        GeglBuffer           *source,
                        const GeglRectangle  *region,
                        TlHostProgress        progress,
                        gpointer              progress_data,
                        TlHostOverlay        *overlay,
                        GError              **error)
{
  TlContext           *context;
  g_autoptr(TlCodec)   codec   = NULL;

  g_return_val_if_fail (settings != NULL && overlay != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source), FALSE);
  g_return_val_if_fail (region != NULL && region->width > 0 && region->height > 0, FALSE);

  tl_host_report (progress, progress_data, 0.05, _("ThreadLens: preparing OpenCL"));
  context = tl_host_prepare_map (settings, filter, source, &codec, error);
  if (context == NULL)
    return FALSE;

  tl_host_report (progress, progress_data, 0.5, _("ThreadLens: thread map"));
  if (! tl_host_draw_map (context, settings, filter, codec, source, region,
                          NULL, NULL, 0.0, overlay, error))
    return FALSE;
  tl_host_report (progress, progress_data, 1.0, _("ThreadLens: thread map"));

  return TRUE;
}

/* What the thread map of FILTER (NULL: the overlay kernel's own) over
 * AREA of SOURCE would be named, without drawing it: in GIMP 3 the map is
 * drawn in GIMP's process, and this also checks the overlay settings and
 * the device there first.  Only SOURCE's format is read.
 */
gchar *
tl_host_thread_map_title (const TlHostSettings *settings,
                          const TlFilter       *filter,
                          GeglBuffer           *source,
                          const GeglRectangle  *area,
                          GError              **error)
{
  g_autoptr(TlCodec) codec   = NULL;
  TlContext         *context;
  TlOverlayMode      mode;
  TlOverlayStyle     style;
  TlLimits           limits;
  TlPlan             plan;

  g_return_val_if_fail (settings != NULL && GEGL_IS_BUFFER (source), NULL);
  g_return_val_if_fail (area != NULL && area->width > 0 && area->height > 0, NULL);

  context = tl_host_prepare_map (settings, filter, source, &codec, error);
  if (context == NULL)
    return NULL;
  if (! tl_host_plan_map (context, settings, filter, codec, area->width,
                          area->height, &mode, &style, &limits, &plan, error))
    return NULL;

  return tl_overlay_plan_title (&plan, limits.simd_width, mode);
}

/* The thread-map procedure: the map of the overlay kernel's own dispatch
 * over REGION of SOURCE, which stays as it is.
 */
gboolean
tl_host_thread_map (const TlHostSettings *settings,
                    GeglBuffer           *source,
                    const GeglRectangle  *region,
                    TlHostProgress        progress,
                    gpointer              progress_data,
                    TlHostOverlay        *overlay,
                    GError              **error)
{
  return tl_host_thread_map_for (settings, NULL, source, region, progress,
                                 progress_data, overlay, error);
}
