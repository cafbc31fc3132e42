/* ThreadLens: what a GIMP host does to the image (see tl-host.h).
 *
 * Two ways to filter a layer.  In-core, where the GIMP offers it (GIMP 3
 * with the GEGL module loaded): the plug-in checks the settings and the
 * dispatch against the device, then asks GIMP to run threadlens:FILTER
 * on the drawable, and threadlens:thread-map on a copy for the thread
 * map, in its own process, so no pixel crosses the plug-in protocol.  Otherwise through the plug-in: the region's pixels come
 * here, are filtered, and go back through GIMP's shadow buffer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-codec.h"
#include "tl-error.h"
#include "tl-estimate.h"
#include "tl-filter-job.h"
#include "tl-host.h"
#include "tl-host-check.h"
#include "tl-process.h"
#include "tl-run.h"

#define TL_HOST_CACHE_BYTES ((guint64) 256 << 20)

/* A new layer above DRAWABLE holding the thread map. */
static void
tl_host_add_overlay_layer (const TlHostGimp    *gimp,
                           gpointer             image,
                           gpointer             drawable,
                           const TlHostOverlay *overlay)
{
  GeglRectangle whole = { 0, 0, overlay->area.width, overlay->area.height };
  gpointer      layer;
  GeglBuffer   *buffer;

  layer  = gimp->add_layer (image, drawable, overlay->title, &overlay->area);
  buffer = gimp->get_buffer (layer);
  gegl_buffer_set (buffer, &whole, 0, overlay->format, overlay->pixels,
                   GEGL_AUTO_ROWSTRIDE);
  g_object_unref (buffer);
  gimp->update (layer, &whole);
}

/* GIMP hands its plug-ins its own tile cache size (half the memory by
 * default), so a big layer's tiles would pile up in this process as it
 * reads them; the layer lives in GIMP, and a small cache here is enough
 * for the tiles in flight.
 */
static void
tl_host_bound_cache (void)
{
  guint64 size = 0;

  g_object_get (gegl_config (), "tile-cache-size", &size, NULL);
  if (size > TL_HOST_CACHE_BYTES)
    g_object_set (gegl_config (), "tile-cache-size",
                  (guint64) TL_HOST_CACHE_BYTES, NULL);
}

/* The smaller of the squares an in-core run's time is estimated on
 * (tl_estimate_sampled ()).  The samples cost a run of about 0.1 MP:
 * with squares of 512 and 1024 they cost up to 0.9 times a 2 MP run's
 * time in GIMP 3.2 on PoCL, and the estimate only has to tell seconds
 * from less.
 */
#define TL_HOST_SAMPLE_SIDE 128

/* Before GIMP runs the operation: everything the plug-in can find wrong
 * in its own process, so that a refusal leaves the layer untouched and
 * says why.  The settings' values, then the dispatch against the device
 * (the kernels built, the shape within their limits).  With no OpenCL
 * platform at all the operation runs the C reference: WARNING says so,
 * and a thread map (which needs a device) is refused.  ESTIMATE (or
 * NULL) gets the run's expected time, from a sample of the region (0
 * where the sample failed).
 */
static gboolean
tl_host_check_in_core (const TlFilter       *filter,
                       const TlHostSettings *settings,
                       GeglBuffer           *source,
                       const GeglRectangle  *region,
                       TlEstimate           *estimate,
                       gchar               **warning,
                       GError              **error)
{
  g_autoptr(TlCodec) codec   = NULL;
  TlContext         *context;
  TlChoice           choice;
  TlLimits           limits;
  TlPlan             plan;

  if (! tl_host_settings_to_choice (settings, &choice, error) ||
      ! tl_host_check_settings (filter, settings, error) ||
      ! tl_host_open_device (settings, filter, settings->overlay > 0,
                             &context, warning, error))
    return FALSE;
  if (context)
    {
      if (! tl_host_check_device (filter, settings,
                                  tl_context_get_device (context), error))
        return FALSE;
      codec = tl_codec_new (gegl_buffer_get_format (source), filter->format,
                            error);
      if (codec == NULL ||
          ! tl_filter_job_plan (context, filter, codec, &choice,
                                region->width, region->height, &limits,
                                &plan, error))
        return FALSE;
    }
  if (estimate)
    {
      g_autoptr(GError) unknown = NULL;

      /* Only advice: where the device fails here, the operation still
       * runs, and falls back on the C reference as it would have.
       */
      if (! tl_estimate_sampled (context, filter, settings->values, &choice,
                                 source, region, TL_HOST_SAMPLE_SIDE,
                                 estimate, &unknown))
        {
          g_printerr ("ThreadLens: no estimate of %s's time: %s\n",
                      filter->name, unknown->message);
          estimate->ms = 0.0;
        }
    }
  return TRUE;
}

