/* ThreadLens: how long a filter will take, before it runs.
 *
 * On a device, the filter starts on the whole region with a watch
 * (tl-run-watch.c) and is stopped as soon as the estimate rests on
 * measurements: the run's launches are counted first, and every kernel
 * that does 1% or more of the work has had its first piece timed (the
 * launch pacing's rates, ms per work-group).  The estimate is the time
 * so far and the time those rates give for the rest; what it cost is a
 * few pieces of the run itself.  A run that ends first is its own
 * answer.
 *
 * The C reference (no device) has no pieces: it runs on squares cut
 * from the middle of the region, each twice the side of the last, until
 * one takes TL_ESTIMATE_TRIAL_MS, and that square's time per pixel is
 * scaled to the region.  Its cost per pixel does not grow with the
 * layer (a radius or a count of iterations sets it, and taps beyond a
 * border are clamped, not skipped), and it has no launches to amortise.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-estimate.h"
#include "tl-process.h"

#define TL_ESTIMATE_FIRST_SIDE 16
#define TL_ESTIMATE_TRIAL_MS   150.0

/* The square of SIDE at REGION's middle, within it. */
static void
tl_estimate_square (const GeglRectangle *region,
                    gint                 side,
                    GeglRectangle       *square)
{
  square->width  = MIN (side, region->width);
  square->height = MIN (side, region->height);
  square->x      = region->x + (region->width - square->width) / 2;
  square->y      = region->y + (region->height - square->height) / 2;
}

static gboolean
tl_estimate_reference (const TlFilter      *filter,
                       const TlValue       *values,
                       const TlChoice      *choice,
                       GeglBuffer          *source,
                       const GeglRectangle *region,
                       TlEstimate          *estimate,
                       GError             **error)
{
  gdouble pixels = (gdouble) region->width * region->height;
  gint    side;

  for (side = TL_ESTIMATE_FIRST_SIDE; ; side *= 2)
    {
      g_autoptr(GeglBuffer) cut    = NULL;
      g_autoptr(GeglBuffer) target = NULL;
      GeglRectangle         square;
      TlProcessReport       report;
      gdouble               area;

      tl_estimate_square (region, side, &square);
      area   = (gdouble) square.width * square.height;
      cut    = gegl_buffer_new (&square, gegl_buffer_get_format (source));
      target = gegl_buffer_new (&square, gegl_buffer_get_format (source));
      gegl_buffer_copy (source, &square, GEGL_ABYSS_NONE, cut, &square);
      if (! tl_process_region (NULL, filter, values, choice, cut, target,
                               &square, 0, NULL, NULL, &report, error))
        return FALSE;
      estimate->trial_side = side;
      estimate->trial_ms   = report.region_ms;
      estimate->ms         = report.region_ms * pixels / area;
      if (report.region_ms >= TL_ESTIMATE_TRIAL_MS || area >= pixels)
        return TRUE;
    }
}

/* The watch of the device's run: the last estimate, and the word to
 * stop once it is settled.
 */
static gboolean
tl_estimate_watch (const TlProgress *progress,
                   gpointer          data)
{
  TlEstimate *estimate = data;

  if (progress->remaining_ms < 0.0)
    return TRUE;
  estimate->ms       = progress->elapsed_ms + progress->remaining_ms;
  estimate->trial_ms = progress->elapsed_ms;
  return ! progress->settled;
}

gboolean
tl_estimate_region (TlContext           *context,
                    const TlFilter      *filter,
                    const TlValue       *values,
                    const TlChoice      *choice,
                    GeglBuffer          *source,
                    const GeglRectangle *region,
                    TlEstimate          *estimate,
                    GError             **error)
{
  g_autoptr(GeglBuffer) target = NULL;
  g_autoptr(GError)     stop   = NULL;
  gint64                start  = g_get_monotonic_time ();
  TlProcessReport       report;

  g_return_val_if_fail (filter != NULL && values != NULL && choice != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source), FALSE);
  g_return_val_if_fail (region != NULL && estimate != NULL, FALSE);

  memset (estimate, 0, sizeof (*estimate));
  if (context == NULL)
    {
      if (! tl_estimate_reference (filter, values, choice, source, region,
                                   estimate, error))
        return FALSE;
    }
  else
    {
      target = gegl_buffer_new (region, gegl_buffer_get_format (source));
      if (tl_process_region (context, filter, values, choice, source, target,
                             region, tl_process_tile_setting (),
                             tl_estimate_watch, estimate, &report, &stop))
        {
          estimate->ms       = report.region_ms;
          estimate->trial_ms = report.region_ms;
          estimate->ran      = TRUE;
        }
      else if (! g_error_matches (stop, TL_ERROR, TL_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&stop));
          return FALSE;
        }
    }
  estimate->took_ms = (g_get_monotonic_time () - start) / 1000.0;
  return TRUE;
}

