/* ThreadLens dialog: the preview's runs: the real kernels on the visible
 * part of the layer (tl_host_process () into a scratch buffer), one at a
 * time in a worker thread, and the status line that tells of them: how
 * far a long run has got and, from the kernels' time on the visible
 * part, how long the whole region would take.  A run made stale by a
 * change, or by the dialog's end, stops at the engine's next check.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-estimate.h"
#include "tl-preview-private.h"
#include "tl-probe.h"

/* The status line's refresh while a run is in flight. */
#define TL_PREVIEW_RUN_STATUS_MS 250

/* One preview run, handed to the worker thread and back. */
typedef struct
{
  const TlFilter  *filter;          /* NULL: the thread map alone */
  GeglBuffer      *source;
  TlHostSettings   settings;
  gboolean         run;
  GeglRectangle    visible;
  GeglRectangle    work;
  cairo_surface_t *original;
  cairo_surface_t *filtered;
  cairo_surface_t *overlay;
  GeglRectangle    overlay_area;
  gchar           *legend;
  gchar           *error;
  gdouble          ms;
  gdouble          kernel_ms;       /* the kernels' (the C reference's) */
  gboolean         stopped;
  TlPreviewWatch  *watch;
  gint64           start;
} TlPreviewRunJob;

static void
tl_preview_run_job_free (gpointer data)
{
  TlPreviewRunJob *job = data;

  g_clear_object (&job->source);
  g_clear_pointer (&job->original, cairo_surface_destroy);
  g_clear_pointer (&job->filtered, cairo_surface_destroy);
  g_clear_pointer (&job->overlay, cairo_surface_destroy);
  g_free (job->legend);
  g_free (job->error);
  g_atomic_rc_box_release (job->watch);
  g_free (job);
}

/* In the worker: the host's bar runs from 0.1 to 0.9 while the kernels
 * run.
 */
static gboolean
tl_preview_run_progress (gdouble      fraction,
                         const gchar *message,
                         gpointer     data)
{
  TlPreviewRunJob *job = data;

  g_atomic_int_set (&job->watch->ppm,
                    (gint) CLAMP ((fraction - 0.1) / 0.8 * 1e6, 0.0, 1e6));
  g_atomic_int_set (&job->watch->elapsed_ms,
                    (gint) ((g_get_monotonic_time () - job->start) / 1000));
  return ! g_atomic_int_get (&job->watch->stop);
}

static cairo_surface_t *
tl_preview_run_read (GeglBuffer          *buffer,
                     const GeglRectangle *area)
{
  cairo_surface_t *surface;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, area->width,
                                        area->height);
  cairo_surface_flush (surface);
  gegl_buffer_get (buffer, area, 1.0, babl_format ("cairo-ARGB32"),
                   cairo_image_surface_get_data (surface),
                   cairo_image_surface_get_stride (surface),
                   GEGL_ABYSS_NONE);
  cairo_surface_mark_dirty (surface);

  return surface;
}

/* The thread map as the new layer would show it: a tint with its alpha,
 * or the checkerboarded image.
 */
static cairo_surface_t *
tl_preview_run_read_overlay (const TlHostOverlay *overlay)
{
  cairo_surface_t *surface;
  const Babl      *fish;
  guchar          *data;
  gint             stride, y;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                        overlay->area.width,
                                        overlay->area.height);
  cairo_surface_flush (surface);
  data   = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  fish   = babl_fish (overlay->format, babl_format ("cairo-ARGB32"));
  for (y = 0; y < overlay->area.height; y++)
    babl_process (fish, (const guint8 *) overlay->pixels +
                        (gsize) y * overlay->area.width *
                        babl_format_get_bytes_per_pixel (overlay->format),
                  data + (gsize) y * stride, overlay->area.width);
  cairo_surface_mark_dirty (surface);

  return surface;
}