/* SETTINGS as the operation's properties: the procedure's arguments
 * under their own names (the module has no overlay ones).
 */
static gboolean
tl_host_run_operation (const TlHostGimp     *gimp,
                       const TlFilter       *filter,
                       const TlHostSettings *settings,
                       gpointer              drawable,
                       GError              **error)
{
  g_autoptr(TlHostProperties) properties = tl_host_properties_new (filter,
                                                                   settings);
  g_autofree gchar           *title      = tl_host_filter_title (filter);

  return gimp->run_operation (drawable, properties->operation, title,
                              properties->args, properties->values,
                              properties->n_args, settings->non_destructive,
                              error);
}

/* The thread map as a new layer above DRAWABLE, drawn in GIMP's process
 * by threadlens:thread-map on a copy of AREA: the settings as its
 * properties, and FILTER (NULL: the overlay kernel's own) as the
 * dispatch it shows.  NULL with ERROR and nothing added on failure.
 */
static gpointer
tl_host_add_map_in_core (const TlHostGimp     *gimp,
                         const TlFilter       *filter,
                         const TlHostSettings *settings,
                         gpointer              image,
                         gpointer              drawable,
                         const GeglRectangle  *area,
                         const gchar          *title,
                         GError              **error)
{
  g_autoptr(TlHostProperties) properties = tl_host_map_properties_new (filter,
                                                                       settings);

  return gimp->add_operation_layer (image, drawable, title, area,
                                    properties->operation, properties->args,
                                    properties->values, properties->n_args,
                                    error);
}

/* FILTER (NULL: the thread map alone) on DRAWABLE inside GIMP.  FALSE
 * with PLUG_IN set (to why, for the log) where the caller takes the
 * plug-in path instead: GIMP does not know the operation (the module is
 * not installed), or the run is long.  GIMP stops an operation it runs
 * only between the chunks it asks for, and a long run's chunks are long;
 * in the plug-in's own process GIMP's Cancel ends the run at once.  A
 * non-destructive filter stays in GIMP, which renders it again on
 * every change anyway.
 */
static gboolean
tl_host_apply_in_core (const TlHostGimp     *gimp,
                       const TlFilter       *filter,
                       const TlHostSettings *settings,
                       gpointer              image,
                       gpointer              drawable,
                       const GeglRectangle  *region,
                       gchar               **plug_in,
                       GError              **error)
{
  g_autofree gchar     *warning = NULL;
  g_autofree gchar     *title   = NULL;
  g_autoptr(GeglBuffer) source  = gimp->get_buffer (drawable);
  g_autoptr(GError)     failed  = NULL;
  GeglRectangle         area    = *region;
  TlEstimate            estimate = { 0, };
  gpointer              map     = NULL;
  gboolean              ok      = TRUE;

  *plug_in = NULL;
  if (filter &&
      ! tl_host_check_in_core (filter, settings, source, region,
                               settings->non_destructive ? NULL : &estimate,
                               &warning, error))
    return FALSE;
  if (filter && ! settings->non_destructive &&
      estimate.ms > TL_ESTIMATE_LONG_MS)
    {
      g_autofree gchar *expected = tl_estimate_text (&estimate);

      *plug_in = g_strdup_printf ("%s is expected to take %s, long",
                                  filter->name, expected);
      return FALSE;
    }

  /* The map covers what the kernels read: the region and its halo. */
  if (settings->overlay > 0 || filter == NULL)
    {
      guint halo = filter ? tl_filter_halo (filter, settings->values) : 0;

      area.x -= halo;
      area.y -= halo;
      area.width  += 2 * halo;
      area.height += 2 * halo;
      gegl_rectangle_intersect (&area, &area, gegl_buffer_get_extent (source));
      title = tl_host_thread_map_title (settings, filter, source, &area, error);
      if (title == NULL)
        return FALSE;
    }

  /* The map first, from the layer as it is before the filter (the
   * checkerboard shows it); if the filter then cannot run, the map goes.
   */
  gimp->undo_begin (image);
  if (title)
    {
      map = tl_host_add_map_in_core (gimp, filter, settings, image, drawable,
                                     &area, title, &failed);
      ok  = map != NULL;
    }
  if (ok && filter)
    {
      ok = tl_host_run_operation (gimp, filter, settings, drawable, &failed);
      if (! ok && map)
        gimp->remove_layer (image, map);
    }
  gimp->undo_end (image);

  if (! ok)
    {
      if (g_error_matches (failed, TL_ERROR, TL_ERROR_NO_OPERATION))
        *plug_in = g_strdup (failed->message);
      else
        g_propagate_error (error, g_steal_pointer (&failed));
      return FALSE;
    }
  if (warning)
    gimp->message (warning);
  g_debug ("%s ran in GIMP's process", filter ? filter->name : "thread-map");
  return TRUE;
}