gboolean
tl_estimate_sampled (TlContext           *context,
                     const TlFilter      *filter,
                     const TlValue       *values,
                     const TlChoice      *choice,
                     GeglBuffer          *source,
                     const GeglRectangle *region,
                     gint                 side,
                     TlEstimate          *estimate,
                     GError             **error)
{
  GeglRectangle small, large;
  TlEstimate    first;
  gdouble       area, small_area, large_area, per_pixel, read;
  gint64        start = g_get_monotonic_time ();
  guint         halo;

  g_return_val_if_fail (region != NULL && estimate != NULL && side > 0, FALSE);

  area = (gdouble) region->width * region->height;
  halo = tl_filter_halo (filter, values);
  /* What the three sample runs read, halos included. */
  read = 2.0 * (side + 2.0 * halo) * (side + 2.0 * halo) +
         (2.0 * side + 2.0 * halo) * (2.0 * side + 2.0 * halo);
  /* The C reference samples squares of its own (tl_estimate_reference). */
  if (context == NULL)
    return tl_estimate_region (NULL, filter, values, choice, source, region,
                               estimate, error);
  /* Samples that would read a good part of the region cost more than
   * the region's own first pieces, after which its run stops.
   */
  if (area <= 4.0 * side * side || read > area / 4.0)
    {
      if (! tl_estimate_region (context, filter, values, choice, source,
                                region, estimate, error))
        return FALSE;
      /* A whole run that came out long may have paid mostly for its
       * kernels' first launches (PoCL specialises them then): again,
       * warm.  One that is long stops as soon as it settles.
       */
      if (estimate->ran && estimate->ms > TL_ESTIMATE_LONG_MS)
        return tl_estimate_region (context, filter, values, choice, source,
                                   region, estimate, error);
      return TRUE;
    }

  tl_estimate_square (region, side, &small);
  tl_estimate_square (region, 2 * side, &large);
  small_area = (gdouble) small.width * small.height;
  large_area = (gdouble) large.width * large.height;
  /* The small square twice: a device may build or specialise kernels at
   * their first launch (PoCL does), and a quick run's time is its own.
   */
  if (! tl_estimate_region (context, filter, values, choice, source, &small,
                            &first, error) ||
      ! tl_estimate_region (context, filter, values, choice, source, &small,
                            &first, error) ||
      ! tl_estimate_region (context, filter, values, choice, source, &large,
                            estimate, error))
    return FALSE;

  g_debug ("%s: %.1f ms expected on %dx%d, %.1f ms on %dx%d", filter->name,
           first.ms, small.width, small.height, estimate->ms, large.width,
           large.height);
  /* A run's set-up and transfers cost the same on the sample as on the
   * region: the two squares' difference is the cost of pixels alone.
   * Below the timings' noise it is too small to matter.
   */
  per_pixel = MAX ((estimate->ms - first.ms) / MAX (large_area - small_area, 1.0),
                   0.0);
  estimate->ms        += per_pixel * (area - large_area);
  estimate->trial_side = 2 * side;
  estimate->took_ms  = (g_get_monotonic_time () - start) / 1000.0;
  return TRUE;
}

gchar *
tl_estimate_text (const TlEstimate *estimate)
{
  gdouble ms;

  g_return_val_if_fail (estimate != NULL, NULL);

  ms = estimate->ms;
  if (ms < 1000.0)
    /* TRANSLATORS: an expected time, under a second */
    return g_strdup_printf (_("about %.0f ms"), ms);
  if (ms < 120000.0)
    /* TRANSLATORS: an expected time, under two minutes */
    return g_strdup_printf (_("about %.1f s"), ms / 1000.0);
  if (ms < 7200000.0)
    /* TRANSLATORS: an expected time, under two hours */
    return g_strdup_printf (_("about %.0f min"), ms / 60000.0);
  /* TRANSLATORS: an expected time, in hours */
  return g_strdup_printf (_("about %.1f h"), ms / 3600000.0);
}