static void
tl_preview_run_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  TlPreviewRunJob  *job     = task_data;
  TlHostOverlay  overlay = { { 0, } };
  GeglBuffer    *scratch = NULL;
  GError        *error   = NULL;
  TlProcessReport report;
  gboolean       ok;

  if (job->visible.width > 0 && job->visible.height > 0)
    job->original = tl_preview_run_read (job->source, &job->visible);

  if (! job->run || job->work.width <= 0 || job->work.height <= 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  job->start = g_get_monotonic_time ();
  tl_probe_lock ();
  if (job->filter)
    {
      scratch = gegl_buffer_new (&job->work, babl_format (job->filter->format));
      ok = tl_host_process (&job->settings, job->filter, job->source,
                            scratch, &job->work, tl_preview_run_progress, job,
                            &overlay, &report, NULL, &error);
      if (ok)
        job->kernel_ms = report.on_cpu ? report.region_ms :
                                         report.times.kernel_ms;
    }
  else
    {
      ok = tl_host_thread_map (&job->settings, job->source, &job->work,
                               NULL, NULL, &overlay, &error);
    }
  tl_probe_unlock ();
  job->ms = (g_get_monotonic_time () - job->start) / 1000.0;

  if (ok)
    {
      if (scratch)
        job->filtered = tl_preview_run_read (scratch, &job->work);
      if (overlay.pixels)
        {
          job->overlay      = tl_preview_run_read_overlay (&overlay);
          job->overlay_area = overlay.area;
          job->legend       = g_strdup (overlay.legend);
        }
    }
  else if (g_error_matches (error, TL_ERROR, TL_ERROR_CANCELLED))
    {
      job->stopped = TRUE;
    }
  else
    {
      job->error = g_strdup (error->message);
    }

  tl_host_overlay_clear (&overlay);
  g_clear_error (&error);
  g_clear_object (&scratch);
  g_task_return_boolean (task, TRUE);
}

static void
tl_preview_run_visible (TlPreview     *self,
                        GeglRectangle *visible)
{
  gdouble width  = (gdouble) gtk_widget_get_allocated_width (self->area) / self->zoom;
  gdouble height = (gdouble) gtk_widget_get_allocated_height (self->area) / self->zoom;

  visible->x      = (gint) floor (self->centre[0] - width / 2.0);
  visible->y      = (gint) floor (self->centre[1] - height / 2.0);
  visible->width  = (gint) ceil (width) + 2;
  visible->height = (gint) ceil (height) + 2;
}

/* One axis of tl_preview_run_work_area (): the part [*START, *END) of the
 * region [R0, R1) to filter so that the visible part [V0, V1) is covered
 * and the preview's run, which reads HALO more on each side within the
 * area [A0, A1), begins on a boundary of two of the real run's groups
 * (GROUP pixels each, so the checkerboard keeps its parity) and ends on
 * one of its groups.
 */
static gboolean
tl_preview_run_work_axis (gint  r0,
                          gint  r1,
                          gint  a0,
                          gint  a1,
                          gint  v0,
                          gint  v1,
                          gint  halo,
                          gint  group,
                          gint *start,
                          gint *end)
{
  gint run0, run1;

  v0 = MAX (v0, r0);
  v1 = MIN (v1, r1);
  if (v1 <= v0)
    return FALSE;

  run0 = a0 + MAX (0, v0 - halo - a0) / (2 * group) * (2 * group);
  run1 = a0 + (v1 + halo - a0 + group - 1) / group * group;

  *start = run0 > a0 ? run0 + halo : r0;
  *end   = MIN (r1, run1 - halo);
  if (*end < v1)
    *end = v1;
  return *end > *start;
}

/* The part of the region to run on: the visible part, grown so that the
 * preview's work-groups are the real run's.
 */
static void
tl_preview_run_work_area (TlPreview           *self,
                          const GeglRectangle *visible,
                          GeglRectangle       *work)
{
  gint halo, x0, x1, y0, y1;

  memset (work, 0, sizeof (*work));
  if (! self->have_plan || self->plan.local[0] == 0)
    {
      gegl_rectangle_intersect (work, visible, &self->region);
      return;
    }

  halo = self->region.x - self->run_area.x;
  halo = MAX (halo, self->run_area.x + self->run_area.width -
                    self->region.x - self->region.width);
  halo = MAX (halo, self->region.y - self->run_area.y);
  halo = MAX (halo, self->run_area.y + self->run_area.height -
                    self->region.y - self->region.height);

  if (tl_preview_run_work_axis (self->region.x, self->region.x + self->region.width,
                                self->run_area.x, self->run_area.x + self->run_area.width,
                                visible->x, visible->x + visible->width, halo,
                                self->plan.local[0] * self->plan.pixels_per_item,
                                &x0, &x1) &&
      tl_preview_run_work_axis (self->region.y, self->region.y + self->region.height,
                                self->run_area.y, self->run_area.y + self->run_area.height,
                                visible->y, visible->y + visible->height, halo,
                                self->plan.local[1], &y0, &y1))
    {
      work->x      = x0;
      work->y      = y0;
      work->width  = x1 - x0;
      work->height = y1 - y0;
    }
}