/* Before a dialog, as GIMP's filter tool checks before it opens one:
 * FALSE with ERROR when the selection misses DRAWABLE.
 */
gboolean
tl_host_check_selection (const TlHostGimp *gimp,
                         gpointer          drawable,
                         GError          **error)
{
  GeglRectangle region;

  g_return_val_if_fail (gimp != NULL, FALSE);

  if (gimp->mask_bounds (drawable, &region))
    return TRUE;
  g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("the selection does not touch this layer: "
                         "nothing to filter"));
  return FALSE;
}

/* Runs FILTER (NULL: the thread map alone) on DRAWABLE the way GIMP's
 * own filters run: on the selection's bounds, through the shadow buffer,
 * merged through the selection mask, with the overlay layer if asked, as
 * one undo step.  On any error the image is left as it was.
 */
gboolean
tl_host_apply (const TlHostGimp     *gimp,
               const TlFilter       *filter,
               const TlHostSettings *settings,
               gpointer              image,
               gpointer              drawable,
               GError              **error)
{
  TlHostOverlay  overlay = { { 0, } };
  g_autofree gchar *warning = NULL;
  GeglBuffer    *source, *shadow;
  GeglRectangle  region;
  gchar         *title;
  gboolean       ok;

  g_return_val_if_fail (gimp != NULL && settings != NULL, FALSE);

  if (! tl_host_check_drawable (gimp->kind (drawable),
                                settings->non_destructive, error))
    return FALSE;

  /* GIMP's own filters (2.10 and 3.x) leave a drawable that the
   * selection misses as it is and succeed, with no undo step, so that a
   * script looping over layers goes on; their dialogs do not open for it
   * (tl_host_check_selection ()).
   */
  if (! gimp->mask_bounds (drawable, &region))
    return TRUE;

  if (gimp->run_operation && gimp->add_operation_layer)
    {
      g_autofree gchar *plug_in = NULL;

      if (tl_host_apply_in_core (gimp, filter, settings, image, drawable,
                                 &region, &plug_in, error))
        return TRUE;
      if (plug_in == NULL)
        return FALSE;
      /* Logged, not shown: the plug-in path gives the same pixels. */
      g_printerr ("ThreadLens: %s; filtering through the plug-in instead\n",
                  plug_in);
    }

  tl_host_bound_cache ();
  title = g_strdup_printf (_("ThreadLens: %s"),
                           filter ? _(filter->label) : _("Thread Map"));
  gimp->progress_init (title);
  g_free (title);

  source = gimp->get_buffer (drawable);
  /* GIMP 3 gives its operations the selection's bounds as their whole
   * image, and a halo clamps there: a run that left GIMP's process (a
   * long one, or one without the module) reads its halo the same way.
   */
  if (gimp->run_operation)
    {
      GeglBuffer *bounded = gegl_buffer_create_sub_buffer (source, &region);

      g_object_unref (source);
      source = bounded;
    }
  if (filter)
    {
      shadow = gimp->get_shadow (drawable);
      ok = tl_host_process (settings, filter, source, shadow, &region,
                            gimp->progress, NULL, &overlay, NULL, &warning,
                            error);
      if (ok)
        gegl_buffer_flush (shadow);
      g_object_unref (shadow);
    }
  else
    {
      ok = tl_host_thread_map (settings, source, &region, gimp->progress,
                               NULL, &overlay, error);
    }
  g_object_unref (source);

  /* Only a successful run changes the image: on failure the shadow is
   * dropped and the layer keeps its pixels.
   */
  if (warning)
    gimp->message (warning);
  if (ok)
    {
      gimp->undo_begin (image);
      if (filter)
        gimp->merge_shadow (drawable, &region);
      if (overlay.pixels)
        tl_host_add_overlay_layer (gimp, image, drawable, &overlay);
      gimp->undo_end (image);
    }
  tl_host_overlay_clear (&overlay);
  gimp->progress_end ();

  return ok;
}