/* The region's pixels over WORK's: how much longer the whole region
 * takes than a run on WORK.
 */
static gdouble
tl_preview_run_scale (TlPreview           *self,
                      const GeglRectangle *work)
{
  return ((gdouble) self->region.width * self->region.height) /
         MAX ((gdouble) work->width * work->height, 1.0);
}

/* A run in flight: how far it has got, and once that says something,
 * the whole region's expected time.
 */
static gchar *
tl_preview_run_running_text (TlPreview *self)
{
  gint ppm, elapsed_ms;

  if (self->watch == NULL)
    return g_strdup (_("Running the kernels…"));
  ppm        = g_atomic_int_get (&self->watch->ppm);
  elapsed_ms = g_atomic_int_get (&self->watch->elapsed_ms);
  if (elapsed_ms < 500)
    return g_strdup (_("Running the kernels…"));
  if (ppm > 0)
    {
      TlEstimate        estimate = { 0.0, 0, 0.0, 0.0 };
      g_autofree gchar *time     = NULL;

      estimate.ms = elapsed_ms * 1e6 / ppm *
                    tl_preview_run_scale (self, &self->running_area);
      time = tl_estimate_text (&estimate);
      /* TRANSLATORS: the preview's run: percent done, seconds so far,
       * and the whole region's expected time ("about 41 min").
       */
      return g_strdup_printf (_("Running the kernels… %.0f%%, %.1f s; the "
                                "whole region: %s."), ppm / 1e4,
                              elapsed_ms / 1000.0, time);
    }
  /* TRANSLATORS: the preview's run: the seconds so far. */
  return g_strdup_printf (_("Running the kernels… %.1f s"),
                          elapsed_ms / 1000.0);
}

static gboolean
tl_preview_run_refresh (gpointer data)
{
  tl_preview_run_update_status (data);
  return G_SOURCE_CONTINUE;
}

/* The run in flight, if any, is told to stop: stale, or nobody waits. */
void
tl_preview_run_halt (TlPreview *self)
{
  if (self->watch)
    g_atomic_int_set (&self->watch->stop, 1);
}

void
tl_preview_run_update_status (TlPreview *self)
{
  g_autofree gchar *text = NULL;

  if (! self->active)
    text = g_strdup (_("Preview off: the original layer is shown."));
  else if (! self->runnable)
    text = g_strdup (_("No preview: these choices cannot run."));
  else if (self->running)
    text = tl_preview_run_running_text (self);
  else if (self->error)
    text = g_strdup_printf (_("Preview failed: %s"), self->error);
  else if (self->filtered == NULL && self->overlay == NULL)
    text = g_strdup (_("The visible part is outside the region."));
  else if (self->region_ms < 1000.0)
    /* TRANSLATORS: the size of the preview's run and its time. */
    text = g_strdup_printf (_("Ran on %d × %d pixels in %.0f ms."),
                            self->filtered_area.width,
                            self->filtered_area.height, self->ms);
  else
    {
      TlEstimate        estimate = { self->region_ms, 0, 0.0, 0.0 };
      g_autofree gchar *time     = tl_estimate_text (&estimate);

      if (self->region_ms > TL_ESTIMATE_LONG_MS)
        /* TRANSLATORS: the size of the preview's run, its time, and the
         * whole region's expected time ("about 41 min").
         */
        text = g_strdup_printf (_("Ran on %d × %d in %.0f ms; the whole "
                                  "region: %s, long."),
                                self->filtered_area.width,
                                self->filtered_area.height, self->ms, time);
      else
        /* TRANSLATORS: as above, for a run that is not long. */
        text = g_strdup_printf (_("Ran on %d × %d in %.0f ms; the whole "
                                  "region: %s."),
                                self->filtered_area.width,
                                self->filtered_area.height, self->ms, time);
    }

  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_tooltip_text (self->status, text);
}

static void tl_preview_run_start (TlPreview *self);

static void
tl_preview_run_done (GObject      *source_object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GWeakRef     *ref  = user_data;
  TlPreview    *self = g_weak_ref_get (ref);
  TlPreviewRunJob *job  = g_task_get_task_data (G_TASK (result));

  g_weak_ref_clear (ref);
  g_free (ref);
  tl_probe_job_end ();

  if (self == NULL)
    return;

  self->running = FALSE;
  if (self->progress_id)
    {
      g_source_remove (self->progress_id);
      self->progress_id = 0;
    }
  g_clear_pointer (&self->watch, g_atomic_rc_box_release);
  if (job->stopped && ! self->disposed)
    {
      /* What the last whole run showed stays until the next is done. */
      if (self->dirty)
        tl_preview_run_start (self);
      else
        tl_preview_run_update_status (self);
    }
  else if (! self->disposed)
    {
      g_clear_pointer (&self->original, cairo_surface_destroy);
      g_clear_pointer (&self->filtered, cairo_surface_destroy);
      g_clear_pointer (&self->overlay, cairo_surface_destroy);
      g_clear_pointer (&self->error, g_free);
      self->original      = g_steal_pointer (&job->original);
      self->original_area = job->visible;
      self->filtered      = g_steal_pointer (&job->filtered);
      self->filtered_area = job->work;
      self->overlay       = g_steal_pointer (&job->overlay);
      self->overlay_area  = job->overlay_area;
      self->error         = g_steal_pointer (&job->error);
      /* The engine's legend explains the colors (in English). */
      gtk_widget_set_tooltip_text (self->area, job->legend ? job->legend :
                                   _("Drag to move the view; scroll to zoom."));
      self->ms            = job->ms;
      self->region_ms     = job->filter ? job->kernel_ms *
                                          tl_preview_run_scale (self, &job->work)
                                        : 0.0;
      self->renders++;

      tl_preview_run_update_status (self);
      gtk_widget_queue_draw (self->area);

      if (self->dirty)
        tl_preview_run_start (self);
    }

  g_object_unref (self);
}

/* One run at a time: a change during a run marks the preview dirty, and
 * the run's end starts the next.
 */
static void
tl_preview_run_start (TlPreview *self)
{
  g_autoptr(GTask) task = NULL;
  TlPreviewRunJob    *job;
  GWeakRef        *ref;

  if (self->running)
    {
      /* The run in flight is stale: it stops, and its end starts this. */
      self->dirty = TRUE;
      tl_preview_run_halt (self);
      return;
    }
  self->dirty = FALSE;

  /* Not on screen yet: the first size allocation runs it. */
  if (gtk_widget_get_allocated_width (self->area) <= 1 || self->source == NULL)
    return;

  job = g_new0 (TlPreviewRunJob, 1);
  job->filter   = self->filter;
  job->source   = g_object_ref (self->source);
  job->settings = self->settings;
  job->run      = self->active && self->have_settings && self->runnable;
  tl_preview_run_visible (self, &job->visible);
  gegl_rectangle_intersect (&job->visible, &job->visible, &self->extent);
  if (job->run)
    tl_preview_run_work_area (self, &job->visible, &job->work);

  job->watch         = g_atomic_rc_box_new0 (TlPreviewWatch);
  self->watch        = g_atomic_rc_box_acquire (job->watch);
  self->running_area = job->work;
  self->running = TRUE;
  tl_preview_run_update_status (self);
  self->progress_id = g_timeout_add (TL_PREVIEW_RUN_STATUS_MS,
                                     tl_preview_run_refresh, self);

  /* A weak reference: the worker must never drop the widget's last. */
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  task = g_task_new (NULL, NULL, tl_preview_run_done, ref);
  g_task_set_source_tag (task, tl_preview_run_start);
  g_task_set_task_data (task, job, tl_preview_run_job_free);
  g_task_run_in_thread (task, tl_preview_run_thread);
}

static gboolean
tl_preview_run_timeout (gpointer data)
{
  TlPreview *self = data;

  self->timeout_id = 0;
  tl_preview_run_start (self);

  return G_SOURCE_REMOVE;
}

void
tl_preview_run_queue (TlPreview *self,
                      guint      delay)
{
  if (self->timeout_id)
    g_source_remove (self->timeout_id);
  self->timeout_id = g_timeout_add (delay, tl_preview_run_timeout, self);
}
